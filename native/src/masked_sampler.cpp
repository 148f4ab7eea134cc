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
    // Nucleus: order only as much of the head as the mass needs (doubling), not the whole vocabulary.
    const double keep_mass = std::max(0.0, static_cast<double>(options.top_p)) * total;
    size_t sorted = 0;
    size_t keep = 0;
    double mass = 0.0;
    while (keep < candidates_.size() && (keep == 0 || mass < keep_mass)) {
      if (keep == sorted) {
        const size_t next = std::min(candidates_.size(), std::max<size_t>(64, sorted * 2));
        std::partial_sort(candidates_.begin() + sorted, candidates_.begin() + next, candidates_.end(), higher);
        sorted = next;
      }
      mass += candidates_[keep++].first;
    }
    candidates_.resize(keep);
    total = mass;
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
