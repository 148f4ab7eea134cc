// Masked sampling over raw logits. Only set bits of the mask are visited (word by word, skipping
// zero words), which both applies the mask and avoids touching the logits of forbidden ids: with
// a typical grammar mask most of a 64K vocabulary is skipped 32 ids at a time.
//
// Top-k and top-p never sort: both keep "the smallest set of the best candidates whose measure
// (count for top-k, probability for top-p) reaches a goal", found by a radix search for the
// threshold key (keep_best), so their cost stays a few linear passes even when the nucleus is
// most of the vocabulary, as it is for flat distributions.
#include "masked_sampler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
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

// Maps a non-NaN float to a key with the same order; -0 and +0 share a key, as they compare equal.
uint32_t order_key(float v) {
  if (v == 0.0f) return 0x80000000u;
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

}  // namespace

// Ranks candidates by key, highest first and lowest id on equal keys (the order a sort by
// (value desc, id asc) gives), and keeps the shortest non-empty prefix of that ranking whose
// measure reaches `goal`, compacted in place in id order.
//
// The threshold key is found by a radix search over the range of keys in play: the range is cut
// into at most kDigitValues digits, a histogram of the measure per digit picks the digit where the
// goal is reached, and that digit is the next level's range, until the range is one key. Ranges
// follow the keys actually present, so nearly flat distributions resolve as fast as spread ones.
// Passes whose outcome per candidate is a coin toss (flat distributions) are branch-free.
template <typename Measure>
void MaskedSampler::keep_best(double goal, Measure measure) {
  const size_t n = ids_.size();
  keys_.resize(n);
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  uint32_t highest = 0;
  for (size_t i = 0; i < n; ++i) {
    keys_[i] = order_key(values_[i]);
    lowest = std::min(lowest, keys_[i]);
    highest = std::max(highest, keys_[i]);
  }
  if (boundary_.size() < n) boundary_.resize(n);

  // Keys in play are base + [0, span]; after the first level, held by the candidates
  // boundary_[0, in_play). `above` is the measure of the candidates with keys above the range.
  uint32_t base = lowest;
  uint32_t span = highest - lowest;
  size_t in_play = n;
  double above = 0.0;
  for (bool first = true;; first = false) {
    // Clearing and scanning the histograms costs per digit: few candidates get fewer digits (and
    // more levels) and one histogram, so that cost stays proportional to the candidates.
    uint32_t digits = kDigitValues;
    while (digits > 32 && digits > in_play) digits >>= 1;
    const size_t lanes = in_play >= 4 * size_t{digits} ? kLanes : 1;
    int shift = 0;
    while ((span >> shift) >= digits) ++shift;
    const uint32_t top_digit = span >> shift;
    for (size_t j = 0; j < in_play; ++j) {
      const size_t i = first ? j : boundary_[j];
      mass_[(j & (lanes - 1)) * kDigitValues + ((keys_[i] - base) >> shift)] += measure(i);
    }
    const auto digit_mass = [&](uint32_t d) {
      double m = 0.0;
      for (size_t h = 0; h < lanes; ++h) m += mass_[h * kDigitValues + d];
      return m;
    };
    // Highest digit first. A digit with no measure is skipped (zero weights are never needed to
    // reach the goal); if rounding leaves the goal just out of reach, the lowest digit with any
    // measure is the boundary.
    uint32_t digit = top_digit;
    bool reached = false;
    for (uint32_t d = top_digit + 1; d-- > 0;) {
      const double m = digit_mass(d);
      if (m <= 0.0) continue;
      digit = d;
      if (above + m >= goal) {
        reached = true;
        break;
      }
      above += m;
    }
    if (!reached) above -= digit_mass(digit);
    for (size_t h = 0; h < lanes; ++h) std::fill_n(&mass_[h * kDigitValues], top_digit + 1, 0.0);
    base += digit << shift;
    span = std::min(span - (digit << shift), (uint32_t{1} << shift) - 1);
    if (shift == 0) break;
    // Only the candidates in the boundary digit stay in play (keys below base wrap to large).
    size_t next = 0;
    for (size_t j = 0; j < in_play; ++j) {
      const uint32_t i = first ? static_cast<uint32_t>(j) : boundary_[j];
      boundary_[next] = i;
      next += keys_[i] - base <= span;
    }
    in_play = next;
  }

  // Every key above the threshold is kept; candidates at the threshold join in id order until
  // the goal is reached (at least one joins: the candidates above it fall short of the goal).
  const uint32_t threshold = base;
  size_t kept = 0;
  double tied = 0.0;
  bool any_tied = false;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t key = keys_[i];
    bool keep = key > threshold;
    if (key == threshold && (!any_tied || above + tied < goal)) {
      keep = any_tied = true;
      tied += measure(i);
    }
    ids_[kept] = ids_[i];
    values_[kept] = values_[i];
    kept += keep;
  }
  ids_.resize(kept);
  values_.resize(kept);
}

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

  ids_.clear();
  values_.clear();
  float max_logit = -std::numeric_limits<float>::infinity();
  for_each_allowed(mask, mask_words, width, [&](int32_t id) {
    const float v = finite_or_min(logits[id]);
    ids_.push_back(id);
    values_.push_back(v);
    max_logit = std::max(max_logit, v);
  });
  if (ids_.empty()) return -1;

  if (options.top_k > 0 && static_cast<size_t>(options.top_k) < ids_.size()) {
    keep_best(options.top_k, [](size_t) { return 1.0; });
  }
  // Every allowed logit is -inf: no distribution to sample from, fall back to the first candidate.
  if (std::isinf(max_logit)) return ids_.front();

  const float inv_temperature = 1.0f / options.temperature;
  for (float& v : values_) v = std::exp((v - max_logit) * inv_temperature);
  // Summed apart from the exp loop, which then runs without waiting on the additions' latency.
  double total = 0.0;
  for (const float v : values_) total += v;
  if (options.top_p < 1.0f) {
    keep_best(std::max(0.0, static_cast<double>(options.top_p)) * total, [&](size_t i) { return double{values_[i]}; });
    total = 0.0;
    for (const float v : values_) total += v;
  }
  // Candidates are walked in id order, so a seed picks the same id whatever the standard library.
  double target = rng.uniform() * total;
  int32_t last_possible = ids_.front();
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (values_[i] <= 0.0f) continue;
    last_possible = ids_[i];
    target -= values_[i];
    if (target < 0.0) return ids_[i];
  }
  // Rounding can leave a sliver of mass at the end: it belongs to the last id with any probability.
  return last_possible;
}

}  // namespace pocket
