// Masked sampling over raw logits. Only set bits of the mask are visited (word by word, skipping
// zero words), which both applies the mask and avoids touching the logits of forbidden ids: with
// a typical grammar mask most of a 64K vocabulary is skipped 32 ids at a time.
#include "masked_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pocket {
namespace {

float finite_or_min(float v) { return std::isnan(v) ? -std::numeric_limits<float>::infinity() : v; }

// Calls fn(id) for every allowed id below width, in increasing id order.
template <typename Fn>
void for_each_allowed(const uint32_t* mask, size_t mask_words, int32_t width, Fn&& fn) {
  const size_t words = std::min(mask_words, (static_cast<size_t>(width) + 31) / 32);
  for (size_t w = 0; w < words; ++w) {
    uint32_t bits = mask[w];
    const size_t base = w * 32;
    // Bits past `width` in the last word belong to no token.
    if (base + 32 > static_cast<size_t>(width)) bits &= (uint32_t{1} << (width - base)) - 1;
    while (bits != 0) {
      const int bit = __builtin_ctz(bits);
      fn(static_cast<int32_t>(base + bit));
      bits &= bits - 1;
    }
  }
}

// Nucleus selection without sorting: moves the smallest set of heaviest candidates whose weight
// reaches `keep_mass` to the front (in no particular order) and returns its size. Bisects with
// nth_element, so it costs O(n) even for flat distributions where the nucleus is most of the vocabulary.
template <typename Higher>
size_t nucleus_size(std::vector<std::pair<float, int32_t>>& c, double keep_mass, Higher higher) {
  // Invariant: [0, lo) is kept and weighs `acc` < keep_mass; [lo, hi) is heavier than [hi, n).
  size_t lo = 0;
  size_t hi = c.size();
  double acc = 0.0;
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    std::nth_element(c.begin() + lo, c.begin() + mid, c.begin() + hi, higher);
    double upper = 0.0;
    for (size_t i = lo; i < mid; ++i) upper += c[i].first;
    if (acc + upper >= keep_mass) {
      hi = mid;
    } else {
      acc += upper;
      lo = mid;
    }
  }
  return lo + 1;
}

}  // namespace

int32_t MaskedSampler::sample(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words,
                              const SamplingOptions& options, SamplerRng& rng) {
  if (options.temperature <= 0.0f) {
    int32_t best_id = -1;
    float best = 0.0f;
    for_each_allowed(mask, mask_words, width, [&](int32_t id) {
      const float v = finite_or_min(logits[id]);
      if (best_id < 0 || v > best) {
        best_id = id;
        best = v;
      }
    });
    return best_id;
  }

  candidates_.clear();
  for_each_allowed(mask, mask_words, width,
                   [&](int32_t id) { candidates_.emplace_back(finite_or_min(logits[id]), id); });
  if (candidates_.empty()) return -1;

  // Highest logit first, lowest id on ties, so results do not depend on sort stability.
  const auto higher = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  if (options.top_k > 0 && static_cast<size_t>(options.top_k) < candidates_.size()) {
    std::nth_element(candidates_.begin(), candidates_.begin() + options.top_k, candidates_.end(), higher);
    candidates_.resize(options.top_k);
  }
  const float max_logit = std::max_element(candidates_.begin(), candidates_.end(), [&](const auto& a, const auto& b) {
                            return higher(b, a);
                          })->first;
  // Every allowed logit is -inf: no distribution to sample from, fall back to the first candidate.
  if (std::isinf(max_logit)) return candidates_.front().second;

  const float inv_temperature = 1.0f / options.temperature;
  double total = 0.0;
  for (auto& c : candidates_) {
    c.first = std::exp((c.first - max_logit) * inv_temperature);
    total += c.first;
  }
  if (options.top_p < 1.0f) {
    const size_t keep = nucleus_size(candidates_, std::max(0.0, static_cast<double>(options.top_p)) * total, higher);
    candidates_.resize(keep);
    total = 0.0;
    for (const auto& c : candidates_) total += c.first;
  }
  double target = rng.uniform() * total;
  int32_t last_possible = candidates_.front().second;
  for (const auto& c : candidates_) {
    if (c.first <= 0.0f) continue;
    last_possible = c.second;
    target -= c.first;
    if (target < 0.0) return c.second;
  }
  // Rounding can leave a sliver of mass at the end: it belongs to the last id with any probability.
  return last_possible;
}

}  // namespace pocket
