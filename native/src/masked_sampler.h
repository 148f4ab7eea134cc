// Backend-neutral masked sampler: picks the next token from raw logits among the ids a grammar
// mask allows. Shared by the llama.cpp and MNN addons, so it knows nothing of either: it reads a
// float logits row, a bitset mask (bit i of word i >> 5 set = id i allowed) and sampling options.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
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
  // their logits. NaN logits count as -infinity. One uniform draw picks the id by walking the
  // kept ids in increasing id order, so a seed gives the same id with any standard library.
  int32_t sample(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words,
                 const SamplingOptions& options, SamplerRng& rng);

 private:
  // Keeps the shortest non-empty run of best candidates whose measure reaches `goal` (top-k, top-p).
  template <typename Measure>
  void keep_best(double goal, Measure measure);

  // Scratch reused across calls so sampling does not allocate per token: the allowed ids in
  // increasing order with their logits (then weights), order keys of those values, and the
  // positions still in play during keep_best's threshold search.
  std::vector<int32_t> ids_;
  std::vector<float> values_;
  std::vector<uint32_t> keys_;
  std::vector<uint32_t> boundary_;
  // keep_best's per-digit measure, zero between calls. Consecutive candidates often share a
  // digit; interleaving four histograms (lanes) keeps those additions from waiting on each other.
  static constexpr uint32_t kDigitValues = 2048;
  static constexpr size_t kLanes = 4;
  std::array<double, kLanes * kDigitValues> mass_{};
};

}  // namespace pocket
