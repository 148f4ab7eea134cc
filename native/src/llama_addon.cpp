// N-API surface of the llama.cpp engine (module "pocket_llama"): the shared handle of
// model_handle.h over pocket::LlamaModel, plus what only llama.cpp has. JS gets `loadModel()` and a
// `LlamaModel` handle whose decode runs on a worker thread (Promise) while masking + sampling runs
// synchronously on the JS thread: it takes microseconds, and reading the mask's memory in place
// avoids copying 8 KB per token. A freed or busy handle throws a JS error instead of touching
// llama.cpp, so misuse never crashes the process.
#include <napi.h>

#include <memory>
#include <string>
#include <vector>

#include "llama_model.h"
#include "model_handle.h"

namespace {

using pocket::coded_error;

struct LlamaBackend {
  using Model = pocket::LlamaModel;
  struct LoadOptions {
    std::string backends_dir;
    Model::Params params;
  };
  static constexpr const char* kClassName = "LlamaModel";
  static constexpr const char* kEngine = "llama.cpp";
  static constexpr const char* kWork = "a decode";
  static constexpr const char* kLoadUsage = "loadModel(path, options)";

  // { backendsDir, contextLength?, threads? }
  static LoadOptions load_options(const Napi::Object& options) {
    LoadOptions out;
    if (options.Has("contextLength")) out.params.context_length = options.Get("contextLength").ToNumber().Uint32Value();
    if (options.Has("threads")) out.params.threads = options.Get("threads").ToNumber().Int32Value();
    out.backends_dir = options.Get("backendsDir").ToString().Utf8Value();
    return out;
  }
  static std::unique_ptr<Model> load(const std::string& path, const LoadOptions& options) {
    pocket::init_llama_runtime(options.backends_dir);
    return std::make_unique<Model>(path, options.params);
  }

  static int32_t width(const Model& model) { return model.n_vocab(); }
  static const float* last_logits(const Model& model) { return model.logits(model.rows() - 1); }
  // sample(mask, temperature, topK, topP, minP?, row?): `row` picks one of the last decode's
  // logits rows (default: its last).
  static const float* sample_logits(const Napi::CallbackInfo& info, const Model& model) {
    if (info.Length() <= 5 || info[5].IsUndefined()) return last_logits(model);
    const int32_t row = info[5].ToNumber().Int32Value();
    if (row < 0 || row >= model.rows()) {
      throw coded_error(info.Env(), "RANGE", "sample: row " + std::to_string(row) + " outside the " + std::to_string(model.rows()) + " rows of the last decode");
    }
    return model.logits(row);
  }
};

using Handle = pocket::ModelHandle<LlamaBackend>;

Napi::Value context_length(Handle& handle, const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), handle.live(info.Env()).context_length());
}

Napi::Value position(Handle& handle, const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), handle.idle(info.Env()).position());
}

// { bytes: Buffer (all pieces), offsets: Uint32Array(n + 1), attributes: Int32Array(n),
//   endOfGeneration: Int32Array, eos, eot, pad } (-1 for absent ids).
Napi::Value vocabulary(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::LlamaModel& model = handle.live(env);
  const int32_t n = model.n_vocab();
  Napi::Object out = pocket::vocabulary_bytes(env, n, [&](int32_t id) { return model.piece(id); });
  auto attributes = Napi::Int32Array::New(env, n);
  std::vector<int32_t> eog;
  for (int32_t id = 0; id < n; ++id) {
    attributes[id] = model.attributes(id);
    if (model.is_end_of_generation(id)) eog.push_back(id);
  }
  auto eog_array = Napi::Int32Array::New(env, eog.size());
  for (size_t i = 0; i < eog.size(); ++i) eog_array[i] = eog[i];
  out.Set("attributes", attributes);
  out.Set("endOfGeneration", eog_array);
  out.Set("eos", model.eos());
  out.Set("eot", model.eot());
  out.Set("pad", model.pad());
  return out;
}

Napi::Value tokenize(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::LlamaModel& model = handle.live(env);
  const std::string text = info[0].As<Napi::String>().Utf8Value();
  const bool parse_special = info[1].ToBoolean().Value();
  const std::vector<int32_t> ids = model.tokenize(text, parse_special);
  auto out = Napi::Int32Array::New(env, ids.size());
  std::copy(ids.begin(), ids.end(), out.Data());
  return out;
}

// The logits rows decode keeps, as indices into its `size` tokens: an Int32Array of increasing
// indices, or a count n (the last n tokens; default 1).
std::vector<int32_t> decode_rows(const Napi::CallbackInfo& info, size_t size) {
  Napi::Env env = info.Env();
  std::vector<int32_t> rows;
  if (info.Length() > 1 && info[1].IsTypedArray() && info[1].As<Napi::TypedArray>().TypedArrayType() == napi_int32_array) {
    auto given = info[1].As<Napi::Int32Array>();
    rows.assign(given.Data(), given.Data() + given.ElementLength());
    bool valid = !rows.empty() && rows.front() >= 0 && static_cast<size_t>(rows.back()) < size;
    for (size_t r = 1; r < rows.size() && valid; ++r) valid = rows[r] > rows[r - 1];
    if (!valid) throw coded_error(env, "RANGE", "decode: rows must be increasing indices within 0.." + std::to_string(size - 1));
    return rows;
  }
  const int32_t count = info.Length() > 1 && !info[1].IsUndefined() ? info[1].ToNumber().Int32Value() : 1;
  if (count < 1 || static_cast<size_t>(count) > size) {
    throw coded_error(env, "RANGE", "decode: rows must be within 1.." + std::to_string(size));
  }
  for (size_t i = size - count; i < size; ++i) rows.push_back(static_cast<int32_t>(i));
  return rows;
}

// decode(tokens: Int32Array, rows?: number | Int32Array) -> Promise<void>: one batch at the
// current position, off the JS thread, keeping the logits after the tokens `rows` names (decode_rows).
Napi::Value decode(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  handle.idle(env);
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(env, "decode: tokens must be an Int32Array");
  }
  auto tokens = info[0].As<Napi::Int32Array>();
  if (tokens.ElementLength() == 0) throw coded_error(env, "RANGE", "decode: no tokens");
  std::vector<int32_t> rows = decode_rows(info, tokens.ElementLength());
  std::vector<int32_t> ids(tokens.Data(), tokens.Data() + tokens.ElementLength());
  return handle.run_on_worker(info, [ids = std::move(ids), rows = std::move(rows)](pocket::LlamaModel& model) {
    model.decode(ids, rows);
    return pocket::NoResult{};
  });
}

// decodeSample(tokens: Int32Array, mask: Uint32Array, temperature, topK, topP, minP) ->
// Promise<id>: decode(tokens) and the masked draw from its last row in one native call
// (ModelHandle::evaluate_then_sample: -2 when the decode finished before maskReady(), -1 when the
// mask allows nothing).
Napi::Value decode_sample(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::LlamaModel& model = handle.idle(env);
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(env, "decodeSample: tokens must be an Int32Array");
  }
  auto tokens = info[0].As<Napi::Int32Array>();
  if (tokens.ElementLength() == 0) throw coded_error(env, "RANGE", "decodeSample: no tokens");
  const Napi::Uint32Array mask = pocket::JsSampler::checked_mask(info, 1, model.n_vocab());
  const pocket::SamplingOptions options = pocket::JsSampler::read_options(info, 2);
  std::vector<int32_t> ids(tokens.Data(), tokens.Data() + tokens.ElementLength());
  return handle.evaluate_then_sample(info, mask, options, [ids = std::move(ids)](pocket::LlamaModel& worker_model) {
    worker_model.decode(ids, {static_cast<int32_t>(ids.size()) - 1});
    return worker_model.logits(worker_model.rows() - 1);
  });
}

// truncate(n): drops every cached token at position >= n.
Napi::Value truncate(Handle& handle, const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::LlamaModel& model = handle.idle(env);
  try {
    model.truncate(info[0].ToNumber().Int32Value());
  } catch (const std::exception& e) {
    throw coded_error(env, "RANGE", e.what());
  }
  return env.Undefined();
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
  return pocket::register_addon<LlamaBackend>(env, exports,
                                              {
                                                  Handle::method<context_length>("contextLength"),
                                                  Handle::method<position>("position"),
                                                  Handle::method<vocabulary>("vocabulary"),
                                                  Handle::method<tokenize>("tokenize"),
                                                  Handle::method<decode>("decode"),
                                                  Handle::method<decode_sample>("decodeSample"),
                                                  Handle::method<truncate>("truncate"),
                                              });
}

}  // namespace

NODE_API_MODULE(pocket_llama, init)
