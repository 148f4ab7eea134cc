// N-API surface of the MNN engine (module "pocket_mnn"): the shared handle of model_handle.h over
// pocket::MnnModel, plus what only MNN has. JS gets `loadModel()` and an `MnnModel` handle.
// Loading and forward passes run on worker threads (Promises); masking + sampling runs through the
// shared pocket::MaskedSampler, reading the mask's memory in place: synchronously on the JS thread
// (sample), or on the worker right after the forward pass (evaluateSample, one call per token). A
// handle exists only for a model whose load succeeded; a freed, busy or failed handle throws an
// error with a `code` instead of touching MNN, so misuse never crashes the process.
// One handle serves one request at a time: the TS engine queues sessions, and the BUSY check here
// backs that up.
#include <napi.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "mnn_model.h"
#include "model_handle.h"

namespace {

using pocket::coded_error;

struct MnnBackend {
  using Model = pocket::MnnModel;
  using LoadOptions = Model::Params;
  static constexpr const char* kClassName = "MnnModel";
  static constexpr const char* kEngine = "MNN";
  static constexpr const char* kWork = "a forward pass";
  static constexpr const char* kLoadUsage = "loadModel(configPath, options)";

  // { threads? }
  static LoadOptions load_options(const Napi::Object& options) {
    LoadOptions params;
    if (options.Has("threads")) params.threads = options.Get("threads").ToNumber().Int32Value();
    return params;
  }
  static std::unique_ptr<Model> load(const std::string& config_path, const LoadOptions& params) {
    return std::make_unique<Model>(config_path, params);
  }

  static int32_t width(const Model& model) { return model.width(); }
  static const float* last_logits(const Model& model) { return model.last_logits(); }
  // sample(mask, temperature, topK, topP, minP?): MNN keeps one row, the last token's.
  static const float* sample_logits(const Napi::CallbackInfo&, const Model& model) { return model.last_logits(); }
};

using Handle = pocket::ModelHandle<MnnBackend>;

// Tokenizer calls (vocabulary, tokenize, applyChatTemplate) only read MNN's tokenizer, which
// forward passes never touch: they need a live model, not an idle one, so a queued request can
// tokenize its prompt while another decodes.

Napi::Value cached(Handle& handle, const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(handle.idle(info.Env()).cached()));
}

Napi::Value prefill_batches(Handle& handle, const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(handle.idle(info.Env()).prefill_batches()));
}

// { bytes: Buffer (all pieces, from MNN's tokenizer_decode), offsets: Uint32Array(width + 1) }.
Napi::Value vocabulary(Handle& handle, const Napi::CallbackInfo& info) {
  pocket::MnnModel& model = handle.live(info.Env());
  return pocket::vocabulary_bytes(info.Env(), model.width(), [&](int32_t id) { return model.piece(id); });
}

Napi::Value tokenize(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::MnnModel& model = handle.live(env);
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "tokenize: text must be a string");
  std::vector<int32_t> ids;
  try {
    ids = model.tokenize(info[0].As<Napi::String>().Utf8Value());
  } catch (const std::exception& e) {
    // MNN's BPE throws std::out_of_range for a piece missing from its vocabulary.
    throw coded_error(env, "TOKENIZE", std::string("MNN's tokenizer failed: ") + e.what());
  }
  auto out = Napi::Int32Array::New(env, ids.size());
  std::copy(ids.begin(), ids.end(), out.Data());
  return out;
}

Napi::Value apply_chat_template(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::MnnModel& model = handle.live(env);
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "applyChatTemplate: text must be a string");
  return Napi::String::New(env, model.apply_chat_template(info[0].As<Napi::String>().Utf8Value()));
}

// evaluate's and evaluateSample's (keep, tokens) arguments, checked on the JS thread: `keep` an
// integer within 0..cached(), `tokens` a non-empty Int32Array of ids within the logits width.
struct Batch {
  size_t keep;
  std::vector<int32_t> ids;
};
Batch checked_batch(const Napi::CallbackInfo& info, const pocket::MnnModel& model, const char* name) {
  Napi::Env env = info.Env();
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(env, std::string(name) + ": tokens must be an Int32Array");
  }
  const double keep = info[0].ToNumber().DoubleValue();
  auto tokens = info[1].As<Napi::Int32Array>();
  if (!(keep >= 0 && keep <= static_cast<double>(model.cached())) || std::floor(keep) != keep || tokens.ElementLength() == 0) {
    throw coded_error(env, "RANGE", std::string(name) + ": keep must be an integer within 0.." + std::to_string(model.cached()) +
                                        " and tokens must not be empty");
  }
  const int32_t width = model.width();
  for (size_t i = 0; i < tokens.ElementLength(); ++i) {
    // MNN's embedding lookup reads the file at id * row size without bounds checks.
    if (tokens[i] < 0 || tokens[i] >= width) throw coded_error(env, "RANGE", std::string(name) + ": token id " + std::to_string(tokens[i]) + " is out of range");
  }
  return {static_cast<size_t>(keep), std::vector<int32_t>(tokens.Data(), tokens.Data() + tokens.ElementLength())};
}

// evaluate(keep: number, tokens: Int32Array) -> Promise<number>: keeps `keep` cached tokens, then
// one forward pass over `tokens`, off the JS thread; resolves with the microseconds MNN spent, so
// benches can tell MNN's cost from the thread hop's.
Napi::Value evaluate(Handle& handle, const Napi::CallbackInfo& info) {
  Batch batch = checked_batch(info, handle.idle(info.Env()), "evaluate");
  return handle.run_on_worker(info, [batch = std::move(batch)](pocket::MnnModel& worker_model) {
    const auto started = std::chrono::steady_clock::now();
    worker_model.evaluate(batch.keep, batch.ids);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  });
}

// evaluateSample(keep, tokens, mask: Uint32Array, temperature, topK, topP, minP) -> Promise<id>:
// evaluate(keep, tokens) and the masked draw from the last token's logits in one native call
// (ModelHandle::evaluate_then_sample: -2 when the forward pass finished before maskReady(), -1
// when the mask allows nothing).
Napi::Value evaluate_sample(Handle& handle, const Napi::CallbackInfo& info) {
  pocket::MnnModel& model = handle.idle(info.Env());
  Batch batch = checked_batch(info, model, "evaluateSample");
  const Napi::Uint32Array mask = pocket::JsSampler::checked_mask(info, 2, model.width());
  const pocket::SamplingOptions options = pocket::JsSampler::read_options(info, 3);
  return handle.evaluate_then_sample(info, mask, options, [batch = std::move(batch)](pocket::MnnModel& worker_model) {
    worker_model.evaluate(batch.keep, batch.ids);
    return worker_model.last_logits();
  });
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
  return pocket::register_addon<MnnBackend>(env, exports,
                                            {
                                                Handle::method<cached>("cached"),
                                                Handle::method<prefill_batches>("prefillBatches"),
                                                Handle::method<vocabulary>("vocabulary"),
                                                Handle::method<tokenize>("tokenize"),
                                                Handle::method<apply_chat_template>("applyChatTemplate"),
                                                Handle::method<evaluate>("evaluate"),
                                                Handle::method<evaluate_sample>("evaluateSample"),
                                            });
}

}  // namespace

NODE_API_MODULE(pocket_mnn, init)
