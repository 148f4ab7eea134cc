// Masked sampling over raw logits at memory speed. Only set bits of the mask are visited (word by
// word, skipping zero words); a word whose 32 ids are all allowed is read as 8-float vectors,
// which is what a mostly-open mask (inside a JSON string) costs. Greedy is one such pass with a
// running maximum. Sampling gathers the allowed logits once, turns them into weights with a
// vectorized exp, and draws by walking per-block weight sums, then one block.
//
// Top-k and top-p never sort: both keep "the smallest set of the best candidates whose measure
// (count for top-k, probability for top-p) reaches a goal", found by a radix search for the
// threshold key (keep_best), so their cost stays a few linear passes even when the nucleus is
// most of the vocabulary, as it is for flat distributions.
//
// Vectors are GCC/Clang vector extensions (portable to ARM); on x86-64 Linux the hot loops are
// also compiled for AVX2 and picked at load time. Without FMA contraction (ISO C++ mode) both
// variants round identically, so a seed draws the same id on any x86-64 machine.
#include "masked_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define POCKET_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define POCKET_SIMD_CLONES
#endif

namespace pocket {

InvalidLogit::InvalidLogit(int32_t id_, float value_)
    : std::runtime_error("the logit of token " + std::to_string(id_) + " is " + std::to_string(value_) +
                         ": the model's output is not finite (corrupted or mis-converted weights?)"),
      id(id_),
      value(value_) {}

namespace {

// The helpers below are always inlined into their (cloned) callers: no vector crosses a call,
// so GCC's note that returning AVX vectors changes the ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
#define POCKET_INLINE inline __attribute__((always_inline))

using f8 = float __attribute__((vector_size(32)));
using i8 = int32_t __attribute__((vector_size(32)));
using d4 = double __attribute__((vector_size(32)));
using f4 = float __attribute__((vector_size(16)));
constexpr float kInf = std::numeric_limits<float>::infinity();

POCKET_INLINE f8 load8(const float* p) {
  f8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
POCKET_INLINE void store8(float* p, const f8& v) { std::memcpy(p, &v, sizeof v); }
POCKET_INLINE f8 splat(float x) { return f8{x, x, x, x, x, x, x, x}; }
POCKET_INLINE f8 vmax(const f8& a, const f8& b) { return a > b ? a : b; }
POCKET_INLINE float hmax(const f8& v) {
  float m = v[0];
  for (int i = 1; i < 8; ++i) m = v[i] > m ? v[i] : m;
  return m;
}
// x - x is 0 for finite x and NaN for NaN and infinities: summing those flags a bad logit.
POCKET_INLINE bool any_lane(const i8& v) {
  using u4 = uint64_t __attribute__((vector_size(32)));
  const u4 x = (u4)v;
  return ((x[0] | x[1]) | (x[2] | x[3])) != 0;
}
POCKET_INLINE bool has_nan(const f8& v) {
  for (int i = 0; i < 8; ++i)
    if (v[i] != v[i]) return true;
  return false;
}

// The allowed bits of mask word w (bits past `width` in the last word belong to no token).
inline uint32_t allowed_bits(const uint32_t* mask, size_t w, int32_t width) {
  uint32_t bits = mask[w];
  const size_t base = w * 32;
  if (base + 32 > static_cast<size_t>(width)) bits &= (uint32_t{1} << (width - base)) - 1;
  return bits;
}

inline size_t word_count(size_t mask_words, int32_t width) {
  return std::min(mask_words, (static_cast<size_t>(width) + 31) / 32);
}

[[noreturn]] void throw_first_invalid(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words) {
  const size_t words = word_count(mask_words, width);
  for (size_t w = 0; w < words; ++w) {
    for (uint32_t bits = allowed_bits(mask, w, width); bits != 0; bits &= bits - 1) {
      const int32_t id = static_cast<int32_t>(w * 32 + __builtin_ctz(bits));
      if (!std::isfinite(logits[id])) throw InvalidLogit(id, logits[id]);
    }
  }
  throw std::logic_error("throw_first_invalid: no invalid logit");
}

// Highest allowed logit, lowest id on ties; -1 when nothing is allowed. `bad` is set when an
// allowed logit is not finite (the result is then meaningless).
POCKET_SIMD_CLONES
int32_t greedy(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, bool& bad) {
  const size_t words = word_count(mask_words, width);
  int32_t best_id = -1;
  float best = -kInf;
  f8 poison = splat(0.0f);
  float scalar_poison = 0.0f;
  for (size_t w = 0; w < words; ++w) {
    uint32_t bits = allowed_bits(mask, w, width);
    if (bits == 0) continue;
    const size_t base = w * 32;
    if (bits == ~uint32_t{0}) {
      const float* p = logits + base;
      const f8 a = load8(p), b = load8(p + 8), c = load8(p + 16), d = load8(p + 24);
      poison += (a - a) + (b - b) + (c - c) + (d - d);
      const float top = hmax(vmax(vmax(a, b), vmax(c, d)));
      if (top > best || best_id < 0) {
        int i = 0;
        while (i < 31 && !(p[i] == top)) ++i;
        best = top;
        best_id = static_cast<int32_t>(base + i);
      }
      continue;
    }
    for (; bits != 0; bits &= bits - 1) {
      const int32_t id = static_cast<int32_t>(base + __builtin_ctz(bits));
      const float v = logits[id];
      scalar_poison += v - v;
      if (v > best || best_id < 0) {
        best = v;
        best_id = id;
      }
    }
  }
  bad = has_nan(poison) || scalar_poison != scalar_poison;
  return best_id;
}

// Copies allowed ids and logits (ids/values need room for every allowed id plus 8); returns how
// many, sets `max` and `bad` as greedy does.
POCKET_SIMD_CLONES
size_t gather_allowed(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, int32_t* ids,
                      float* values, float& max, bool& bad) {
  const size_t words = word_count(mask_words, width);
  size_t n = 0;
  f8 top = splat(-kInf);
  f8 poison = splat(0.0f);
  float scalar_top = -kInf;
  float scalar_poison = 0.0f;
  const i8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
  for (size_t w = 0; w < words; ++w) {
    uint32_t bits = allowed_bits(mask, w, width);
    if (bits == 0) continue;
    const int32_t base = static_cast<int32_t>(w * 32);
    if (bits == ~uint32_t{0}) {
      for (int k = 0; k < 32; k += 8) {
        const f8 x = load8(logits + base + k);
        store8(values + n + k, x);
        poison += x - x;
        top = vmax(top, x);
        const i8 id = lane + (base + k);
        std::memcpy(ids + n + k, &id, sizeof id);
      }
      n += 32;
      continue;
    }
    for (; bits != 0; bits &= bits - 1) {
      const int32_t id = base + __builtin_ctz(bits);
      const float v = logits[id];
      scalar_poison += v - v;
      scalar_top = v > scalar_top ? v : scalar_top;
      ids[n] = id;
      values[n++] = v;
    }
  }
  max = std::max(hmax(top), scalar_top);
  bad = has_nan(poison) || scalar_poison != scalar_poison;
  return n;
}

// e^x for x <= 0 (Cephes' expf: range reduction by ln 2, degree-5 polynomial; within 2 ulp of
// the exact value, exactly 1 at 0). Below -87 (where floats turn subnormal) the weight is 0.
POCKET_INLINE f8 exp_nonpositive(const f8& x) {
  const f8 clamped = x < splat(-87.0f) ? splat(-87.0f) : x;
  const f8 shifter = splat(12582912.0f);  // 1.5 * 2^23: adding it rounds to an integer
  const f8 n = (clamped * splat(1.44269504088896341f) + shifter) - shifter;
  f8 r = clamped - n * splat(0.693359375f);
  r = r - n * splat(-2.12194440e-4f);
  f8 y = splat(1.9875691500e-4f);
  y = y * r + splat(1.3981999507e-3f);
  y = y * r + splat(8.3334519073e-3f);
  y = y * r + splat(4.1665795894e-2f);
  y = y * r + splat(1.6666665459e-1f);
  y = y * r + splat(5.0000001201e-1f);
  y = y * (r * r) + r + splat(1.0f);
  const i8 scale_bits = (__builtin_convertvector(n, i8) + 127) << 23;
  const f8 scaled = y * (f8)scale_bits;
  return x < splat(-87.0f) ? splat(0.0f) : scaled;
}

POCKET_INLINE double hsum(const d4& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Sum of the 8 floats at p in double.
POCKET_INLINE d4 sum8(const float* p) {
  f4 lo, hi;
  std::memcpy(&lo, p, sizeof lo);
  std::memcpy(&hi, p + 4, sizeof hi);
  return __builtin_convertvector(lo, d4) + __builtin_convertvector(hi, d4);
}

// values[i] = e^((values[i] - max) * inv_temperature) for i < n, and the sum of each block of
// `block` weights (a multiple of 8) into sums; returns the total. values has room for n + 8.
POCKET_SIMD_CLONES
double to_weights(float* values, size_t n, float max, float inv_temperature, size_t block, double* sums) {
  for (size_t i = n; i < n + 8; ++i) values[i] = -kInf;  // padding of the last vector: weight 0
  double total = 0.0;
  for (size_t start = 0; start < n; start += block) {
    d4 acc = {0, 0, 0, 0};
    const size_t end = std::min(start + block, n);
    for (size_t i = start; i < end; i += 8) {
      store8(values + i, exp_nonpositive((load8(values + i) - splat(max)) * splat(inv_temperature)));
      acc += sum8(values + i);
    }
    sums[start / block] = hsum(acc);
    total += sums[start / block];
  }
  return total;
}

// Sum of values[0, n) in double; values[n, n + 8) must be zero.
POCKET_SIMD_CLONES
double sum_doubles(const float* values, size_t n) {
  d4 acc = {0, 0, 0, 0};
  for (size_t i = 0; i < n; i += 8) acc += sum8(values + i);
  return hsum(acc);
}

// The k-th best of values[0, n) ranked by value (highest first, lowest index on ties), for
// 0 < k < n: a heap of the best k seen whose root is the worst of them, scanned 8 values at a
// time, so only values above the root (rare once it is full: about k ln(n / k) of them in a
// random order) touch it. `heap` has room for k pairs (value, index).
POCKET_SIMD_CLONES
std::pair<float, uint32_t> kth_best(const float* values, size_t n, size_t k, std::pair<float, uint32_t>* heap) {
  // Worse = lower value, or the same value at a higher index.
  const auto worse = [](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  // Moves heap[at] down until both children are no worse than it.
  const auto sift_down = [&](size_t at) {
    const std::pair<float, uint32_t> item = heap[at];
    for (size_t child = 2 * at + 1; child < k; child = 2 * at + 1) {
      if (child + 1 < k && worse(heap[child + 1], heap[child])) ++child;
      if (!worse(heap[child], item)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = item;
  };
  for (size_t i = 0; i < k; ++i) heap[i] = {values[i], static_cast<uint32_t>(i)};
  for (size_t i = k / 2; i-- > 0;) sift_down(i);
  // Scanning in index order, an equal value is never better than what the heap holds.
  const auto offer = [&](size_t i) {
    if (values[i] > heap[0].first) {
      heap[0] = {values[i], static_cast<uint32_t>(i)};
      sift_down(0);
    }
  };
  size_t i = k;
  for (; i < n && i % 8 != 0; ++i) offer(i);
  for (; i + 8 <= n; i += 8) {
    if (any_lane(load8(values + i) > splat(heap[0].first)))
      for (size_t j = i; j < i + 8; ++j) offer(j);
  }
  for (; i < n; ++i) offer(i);
  return heap[0];
}

// Compacts in place the (index order) candidates ranked at or above (value, index): value above,
// or equal at an index no higher. Returns how many; only vectors holding one are looked at.
POCKET_SIMD_CLONES
size_t keep_at_least(int32_t* ids, float* values, size_t n, float value, size_t index) {
  size_t kept = 0;
  const auto consider = [&](size_t i) {
    if (values[i] > value || (values[i] == value && i <= index)) {
      ids[kept] = ids[i];
      values[kept++] = values[i];
    }
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (any_lane(load8(values + i) >= splat(value)))
      for (size_t j = i; j < i + 8; ++j) consider(j);
  }
  for (; i < n; ++i) consider(i);
  return kept;
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
  const size_t n = count_;
  uint32_t lowest = std::numeric_limits<uint32_t>::max();
  uint32_t highest = 0;
  for (size_t i = 0; i < n; ++i) {
    keys_[i] = order_key(values_[i]);
    lowest = std::min(lowest, keys_[i]);
    highest = std::max(highest, keys_[i]);
  }

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
  count_ = kept;
}

void MaskedSampler::keep_top_k(size_t k) {
  // Few ids: the heap scan. Many (a heap of thousands stops being cheap): the radix search.
  if (k > kHeapTopK) {
    keep_best(static_cast<double>(k), [](size_t) { return 1.0; });
    return;
  }
  // -0 and +0 compare equal, as they should; the scan's values are finite (checked by gather).
  const auto [value, index] = kth_best(values_.data(), count_, k, heap_.data());
  count_ = keep_at_least(ids_.data(), values_.data(), count_, value, index);
}

double MaskedSampler::sum_blocks() {
  std::fill_n(values_.data() + count_, 8, 0.0f);
  const size_t blocks = (count_ + kBlock - 1) / kBlock;
  double total = 0.0;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t start = b * kBlock;
    block_sums_[b] = sum_doubles(values_.data() + start, std::min(kBlock, count_ - start));
    total += block_sums_[b];
  }
  return total;
}

int32_t MaskedSampler::pick(double target) const {
  // Whole blocks first, then candidate by candidate from the block where the target falls.
  const size_t blocks = (count_ + kBlock - 1) / kBlock;
  size_t b = 0;
  while (b + 1 < blocks && target >= block_sums_[b]) target -= block_sums_[b++];
  int32_t last_possible = ids_[0];
  for (size_t i = b * kBlock; i < count_; ++i) {
    if (values_[i] <= 0.0f) continue;
    last_possible = ids_[i];
    target -= values_[i];
    if (target < 0.0) return ids_[i];
  }
  // Rounding can leave a sliver of mass at the end: it belongs to the last id with any probability.
  return last_possible;
}

int32_t MaskedSampler::sample(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words,
                              const SamplingOptions& options, SamplerRng& rng) {
  bool bad = false;
  if (options.temperature <= 0.0f) {
    const int32_t id = greedy(logits, width, mask, mask_words, bad);
    if (bad) throw_first_invalid(logits, width, mask, mask_words);
    return id;
  }

  // Room for every id plus the padding of the last vector; grows once per vocabulary width.
  const size_t room = static_cast<size_t>(width) + 8;
  if (ids_.size() < room) {
    ids_.resize(room);
    values_.resize(room);
    keys_.resize(room);
    boundary_.resize(room);
    block_sums_.resize(room / kBlock + 1);
  }
  float max_logit = 0.0f;
  count_ = gather_allowed(logits, width, mask, mask_words, ids_.data(), values_.data(), max_logit, bad);
  if (bad) throw_first_invalid(logits, width, mask, mask_words);
  if (count_ == 0) return -1;

  if (options.top_k > 0 && static_cast<size_t>(options.top_k) < count_) keep_top_k(static_cast<size_t>(options.top_k));
  double total = to_weights(values_.data(), count_, max_logit, 1.0f / options.temperature, kBlock, block_sums_.data());
  if (options.top_p < 1.0f) {
    keep_best(std::max(0.0, static_cast<double>(options.top_p)) * total, [&](size_t i) { return double{values_[i]}; });
  }
  if (options.min_p > 0.0f) {
    // The most likely id has weight exactly 1 (e^0) and survives top-k and top-p.
    size_t kept = 0;
    for (size_t i = 0; i < count_; ++i) {
      ids_[kept] = ids_[i];
      values_[kept] = values_[i];
      kept += values_[i] >= options.min_p;
    }
    count_ = kept;
  }
  if (options.top_p < 1.0f || options.min_p > 0.0f) total = sum_blocks();
  // Candidates are walked in id order, so a seed picks the same id whatever the standard library.
  return pick(rng.uniform() * total);
}

}  // namespace pocket
