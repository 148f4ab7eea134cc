// Backend-neutral masked sampler: picks the next token from raw logits among the ids a grammar
// mask allows. Shared by the llama.cpp and MNN addons, so it knows nothing of either: it reads a
// float logits row, a bitset mask (bit i of word i >> 5 set = id i allowed) and sampling options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace pocket {

struct SamplingOptions {
  // <= 0 selects greedy decoding (highest logit, lowest id on ties).
  float temperature = 0.0f;
  // Keep only the k most likely allowed ids; <= 0 keeps all.
  int32_t top_k = 0;
  // Nucleus sampling: keep the smallest prefix of allowed ids whose probability reaches top_p; >= 1 keeps all.
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
  // their logits. NaN logits count as -infinity.
  int32_t sample(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words,
                 const SamplingOptions& options, SamplerRng& rng);

 private:
  // Scratch reused across calls so sampling does not allocate per token.
  std::vector<std::pair<float, int32_t>> candidates_;
};

}  // namespace pocket
