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
  // `logits` is the backend's last row (nullptr before any evaluation), `width` its length.
  Napi::Value sample(const Napi::CallbackInfo& info, const float* logits, int32_t width) {
    Napi::Env env = info.Env();
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
      throw Napi::TypeError::New(env, "sample: mask must be a Uint32Array");
    }
    auto mask = info[0].As<Napi::Uint32Array>();
    if (mask.ElementLength() < (static_cast<size_t>(width) + 31) / 32) {
      throw coded_error(env, "MASK_SIZE",
                        "mask has " + std::to_string(mask.ElementLength()) + " words, the vocabulary needs " +
                            std::to_string((width + 31) / 32));
    }
    if (logits == nullptr) throw coded_error(env, "NO_LOGITS", "sample called before any token was evaluated");
    SamplingOptions options;
    options.temperature = static_cast<float>(info[1].ToNumber().DoubleValue());
    options.top_k = info[2].ToNumber().Int32Value();
    options.top_p = static_cast<float>(info[3].ToNumber().DoubleValue());
    if (info.Length() > 4 && !info[4].IsUndefined()) options.min_p = static_cast<float>(info[4].ToNumber().DoubleValue());
    try {
      return Napi::Number::New(env, sampler_.sample(logits, width, mask.Data(), mask.ElementLength(), options, rng_));
    } catch (const InvalidLogit& e) {
      throw coded_error(env, "LOGITS", e.what());
    }
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
