// The N-API side of masked sampling, shared by the llama.cpp and MNN addons: errors with a stable
// `code` (mapped to typed errors in src/engines/native-shared/native-error.ts), and one object
// holding the sampler and its RNG that reads `sample(mask, temperature, topK, topP, minP)` and
// `seed(n)` calls straight from their JS arguments. The mask Uint32Array is read in place.
#pragma once

#include <napi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "masked_sampler.h"

namespace pocket {

inline Napi::Error coded_error(Napi::Env env, const char* code, const std::string& message) {
  Napi::Error err = Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

// A copy of the backend's last logits row as a Float32Array (for engine-agreement checks and
// tests, not the decode path, which samples from the row in place).
inline Napi::Value copy_logits(Napi::Env env, const float* logits, int32_t width) {
  if (logits == nullptr) throw coded_error(env, "NO_LOGITS", "logits read before any token was evaluated");
  auto out = Napi::Float32Array::New(env, static_cast<size_t>(width));
  std::copy(logits, logits + width, out.Data());
  return out;
}

class JsSampler {
 public:
  // sample(mask, temperature, topK, topP, minP?) on the JS thread. `logits` is the backend's last
  // row (nullptr before any evaluation), `width` its length.
  Napi::Value sample(const Napi::CallbackInfo& info, const float* logits, int32_t width) {
    Napi::Env env = info.Env();
    const Napi::Uint32Array mask = checked_mask(info, 0, width);
    if (logits == nullptr) throw coded_error(env, "NO_LOGITS", "sample called before any token was evaluated");
    try {
      return Napi::Number::New(env, sample_now(logits, width, mask.Data(), mask.ElementLength(), read_options(info, 1)));
    } catch (const InvalidLogit& e) {
      throw coded_error(env, "LOGITS", e.what());
    }
  }

  // info[index] as a mask for `width` ids (TypeError or MASK_SIZE otherwise).
  static Napi::Uint32Array checked_mask(const Napi::CallbackInfo& info, size_t index, int32_t width) {
    Napi::Env env = info.Env();
    if (!info[index].IsTypedArray() || info[index].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
      throw Napi::TypeError::New(env, "sample: mask must be a Uint32Array");
    }
    auto mask = info[index].As<Napi::Uint32Array>();
    if (mask.ElementLength() < (static_cast<size_t>(width) + 31) / 32) {
      throw coded_error(env, "MASK_SIZE",
                        "mask has " + std::to_string(mask.ElementLength()) + " words, the vocabulary needs " +
                            std::to_string((width + 31) / 32));
    }
    return mask;
  }

  // temperature, topK, topP and minP? from info[first...].
  static SamplingOptions read_options(const Napi::CallbackInfo& info, size_t first) {
    SamplingOptions options;
    options.temperature = static_cast<float>(info[first].ToNumber().DoubleValue());
    options.top_k = info[first + 1].ToNumber().Int32Value();
    options.top_p = static_cast<float>(info[first + 2].ToNumber().DoubleValue());
    if (info.Length() > first + 3 && !info[first + 3].IsUndefined()) options.min_p = static_cast<float>(info[first + 3].ToNumber().DoubleValue());
    return options;
  }

  // The draw itself, on whichever thread holds the model (throws InvalidLogit).
  int32_t sample_now(const float* logits, int32_t width, const uint32_t* mask, size_t mask_words, const SamplingOptions& options) {
    return sampler_.sample(logits, width, mask, mask_words, options, rng_);
  }

  void seed(const Napi::CallbackInfo& info) {
    const double value = info[0].ToNumber().DoubleValue();
    // Out-of-range doubles would make the cast undefined behaviour: they seed with 0 instead.
    rng_.reseed(std::isfinite(value) && value >= 0 && value < 1.8e19 ? static_cast<uint64_t>(value) : 0);
  }

 private:
  MaskedSampler sampler_;
  SamplerRng rng_{0};
};

}  // namespace pocket
