// Drives the shared masked sampler for test/engines/sampler.test.ts, with logits the test chooses
// (the addons only sample a model's own logits). Reads cases from stdin until EOF; a case is
//   width temperature top_k top_p min_p first_seed seeds
// then `width` logits and ceil(width / 32) mask words. Floats travel as their bit patterns in hex,
// so the sampler sees exactly the values the test computed with. For each seed in
// [first_seed, first_seed + seeds) the RNG is reseeded and one id is drawn; a case prints one line,
// or `invalid <id>` when the sampler refuses the logits (InvalidLogit).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "masked_sampler.h"

namespace {

bool read_float(float& out) {
  uint32_t bits;
  if (std::scanf("%x", &bits) != 1) return false;
  std::memcpy(&out, &bits, sizeof out);
  return true;
}

}  // namespace

int main() {
  pocket::MaskedSampler sampler;
  pocket::SamplerRng rng(0);
  int width;
  int seeds;
  unsigned long long first_seed;
  pocket::SamplingOptions options;
  while (std::scanf("%d", &width) == 1 && read_float(options.temperature) &&
         std::scanf("%d", &options.top_k) == 1 && read_float(options.top_p) && read_float(options.min_p) &&
         std::scanf("%llu %d", &first_seed, &seeds) == 2) {
    std::vector<float> logits(width);
    for (float& logit : logits) read_float(logit);
    std::vector<uint32_t> mask((width + 31) / 32);
    for (uint32_t& word : mask) std::scanf("%x", &word);
    try {
      std::string line;
      for (int s = 0; s < seeds; ++s) {
        rng.reseed(first_seed + s);
        line += (s == 0 ? "" : " ") + std::to_string(sampler.sample(logits.data(), width, mask.data(), mask.size(), options, rng));
      }
      std::printf("%s\n", line.c_str());
    } catch (const pocket::InvalidLogit& e) {
      std::printf("invalid %d\n", e.id);
    }
  }
  return 0;
}
