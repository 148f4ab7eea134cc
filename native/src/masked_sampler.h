// Backend-neutral masked sampler: picks the next token from raw logits among the ids a grammar
// mask allows. Shared by the llama.cpp and MNN addons, so it knows nothing of either: it reads a
// float logits row, a bitset mask (bit i of word i >> 5 set = id i allowed) and sampling options.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pocket {

struct SamplingOptions {
  // <= 0 selects greedy decoding (highest logit, lowest id on ties).
  float temperature = 0.0f;
  // Keep only the k most likely allowed ids (lowest ids on ties); <= 0 keeps all.
  int32_t top_k = 0;
  // Nucleus sampling: keep the smallest set of most likely allowed ids (lowest ids on ties) whose
  // probability reaches top_p; >= 1 keeps all, <= 0 keeps the most likely one.
  float top_p = 1.0f;
  // Keep only ids whose probability is at least min_p times the most likely id's; <= 0 keeps all.
  // Applied after top-k and top-p (the kept set is the intersection, as in llama.cpp's chain).
  float min_p = 0.0f;
};

// A NaN or infinite logit among the allowed ids: the model's output is broken (corrupted or
// mis-converted weights), so no choice made from it would mean anything.
class InvalidLogit : public std::runtime_error {
 public:
  InvalidLogit(int32_t id, float value);
  const int32_t id;
  const float value;
};

// Seeded generator for reproducible sampling. mt19937_64's output sequence is fixed by the C++
// standard, and we turn it into doubles ourselves (the std distributions are not portable).
class SamplerRng {
 public:
  explicit SamplerRng(uint64_t seed) : engine_(seed) {}
  void reseed(uint64_t seed) { engine_.seed(seed); }
  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(engine_() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  std::mt19937_64 engine_;
};

class MaskedSampler {
 public:
  // Returns the chosen id, or -1 when the mask allows no id below `width`. The mask is read in
  // place (`mask_words` >= ceil(width / 32)); ids whose bit is clear are never returned, whatever
  // their logits. Throws InvalidLogit when an allowed id's logit is NaN or infinite. One uniform
  // draw picks the id by walking the kept ids in increasing id order, so a seed gives the same id
  // with any standard library.
  int32_t sample(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words,
                 const SamplingOptions& options, SamplerRng& rng);

 private:
  // A kept set over the candidates: every weight above `above`, and, when `ties`, the ones equal
  // to it at positions up to `last_tied` (ties join in id order; the tied ones are among
  // bracket_positions_ after nucleus()).
  struct Cut {
    float above;
    bool ties;
    size_t last_tied;
  };
  // The same over order keys (see order_key in the .cpp), as the radix search finds it.
  struct KeyCut {
    uint32_t key;
    size_t last_tied;
  };
  // Ranks values[0, n) highest first, lowest index on ties, and finds the end of the shortest
  // non-empty prefix of that ranking whose measure reaches `goal`.
  template <typename Measure>
  KeyCut rank_cut(const float* values, size_t n, double goal, Measure measure);
  // Keeps the k best candidates by logit (top-k, 0 < k < count_).
  void keep_top_k(size_t k);
  // The top-p cut over the weights in values_: the shortest run of best candidates whose weight
  // reaches `goal`. A sample of the weights brackets the cut, one pass splits off the candidates
  // inside the bracket, and rank_cut resolves the cut among those few.
  Cut nucleus(double goal, double total);
  // Fills sample_ from every kSampleStride-th weight; returns the last bucket used.
  uint32_t fill_sample();
  // Guesses the buckets [high, low] of sample_ holding the nucleus boundary, among the weights of
  // bucket `from` and below, which hold `tail_goal` of the nucleus' goal and `tail_total` of the
  // total mass; high > low when the sample cannot tell.
  std::pair<uint32_t, uint32_t> sample_bracket(double tail_goal, double tail_total, uint32_t from, uint32_t last) const;
  // Recomputes block_sums_ over the kept weights and returns their total.
  double kept_sums(const Cut& cut);
  // The kept position where a cumulative walk of the kept weights in id order passes `target`.
  size_t pick(double target, const Cut& cut) const;

  // Scratch reused across calls so sampling does not allocate per token (it grows once to the
  // widest vocabulary seen): the allowed ids in increasing order with their logits (then
  // weights), the positions still in play during rank_cut's
  // threshold search, the positions and weights inside the nucleus bracket, and the weight sum
  // of each block of kBlock candidates (for pick).
  static constexpr size_t kBlock = 256;
  // Whether the candidates are every position of the mask (candidate i is id i) rather than the
  // gathered ids_.
  bool dense_ = false;
  size_t count_ = 0;
  std::vector<int32_t> ids_;
  std::vector<float> values_;
  std::vector<uint32_t> boundary_;
  size_t bracket_inside_ = 0;
  std::vector<uint32_t> bracket_positions_;
  std::vector<float> bracket_weights_;
  std::vector<double> block_sums_;
  // Top-k up to kHeapTopK keeps its best candidates in a heap (room for kHeapTopK).
  static constexpr size_t kHeapTopK = 1024;
  std::array<std::pair<float, uint32_t>, kHeapTopK> heap_{};
  // rank_cut's per-digit measure, zero between calls. Consecutive candidates often share a
  // digit; interleaving four histograms (lanes) keeps those additions from waiting on each other.
  static constexpr uint32_t kDigitValues = 2048;
  static constexpr size_t kLanes = 4;
  std::array<double, kLanes * kDigitValues> mass_{};
  // The nucleus bracket's sample: weight, squared weight and count per bucket of 1/32 octave
  // below 1 (the last bucket holds everything smaller), zero between calls. Fewer candidates
  // than kSampleFrom skip it; its bracket is kSampleSigmas standard deviations wide on each side,
  // or the next kHeadSample heaviest sampled weights when the sample cannot tell (its bracket
  // would hold more than half of the sampled weights above the cut).
  static constexpr size_t kSampleStride = 16;
  static constexpr size_t kSampleFrom = 4096;
  static constexpr uint32_t kSampleBuckets = 1024;
  static constexpr double kSampleSigmas = 3.5;
  static constexpr uint32_t kHeadSample = 64;
  struct SampleBucket {
    float mass = 0.0f;
    float squares = 0.0f;
    uint32_t count = 0;
  };
  std::array<SampleBucket, kSampleBuckets> sample_{};
};

}  // namespace pocket
