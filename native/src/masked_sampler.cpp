// Masked sampling over raw logits at memory speed. Only set bits of the mask are visited (word by
// word, skipping zero words); a word whose 32 ids are all allowed is read as two 16-float
// vectors, which is what a mostly-open mask (inside a JSON string) costs. Greedy is one such pass
// with a running maximum. Sampling gathers the allowed logits once (a mask allowing at least 3/4
// of the ids is instead weighed in place, every position a candidate), turns them into weights
// with a vectorized exp, and draws by walking per-block weight sums, then one block.
//
// Top-k and top-p never sort. Top-k up to 1,024 keeps a heap fed by a vector scan; larger k and
// the top-p cut use a radix search for the threshold key (rank_cut), whose cost is a few linear
// passes. For top-p over many candidates, a sample of the weights first brackets the cut, so one
// vector pass splits off the few candidates near it (with AVX-512, compressing them into place)
// and only those go through the radix search.
//
// Vectors are GCC/Clang vector extensions of 16 floats (portable to ARM); on x86-64 Linux the hot
// loops are also compiled for AVX-512 and AVX2 and picked at load time. Every variant does the
// same per-lane operations in the same order, and without FMA contraction (native/build.mjs
// passes -ffp-contract=off) they round identically, so a seed draws the same id on any x86-64 machine.
#include "masked_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define POCKET_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
// Where an AVX-512 instruction has no portable vector form (mask registers, compress), a function
// is also compiled for x86-64-v4 with intrinsics and picked at run time (-DPOCKET_X86_DISPATCH=0
// keeps the portable code only: the tests compare the two).
#ifndef POCKET_X86_DISPATCH
#define POCKET_X86_DISPATCH 1
#endif
#include <immintrin.h>
#else
#undef POCKET_X86_DISPATCH
#define POCKET_X86_DISPATCH 0
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
// so GCC's note that returning wide vectors changes the ABI does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
#define POCKET_INLINE inline __attribute__((always_inline))

constexpr int kSimdLanes = 16;
using fv = float __attribute__((vector_size(4 * kSimdLanes)));
using iv = int32_t __attribute__((vector_size(4 * kSimdLanes)));
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr iv kLane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
constexpr fv kLaneBit = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};

POCKET_INLINE fv load(const float* p) {
  fv v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
POCKET_INLINE void store(float* p, const fv& v) { std::memcpy(p, &v, sizeof v); }
POCKET_INLINE fv splat(float x) { return fv{} + x; }
POCKET_INLINE fv vmax(const fv& a, const fv& b) { return a > b ? a : b; }
POCKET_INLINE float hmax(const fv& v) {
  float m = v[0];
  for (int i = 1; i < kSimdLanes; ++i) m = v[i] > m ? v[i] : m;
  return m;
}
// A fixed pairwise tree, the same in every variant.
POCKET_INLINE float hsum(const fv& v) {
  float s[8];
  for (int i = 0; i < 8; ++i) s[i] = v[i] + v[i + 8];
  return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
}
// Whether any lane has a bit set. Comparisons feed it (and everything else) through `?:` into
// float vectors: GCC 12 turns a comparison used as an integer vector into scalar code for 16 lanes.
POCKET_INLINE bool any_bits(const fv& v) {
  using u8 = uint64_t __attribute__((vector_size(4 * kSimdLanes)));
  const u8 x = (u8)v;
  return (((x[0] | x[1]) | (x[2] | x[3])) | ((x[4] | x[5]) | (x[6] | x[7]))) != 0;
}
// The lanes of `selected` (each kLaneBit's lane or 0) as a 16-bit mask: a halving tree of vector
// adds, exact for distinct powers of two and cheaper than testing and summing lane by lane.
POCKET_INLINE uint32_t lane_bits(const fv& selected) {
  using f8 = float __attribute__((vector_size(32)));
  using f4 = float __attribute__((vector_size(16)));
  const f8 half = __builtin_shufflevector(selected, selected, 0, 1, 2, 3, 4, 5, 6, 7) +
                  __builtin_shufflevector(selected, selected, 8, 9, 10, 11, 12, 13, 14, 15);
  const f4 quarter = __builtin_shufflevector(half, half, 0, 1, 2, 3) + __builtin_shufflevector(half, half, 4, 5, 6, 7);
  return static_cast<uint32_t>((quarter[0] + quarter[1]) + (quarter[2] + quarter[3]));
}
// Whether any lane of x is above t.
POCKET_INLINE bool any_above(const fv& x, const fv& t) { return any_bits(x > t ? splat(1.0f) : splat(0.0f)); }
// x - x is 0 for finite x and NaN for NaN and infinities: summing those flags a bad logit.
POCKET_INLINE bool has_nan(const fv& v) { return any_bits(v == v ? splat(0.0f) : splat(1.0f)); }

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

// The end of the run of fully allowed words from w (whose word is full) up to `limit`.
inline size_t full_run_end(const uint32_t* mask, size_t w, size_t limit) {
  size_t end = w + 1;
  while (end < limit && mask[end] == ~uint32_t{0}) ++end;
  return end;
}

// Lanes of a 16-id half word whose bit is set (the lane's kLaneBit), as a selection: through a
// float conversion, since GCC 12 scalarizes integer vector comparisons (with AVX-512 this is a
// mask register and the select a masked load).
POCKET_INLINE fv allowed_lanes(uint32_t half_word) {
  constexpr iv kLaneBits = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  return __builtin_convertvector((iv{} + static_cast<int32_t>(half_word)) & kLaneBits, fv);
}

// Partly allowed words with at least this many allowed ids are read as vectors (a string's mask
// with scattered exclusions); sparser ones id by id, so that a sparse mask's maximum is found in
// one pass, as before (a maximum held by a vector word needs a second pass to find its id).
constexpr int kVectorBits = 8;

// Whether partly allowed words are read as vectors at all: with AVX-512 the lane selection is a
// mask register; GCC 12 compiles it lane by lane for AVX2 (more instructions than going id by
// id, by callgrind), and it is untried elsewhere.
bool partial_words_as_vectors() {
#if POCKET_X86_DISPATCH
  static const bool avx512 = __builtin_cpu_supports("x86-64-v4");
  return avx512;
#else
  return false;
#endif
}

// The highest allowed logit, read in place: `vector_top` over the words read as vectors, and
// `scalar_top` with its first id over the words read id by id (-inf and -1 when none). A fully
// allowed word, and with AVX-512 a word with at least kVectorBits allowed ids, is read as two
// vectors, the disallowed lanes replaced by -inf (so a string's mask with scattered exclusions
// costs about what an open one does); other words, and a last word reaching past `width`, go id
// by id. One maximum per lane, no horizontal step
// per word. `bad` is set when an allowed logit is not finite (the rest is then meaningless).
struct MaxScan {
  float vector_top;
  float scalar_top;
  int32_t scalar_best_id;
  float best() const { return std::max(vector_top, scalar_top); }
};

// Whether a partly allowed word w is read as vectors (see max_scan).
POCKET_INLINE bool partial_as_vector(uint32_t bits, size_t w, size_t full_words, bool partial_as_vectors) {
  return partial_as_vectors && w < full_words && __builtin_popcount(bits) >= kVectorBits;
}

POCKET_SIMD_CLONES
MaxScan max_scan(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, bool& bad) {
  const size_t words = word_count(mask_words, width);
  const size_t full_words = static_cast<size_t>(width) / 32;  // words whose 32 logits all exist
  const bool partial_as_vectors = partial_words_as_vectors();
  fv top = splat(-kInf);
  fv poison = splat(0.0f);
  float scalar_top = -kInf;
  float scalar_poison = 0.0f;
  int32_t scalar_best_id = -1;
  for (size_t w = 0; w < words; ++w) {
    uint32_t bits = allowed_bits(mask, w, width);
    if (bits == 0) continue;
    const float* p = logits + w * 32;
    if (bits == ~uint32_t{0}) {  // a full word lies inside the vocabulary (bits past it are clear)
      const fv a = load(p), b = load(p + kSimdLanes);
      poison += (a - a) + (b - b);
      top = vmax(top, vmax(a, b));
      continue;
    }
    if (partial_as_vector(bits, w, full_words, partial_as_vectors)) {
      const fv low = allowed_lanes(bits & 0xffffu), high = allowed_lanes(bits >> 16);
      const fv a = load(p), b = load(p + kSimdLanes);
      poison += (low > splat(0.0f) ? a - a : splat(0.0f)) + (high > splat(0.0f) ? b - b : splat(0.0f));
      top = vmax(top, vmax(low > splat(0.0f) ? a : splat(-kInf), high > splat(0.0f) ? b : splat(-kInf)));
      continue;
    }
    for (; bits != 0; bits &= bits - 1) {
      const float v = p[__builtin_ctz(bits)];
      scalar_poison += v - v;
      if (v > scalar_top || scalar_best_id < 0) {
        scalar_top = v;
        scalar_best_id = static_cast<int32_t>(w * 32 + __builtin_ctz(bits));
      }
    }
  }
  bad = has_nan(poison) || scalar_poison != scalar_poison;
  return {hmax(top), scalar_top, scalar_best_id};
}

// Highest allowed logit, lowest id on ties; -1 when nothing is allowed; `bad` as max_scan sets
// it. When a vector word holds the maximum, a second pass finds the first one that does, if it
// comes before the best id read id by id.
POCKET_SIMD_CLONES
int32_t greedy(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, bool& bad) {
  const MaxScan scan = max_scan(logits, width, mask, mask_words, bad);
  const float best = scan.best();
  if (bad || best == -kInf) return -1;
  if (!(scan.vector_top == best)) return scan.scalar_best_id;
  const size_t full_words = static_cast<size_t>(width) / 32;
  const bool partial_as_vectors = partial_words_as_vectors();
  const size_t end = scan.scalar_best_id >= 0 && scan.scalar_top == best ? static_cast<size_t>(scan.scalar_best_id) / 32
                                                                          : word_count(mask_words, width);
  for (size_t w = 0; w < end; ++w) {
    const uint32_t bits = allowed_bits(mask, w, width);
    const float* p = logits + w * 32;
    if (bits == ~uint32_t{0}) {
      if (!any_bits(load(p) == splat(best) ? splat(1.0f) : splat(0.0f)) && !any_bits(load(p + kSimdLanes) == splat(best) ? splat(1.0f) : splat(0.0f))) continue;
    } else if (bits != 0 && partial_as_vector(bits, w, full_words, partial_as_vectors)) {
      const fv low = allowed_lanes(bits & 0xffffu), high = allowed_lanes(bits >> 16);
      if (!any_bits(load(p) == splat(best) ? low : splat(0.0f)) && !any_bits(load(p + kSimdLanes) == splat(best) ? high : splat(0.0f))) continue;
    } else {
      continue;
    }
    for (uint32_t b = bits; b != 0; b &= b - 1) {
      if (p[__builtin_ctz(b)] == best) return static_cast<int32_t>(w * 32 + __builtin_ctz(b));
    }
  }
  return scan.scalar_best_id;
}

// Copies allowed ids and logits (ids/values need room for every allowed id plus kSimdLanes); returns how
// many, sets `max` and `bad` as greedy does.
POCKET_SIMD_CLONES
size_t gather_allowed(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, int32_t* ids,
                      float* values, float& max, bool& bad) {
  const size_t words = word_count(mask_words, width);
  size_t n = 0;
  fv top = splat(-kInf);
  fv poison = splat(0.0f);
  float scalar_top = -kInf;
  float scalar_poison = 0.0f;
  for (size_t w = 0; w < words; ++w) {
    uint32_t bits = allowed_bits(mask, w, width);
    if (bits == 0) continue;
    const int32_t base = static_cast<int32_t>(w * 32);
    if (bits == ~uint32_t{0}) {
      for (int k = 0; k < 32; k += kSimdLanes) {
        const fv x = load(logits + base + k);
        store(values + n + k, x);
        poison += x - x;
        top = vmax(top, x);
        const iv id = kLane + (base + k);
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

// Whether the mask allows at least 3/4 of the ids below `width`, judged from every 32nd word (bits
// past `width` count as disallowed) and given up as soon as too many are not: a sparse mask pays
// for a few words. A mostly open mask is weighed in place. Either answer gives a correct draw,
// and the same mask always gets the same answer.
bool mostly_open(const uint32_t* mask, size_t mask_words, int32_t width) {
  const size_t words = word_count(mask_words, width);
  const size_t budget = (words + 31) / 32 * 32 / 4;
  size_t disallowed = 0;
  for (size_t w = 0; w < words; w += 32) {
    const uint32_t bits = allowed_bits(mask, w, width);
    disallowed += bits == 0 ? 32 : 32 - static_cast<size_t>(__builtin_popcount(bits));
    if (disallowed > budget) return false;
  }
  return true;
}


// e^x for x <= 0 (Cephes' expf: range reduction by ln 2, degree-5 polynomial; within 2 ulp of
// the exact value, exactly 1 at 0). Below -87 (where floats turn subnormal) the weight is 0.
// The integer n travels in the low mantissa bits of n + 1.5 * 2^23 (which is also how it is
// rounded) and reaches the exponent field from there without a conversion.
POCKET_INLINE fv exp_nonpositive(const fv& x) {
  const fv clamped = x > splat(-87.0f) ? x : splat(-87.0f);
  const fv shifter = splat(12582912.0f);
  const fv shifted = clamped * splat(1.44269504088896341f) + shifter;
  const fv n = shifted - shifter;
  fv r = clamped - n * splat(0.693359375f);
  r = r - n * splat(-2.12194440e-4f);
  fv y = splat(1.9875691500e-4f);
  y = y * r + splat(1.3981999507e-3f);
  y = y * r + splat(8.3334519073e-3f);
  y = y * r + splat(4.1665795894e-2f);
  y = y * r + splat(1.6666665459e-1f);
  y = y * r + splat(5.0000001201e-1f);
  y = y * (r * r) + r + splat(1.0f);
  const iv scale_bits = ((iv)shifted - (0x4B400000 - 127)) << 23;
  return x >= splat(-87.0f) ? y * (fv)scale_bits : splat(0.0f);
}

// values[i] = e^((values[i] - max) * inv_temperature) for i < n, and the sum of each block of
// `block` weights (a multiple of kSimdLanes) into sums; returns the total. values has room for
// n + kSimdLanes; the padding up to the next multiple of kSimdLanes gets weight 0. Within a block each
// lane sums in float (block / kSimdLanes weights of at most 1: far below the weights' 2 ulp), blocks
// add up in double.
POCKET_SIMD_CLONES
double to_weights(float* values, size_t n, float max, float inv_temperature, size_t block, double* sums) {
  for (size_t i = n; i < n + kSimdLanes; ++i) values[i] = -kInf;
  double total = 0.0;
  for (size_t start = 0; start < n; start += block) {
    fv acc = splat(0.0f);
    const size_t end = std::min(start + block, n);
    for (size_t i = start; i < end; i += kSimdLanes) {
      const fv w = exp_nonpositive((load(values + i) - splat(max)) * splat(inv_temperature));
      store(values + i, w);
      acc += w;
    }
    sums[start / block] = hsum(acc);
    total += sums[start / block];
  }
  return total;
}

// The weights of every position of a mostly open mask in place of a gathered list: values[id] =
// e^((logits[id] - max) * inv_temperature) for allowed ids, 0 for the others and for the
// positions of the last word past `width` (values has room for a whole last word), with block
// sums as to_weights makes them over positions; returns the total. Reads the logits only once.
POCKET_SIMD_CLONES
double dense_weights(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, float max,
                     float inv_temperature, size_t block, float* values, double* sums) {
  const size_t words = word_count(mask_words, width);
  const size_t n = words * 32;
  const size_t full_words = static_cast<size_t>(width) / 32;  // words whose 32 logits all exist
  double total = 0.0;
  for (size_t start = 0; start < n; start += block) {
    fv acc = splat(0.0f);
    for (size_t w = start / 32, end = std::min(start + block, n) / 32; w < end; ++w) {
      const uint32_t bits = allowed_bits(mask, w, width);
      float* out = values + w * 32;
      if (bits == ~uint32_t{0}) {
        // A run of fully allowed words goes through one straight loop (its constants stay in
        // registers); its weights and their order in acc are those of the word-by-word path.
        const size_t run_end = full_run_end(mask, w, std::min(end, full_words));
        for (size_t i = w * 32; i < run_end * 32; i += kSimdLanes) {
          const fv x = exp_nonpositive((load(logits + i) - splat(max)) * splat(inv_temperature));
          store(values + i, x);
          acc += x;
        }
        w = run_end - 1;
        continue;
      }
      if (bits == 0) {
        store(out, splat(0.0f));
        store(out + kSimdLanes, splat(0.0f));
        continue;
      }
      if (w < full_words) {
        for (int k = 0; k < 32; k += kSimdLanes)
          store(out + k, exp_nonpositive((load(logits + w * 32 + k) - splat(max)) * splat(inv_temperature)));
      } else {
        float row[32];
        for (int k = 0; k < 32; ++k) row[k] = w * 32 + k < static_cast<size_t>(width) ? logits[w * 32 + k] : -kInf;
        for (int k = 0; k < 32; k += kSimdLanes) store(out + k, exp_nonpositive((load(row + k) - splat(max)) * splat(inv_temperature)));
      }
      for (uint32_t off = ~bits; off != 0; off &= off - 1) out[__builtin_ctz(off)] = 0.0f;
      acc += load(out);  // in to_weights' order, so an open mask gets the sums a gathered list gets
      acc += load(out + kSimdLanes);
    }
    sums[start / block] = hsum(acc);
    total += sums[start / block];
  }
  return total;
}

// Appending the positions and weights of the lanes inside a bracket (lo, hi] to the split's
// output. Portably: a lane mask from a halving tree, then lane by lane. With AVX-512: a mask
// register compresses them into place, branch-free (the portable way spends most of a split's
// time on the tree and on mispredicting which vectors hold one).
struct PortableLanes {
  static POCKET_INLINE size_t append_inside(const fv& x, size_t i, float lo, float hi, uint32_t* positions,
                                            float* weights, size_t inside) {
    // Weights above hi become -2, below any lo (which is at least -1); a lane inside weighs its
    // bit of a 16-bit mask.
    const fv in = (x > splat(hi) ? splat(-2.0f) : x) > splat(lo) ? kLaneBit : splat(0.0f);
    for (uint32_t bits = lane_bits(in); bits != 0; bits &= bits - 1) {
      const size_t at = static_cast<size_t>(__builtin_ctz(bits));
      positions[inside] = static_cast<uint32_t>(i + at);
      weights[inside++] = x[at];
    }
    return inside;
  }
};

#if POCKET_X86_DISPATCH
struct Avx512Lanes {
  // Not always_inline: it only inlines into callers compiled for AVX-512 (flatten, below).
  __attribute__((target("avx512f"))) static inline size_t append_inside(const fv& x, size_t i, float lo, float hi,
                                                                         uint32_t* positions, float* weights,
                                                                         size_t inside) {
    __m512 v;
    std::memcpy(&v, &x, sizeof v);
    const __mmask16 in = _mm512_cmp_ps_mask(v, _mm512_set1_ps(lo), _CMP_GT_OQ) &
                         _mm512_cmp_ps_mask(v, _mm512_set1_ps(hi), _CMP_LE_OQ);
    if (in == 0) return inside;
    const __m512i lanes = _mm512_add_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi32(static_cast<int32_t>(i)));
    // Full-width stores of the compressed lanes: the outputs have room for kSimdLanes more.
    _mm512_storeu_ps(weights + inside, _mm512_maskz_compress_ps(in, v));
    _mm512_storeu_si512(positions + inside, _mm512_maskz_compress_epi32(in, lanes));
    return inside + static_cast<size_t>(__builtin_popcount(in));
  }
};
#endif

// Splits the weights values[0, n) at a bracket (lo, hi]: sets the mass of those above hi
// (`any_above_hi`: whether there is one) and copies the positions and weights inside the
// bracket, in order, to positions/weights (room for n + kSimdLanes); returns how many are inside
// and sets their mass. Every Lanes gives the same results.
template <typename Lanes>
POCKET_INLINE size_t split_bracket_with(const float* values, size_t n, float lo, float hi, uint32_t* positions,
                                        float* weights, double& above_mass, bool& any_above_hi, double& inside_mass) {
  size_t inside = 0;
  double mass = 0.0;
  fv top = splat(-kInf);
  size_t i = 0;
  while (i + kSimdLanes <= n) {
    fv acc = splat(0.0f);
    for (const size_t end = std::min(n, i + 256); i + kSimdLanes <= end; i += kSimdLanes) {
      const fv x = load(values + i);
      const fv up = x > splat(hi) ? x : splat(0.0f);
      acc += up;
      top = vmax(top, x);
      inside = Lanes::append_inside(x, i, lo, hi, positions, weights, inside);
    }
    mass += hsum(acc);
  }
  bool tail_above = false;
  for (; i < n; ++i) {
    const float x = values[i];
    if (x > hi) {
      mass += x;
      tail_above = true;
    } else if (x > lo) {
      positions[inside] = static_cast<uint32_t>(i);
      weights[inside++] = x;
    }
  }
  double in_mass = 0.0;
  for (size_t k = 0; k < inside; ++k) in_mass += weights[k];
  above_mass = mass;
  inside_mass = in_mass;
  any_above_hi = tail_above || hmax(top) > hi;
  return inside;
}

POCKET_SIMD_CLONES
size_t split_bracket_portable(const float* values, size_t n, float lo, float hi, uint32_t* positions, float* weights,
                              double& above_mass, bool& any_above_hi, double& inside_mass) {
  return split_bracket_with<PortableLanes>(values, n, lo, hi, positions, weights, above_mass, any_above_hi, inside_mass);
}

#if POCKET_X86_DISPATCH
__attribute__((target("arch=x86-64-v4"), flatten))
size_t split_bracket_avx512(const float* values, size_t n, float lo, float hi, uint32_t* positions, float* weights,
                            double& above_mass, bool& any_above_hi, double& inside_mass) {
  return split_bracket_with<Avx512Lanes>(values, n, lo, hi, positions, weights, above_mass, any_above_hi, inside_mass);
}
#endif

size_t split_bracket(const float* values, size_t n, float lo, float hi, uint32_t* positions, float* weights,
                     double& above_mass, bool& any_above_hi, double& inside_mass) {
#if POCKET_X86_DISPATCH
  // The same test target_clones makes for its x86-64-v4 clones.
  static const bool avx512 = __builtin_cpu_supports("x86-64-v4");
  if (avx512) return split_bracket_avx512(values, n, lo, hi, positions, weights, above_mass, any_above_hi, inside_mass);
#endif
  return split_bracket_portable(values, n, lo, hi, positions, weights, above_mass, any_above_hi, inside_mass);
}

// The weight above `weight` of each block of `block` weights into sums (a multiple of
// kSimdLanes; values are zero-padded to one); returns the total.
POCKET_SIMD_CLONES
double block_sums_above(const float* values, size_t n, float weight, size_t block, double* sums) {
  double total = 0.0;
  for (size_t start = 0; start < n; start += block) {
    fv acc = splat(0.0f);
    const size_t end = std::min(start + block, n);
    for (size_t i = start; i < end; i += kSimdLanes) {
      const fv x = load(values + i);
      acc += x > splat(weight) ? x : splat(0.0f);
    }
    sums[start / block] = hsum(acc);
    total += sums[start / block];
  }
  return total;
}

// The k-th best of values[0, n) ranked by value (highest first, lowest index on ties), for
// 0 < k < n: a heap of the best k seen whose root is the worst of them, scanned kSimdLanes values at
// a time, so only values above the root (rare once it is full: about k ln(n / k) of them in a
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
  for (; i < n && i % kSimdLanes != 0; ++i) offer(i);
  for (; i + kSimdLanes <= n; i += kSimdLanes) {
    if (any_above(load(values + i), splat(heap[0].first)))
      for (size_t j = i; j < i + kSimdLanes; ++j) offer(j);
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
  for (; i + kSimdLanes <= n; i += kSimdLanes) {
    if (any_bits(load(values + i) >= splat(value) ? splat(1.0f) : splat(0.0f)))
      for (size_t j = i; j < i + kSimdLanes; ++j) consider(j);
  }
  for (; i < n; ++i) consider(i);
  return kept;
}

// The lowest and highest of values[0, n), n > 0 (no NaN).
POCKET_SIMD_CLONES
std::pair<float, float> value_range(const float* values, size_t n) {
  fv low = splat(kInf);
  fv high = splat(-kInf);
  size_t i = 0;
  for (; i + kSimdLanes <= n; i += kSimdLanes) {
    const fv x = load(values + i);
    low = x < low ? x : low;
    high = vmax(high, x);
  }
  float lowest = -hmax(-low);
  float highest = hmax(high);
  for (; i < n; ++i) {
    lowest = std::min(lowest, values[i]);
    highest = std::max(highest, values[i]);
  }
  return {lowest, highest};
}

// The indices i < n where from <= values[i] <= to, in increasing order, into out; returns how
// many (values finite). Made for few hits: 16 values are compared at a time and only a vector with one is read
// value by value.
POCKET_SIMD_CLONES
size_t positions_within(const float* values, size_t n, float from, float to, uint32_t* out) {
  size_t found = 0;
  const auto consider = [&](size_t i) {
    out[found] = static_cast<uint32_t>(i);
    found += values[i] >= from && values[i] <= to;
  };
  size_t i = 0;
  for (; i + kSimdLanes <= n; i += kSimdLanes) {
    // Values above `to` become -inf, below any `from` (values are finite).
    const fv x = load(values + i) > splat(to) ? splat(-kInf) : load(values + i);
    if (any_bits(x >= splat(from) ? splat(1.0f) : splat(0.0f)))
      for (size_t j = i; j < i + kSimdLanes; ++j) consider(j);
  }
  for (; i < n; ++i) consider(i);
  return found;
}

// Maps a non-NaN float to a key with the same order; -0 and +0 share a key, as they compare equal.
uint32_t order_key(float v) {
  if (v == 0.0f) return 0x80000000u;
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

// The float whose order_key is `key`.
float from_order_key(uint32_t key) {
  const uint32_t bits = (key & 0x80000000u) != 0 ? key & 0x7fffffffu : ~key;
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace

// The threshold key is found by a radix search over the range of keys in play: the range is cut
// into digits, a histogram of the measure per digit picks the digit where the goal is reached,
// and that digit is the next level's range, until the range is one key. Ranges follow the keys
// actually present, so nearly flat distributions resolve as fast as spread ones. Only the first
// level reads every candidate one by one (the histogram); finding the few candidates of the
// boundary digit, and the tied ones at the end, compare 16 values at a time (keys and values
// have the same order, so a key range is a value range).
template <typename Measure>
MaskedSampler::KeyCut MaskedSampler::rank_cut(const float* values, size_t n, double goal, Measure measure) {
  const auto [lowest, highest] = value_range(values, n);
  // Keys in play are base + [0, span]; after the first level, held by the candidates
  // boundary_[0, in_play). `above` is the measure of the candidates with keys above the range.
  uint32_t base = order_key(lowest);
  uint32_t span = order_key(highest) - base;
  size_t in_play = n;
  double above = 0.0;
  for (bool first = true;; first = false) {
    // Scanning the digits costs per digit (a chain of additions): about 8 candidates per digit
    // keep it well below the histogram's cost, and the next level small.
    uint32_t digits = kDigitValues;
    while (digits > 32 && digits * 8 > in_play) digits >>= 1;
    const size_t lanes = in_play >= 4 * size_t{digits} ? kLanes : 1;
    int shift = 0;
    while ((span >> shift) >= digits) ++shift;
    const uint32_t top_digit = span >> shift;
    for (size_t j = 0; j < in_play; ++j) {
      const size_t i = first ? j : boundary_[j];
      mass_[(j & (lanes - 1)) * kDigitValues + ((order_key(values[i]) - base) >> shift)] += measure(i);
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
    // Only the candidates in the boundary digit stay in play.
    const float from = from_order_key(base);
    const float to = from_order_key(base + span);
    in_play = first ? positions_within(values, n, from, to, boundary_.data())
                    : std::remove_if(boundary_.data(), boundary_.data() + in_play,
                                     [&](uint32_t i) { return !(values[i] >= from && values[i] <= to); }) -
                          boundary_.data();
  }

  // Every key above the threshold is kept; candidates at the threshold join in id order until
  // the goal is reached (at least one joins: the candidates above it fall short of the goal).
  const float threshold = from_order_key(base);
  const size_t tied_count = positions_within(values, n, threshold, threshold, boundary_.data());
  size_t last_tied = boundary_[0];
  double tied = 0.0;
  for (size_t t = 0; t < tied_count; ++t) {
    if (t > 0 && above + tied >= goal) break;
    tied += measure(boundary_[t]);
    last_tied = boundary_[t];
  }
  return {base, last_tied};
}

void MaskedSampler::keep_top_k(size_t k) {
  if (k <= kHeapTopK) {
    // -0 and +0 compare equal, as they should; the scan's values are finite (checked by gather).
    const auto [value, index] = kth_best(values_.data(), count_, k, heap_.data());
    count_ = keep_at_least(ids_.data(), values_.data(), count_, value, index);
    return;
  }
  // Many (a heap of thousands stops being cheap): the radix search, then the kept ones in order.
  const KeyCut cut = rank_cut(values_.data(), count_, static_cast<double>(k), [](size_t) { return 1.0; });
  const float threshold = from_order_key(cut.key);
  size_t kept = 0;
  for (size_t i = 0; i < count_; ++i) {
    ids_[kept] = ids_[i];
    values_[kept] = values_[i];
    kept += values_[i] > threshold || (values_[i] == threshold && i <= cut.last_tied);
  }
  count_ = kept;
}

namespace {

// Sample buckets: a weight w in [0, 1] falls in (bits(1) - bits(w)) >> 18, 32 buckets per
// octave below 1; bucket b holds the weights in (weight_above(b + 1), weight_above(b)].
constexpr uint32_t kOneBits = 0x3f800000u;
constexpr int kBucketShift = 18;

float weight_above(uint32_t bucket) {
  const uint32_t bits = kOneBits - (bucket << kBucketShift);
  float w;
  std::memcpy(&w, &bits, sizeof w);
  return w;
}

}  // namespace

uint32_t MaskedSampler::fill_sample() {
  uint32_t last = 0;
  for (size_t i = 0; i < count_; i += kSampleStride) {
    const float w = values_[i];
    uint32_t bits;
    std::memcpy(&bits, &w, sizeof bits);
    const uint32_t bucket = std::min<uint32_t>((kOneBits - std::min(bits, kOneBits)) >> kBucketShift, kSampleBuckets - 1);
    sample_[bucket].mass += w;
    sample_[bucket].squares += w * w;
    sample_[bucket].count += 1;
    last = std::max(last, bucket);
  }
  return last;
}

std::pair<uint32_t, uint32_t> MaskedSampler::sample_bracket(double tail_goal, double tail_total, uint32_t from,
                                                            uint32_t last) const {
  double mass = 0.0;
  double squares = 0.0;
  for (uint32_t b = from; b <= last; ++b) {
    mass += sample_[b].mass;
    squares += sample_[b].squares;
  }
  if (mass <= 0.0) return {1, 0};
  // The sample's share of its mass above a weight estimates the share of the whole (a ratio
  // estimator: it knows the exact total). Its variance where the share is the goal's f is
  // ((1 - f)^2 Q_above + f^2 Q_below) / W^2 (Q: the sample's squared weights, W: its mass); the
  // bracket spans the buckets within kSampleSigmas standard deviations of the goal.
  const double f = tail_goal / tail_total;
  const double z2 = kSampleSigmas * kSampleSigmas / (mass * mass);
  uint32_t high = kSampleBuckets;
  uint32_t count_above = 0;
  uint32_t count_inside = 0;
  double share = 0.0;
  double squares_above = 0.0;
  for (uint32_t b = from; b <= last; ++b) {
    share += sample_[b].mass / mass;
    squares_above += sample_[b].squares;
    count_above += sample_[b].count;
    const double variance = (1 - f) * (1 - f) * squares_above + f * f * (squares - squares_above);
    const bool near = (share - f) * (share - f) <= z2 * variance;
    if (high == kSampleBuckets && (share >= f || near)) high = b;
    if (high != kSampleBuckets) count_inside += sample_[b].count;
    if (share >= f && !near) {
      // A heavy head that the sample barely sees spreads the estimate over much of the sample:
      // it cannot tell then.
      if (count_inside > count_above / 2) return {1, 0};
      return {high, b};
    }
  }
  return {1, 0};
}

MaskedSampler::Cut MaskedSampler::nucleus(double goal, double total) {
  // (lo, hi] holds the boundary when the weights above hi fall short of the goal (or there are
  // none: a goal of 0 keeps the best one) and those above lo reach it. Without a sample, it is
  // everything (above -1). With one, the guess is the sample's bracket, or the next kHeadSample
  // heaviest sampled weights when the sample cannot tell (a few ids hold most of the mass). A
  // wrong guess costs one more split: upwards everything above, downwards the same guesses
  // among the weights below, whose mass is then known exactly.
  float lo = -1.0f;
  float hi = 2.0f;
  const bool sampled = count_ >= kSampleFrom;
  const uint32_t last = sampled ? fill_sample() : 0;
  // Brackets the boundary among the sample buckets from `from` on, which hold tail_goal of the
  // goal and tail_total of the mass.
  const auto guess = [&](uint32_t from, double tail_goal, double tail_total) {
    const auto [high, low] = sample_bracket(tail_goal, tail_total, from, last);
    if (high <= low) {
      hi = weight_above(high);
      lo = low < last ? weight_above(low + 1) : -1.0f;
      return;
    }
    uint32_t count = 0;
    uint32_t b = from;
    while (b < last && count + sample_[b].count < kHeadSample) count += sample_[b++].count;
    hi = weight_above(from);
    lo = b < last ? weight_above(b + 1) : -1.0f;
  };
  if (sampled) guess(0, goal, total);
  Cut cut{};
  for (;;) {
    double above = 0.0;
    double inside_mass = 0.0;
    bool any_above = false;
    const size_t inside = bracket_inside_ = split_bracket(values_.data(), count_, lo, hi, bracket_positions_.data(),
                                                          bracket_weights_.data(), above, any_above, inside_mass);
    if (any_above && above >= goal) {
      lo = hi;
      hi = 2.0f;
      continue;
    }
    if (lo > -1.0f && above + inside_mass < goal) {
      uint32_t bits;
      std::memcpy(&bits, &lo, sizeof bits);
      const double known = above + inside_mass;
      guess((kOneBits - bits) >> kBucketShift, goal - known, total - known);
      continue;
    }
    const float* weights = bracket_weights_.data();
    const KeyCut key_cut = rank_cut(weights, inside, goal - above, [weights](size_t i) { return double{weights[i]}; });
    cut = {from_order_key(key_cut.key), true, bracket_positions_[key_cut.last_tied]};
    break;
  }
  if (sampled) std::fill_n(sample_.begin(), last + 1, SampleBucket{});
  return cut;
}

double MaskedSampler::kept_sums(const Cut& cut) {
  double total = block_sums_above(values_.data(), count_, cut.above, kBlock, block_sums_.data());
  if (!cut.ties) return total;
  // The tied ones that join are bracket candidates (usually just one).
  for (size_t i = 0; i < bracket_inside_ && bracket_positions_[i] <= cut.last_tied; ++i) {
    if (bracket_weights_[i] != cut.above) continue;
    block_sums_[bracket_positions_[i] / kBlock] += bracket_weights_[i];
    total += bracket_weights_[i];
  }
  return total;
}

size_t MaskedSampler::pick(double target, const Cut& cut) const {
  // Whole blocks first, then candidate by candidate from the block where the target falls.
  const size_t blocks = (count_ + kBlock - 1) / kBlock;
  size_t b = 0;
  while (b + 1 < blocks && target >= block_sums_[b]) target -= block_sums_[b++];
  size_t last_possible = b * kBlock;
  for (size_t i = b * kBlock; i < count_; ++i) {
    const float w = values_[i];
    if (!(w > cut.above || (cut.ties && w == cut.above && i <= cut.last_tied)) || w <= 0.0f) continue;
    last_possible = i;
    target -= w;
    if (target < 0.0) return i;
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

  // Room for every id plus the padding of the last vector or word; grows once per vocabulary width.
  const size_t room = static_cast<size_t>(width) + 32;
  if (ids_.size() < room) {
    ids_.resize(room);
    values_.resize(room);
    boundary_.resize(room);
    bracket_positions_.resize(room);
    bracket_weights_.resize(room);
    block_sums_.resize(room / kBlock + 1);
  }
  const float inv_temperature = 1.0f / options.temperature;
  // A mostly open mask (free text, string contents) is weighed in place over every position,
  // disallowed ones weighing 0: no list of ids and logits is written. Top-k ranks logits, so it
  // gathers them.
  dense_ = (options.top_k <= 0 || options.top_k >= width) && mostly_open(mask, mask_words, width);
  double total = 0.0;
  if (dense_) {
    const float max_logit = max_scan(logits, width, mask, mask_words, bad).best();
    if (bad) throw_first_invalid(logits, width, mask, mask_words);
    if (max_logit == -kInf) return -1;  // nothing allowed
    count_ = word_count(mask_words, width) * 32;
    total = dense_weights(logits, width, mask, mask_words, max_logit, inv_temperature, kBlock, values_.data(), block_sums_.data());
  } else {
    float max_logit = 0.0f;
    count_ = gather_allowed(logits, width, mask, mask_words, ids_.data(), values_.data(), max_logit, bad);
    if (bad) throw_first_invalid(logits, width, mask, mask_words);
    if (count_ == 0) return -1;
    if (options.top_k > 0 && static_cast<size_t>(options.top_k) < count_) keep_top_k(static_cast<size_t>(options.top_k));
    total = to_weights(values_.data(), count_, max_logit, inv_temperature, kBlock, block_sums_.data());
  }
  // Everything with any weight is kept unless top-p or min-p cut.
  Cut cut{0.0f, false, 0};
  if (options.top_p < 1.0f) cut = nucleus(std::max(0.0, static_cast<double>(options.top_p)) * total, total);
  if (options.min_p > 0.0f) {
    // The most likely id has weight exactly 1 (e^0) and survives top-k and top-p, so min-p keeps
    // the weights >= min_p (at most 1); both cuts keep a prefix of the ranking: the shorter wins.
    const float min_weight = std::min(options.min_p, 1.0f);
    if (min_weight > cut.above) cut = {std::nextafter(min_weight, 0.0f), false, 0};
  }
  if (options.top_p < 1.0f || options.min_p > 0.0f) total = kept_sums(cut);
  // Candidates are walked in id order, so a seed picks the same id whatever the standard library.
  const size_t chosen = pick(rng.uniform() * total, cut);
  return dense_ ? static_cast<int32_t>(chosen) : ids_[chosen];
}

}  // namespace pocket
