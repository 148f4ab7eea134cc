// N-API surface of the llama.cpp engine (module "pocket_llama"). JS gets `loadModel()` and a
// `LlamaModel` handle whose decode runs on a worker thread (Promise) while masking + sampling runs
// synchronously on the JS thread: it takes microseconds, and reading the mask's memory in place
// avoids copying 8 KB per token. A freed or busy handle throws a JS error instead of touching
// llama.cpp, so misuse never crashes the process.
#include <napi.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "llama_model.h"
#include "model_guard.h"
#include "napi_sampling.h"

namespace {

using pocket::coded_error;

struct AddonData {
  Napi::FunctionReference model_constructor;
};

class ModelHandle : public Napi::ObjectWrap<ModelHandle> {
 public:
  static Napi::Function define(Napi::Env env) {
    return DefineClass(env, "LlamaModel",
                       {
                           InstanceMethod<&ModelHandle::width>("width"),
                           InstanceMethod<&ModelHandle::context_length>("contextLength"),
                           InstanceMethod<&ModelHandle::position>("position"),
                           InstanceMethod<&ModelHandle::vocabulary>("vocabulary"),
                           InstanceMethod<&ModelHandle::tokenize>("tokenize"),
                           InstanceMethod<&ModelHandle::decode>("decode"),
                           InstanceMethod<&ModelHandle::sample>("sample"),
                           InstanceMethod<&ModelHandle::logits>("logits"),
                           InstanceMethod<&ModelHandle::seed>("seed"),
                           InstanceMethod<&ModelHandle::truncate>("truncate"),
                           InstanceMethod<&ModelHandle::free>("free"),
                       });
  }

  explicit ModelHandle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ModelHandle>(info) {}

  void adopt(std::unique_ptr<pocket::LlamaModel> model) { guard_.adopt(std::move(model)); }

  // Called by the decode worker on the JS thread once llama_decode returned.
  void decode_finished() { guard_.end_work(); }

 private:
  friend class DecodeWorker;

  pocket::LlamaModel& live(Napi::Env env) const { return guard_.live(env); }
  pocket::LlamaModel& idle(Napi::Env env) const { return guard_.idle(env); }

  Napi::Value width(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), live(info.Env()).n_vocab()); }
  Napi::Value context_length(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), live(info.Env()).context_length());
  }
  Napi::Value position(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), idle(info.Env()).position()); }

  // { bytes: Buffer (all pieces), offsets: Uint32Array(n + 1), attributes: Int32Array(n),
  //   endOfGeneration: Int32Array, eos, eot, pad } (-1 for absent ids).
  Napi::Value vocabulary(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::LlamaModel& model = live(env);
    const int32_t n = model.n_vocab();
    std::string bytes;
    auto offsets = Napi::Uint32Array::New(env, n + 1);
    auto attributes = Napi::Int32Array::New(env, n);
    std::vector<int32_t> eog;
    for (int32_t id = 0; id < n; ++id) {
      offsets[id] = static_cast<uint32_t>(bytes.size());
      bytes += model.piece(id);
      attributes[id] = model.attributes(id);
      if (model.is_end_of_generation(id)) eog.push_back(id);
    }
    offsets[n] = static_cast<uint32_t>(bytes.size());
    auto eog_array = Napi::Int32Array::New(env, eog.size());
    for (size_t i = 0; i < eog.size(); ++i) eog_array[i] = eog[i];
    Napi::Object out = Napi::Object::New(env);
    out.Set("bytes", Napi::Buffer<char>::Copy(env, bytes.data(), bytes.size()));
    out.Set("offsets", offsets);
    out.Set("attributes", attributes);
    out.Set("endOfGeneration", eog_array);
    out.Set("eos", model.eos());
    out.Set("eot", model.eot());
    out.Set("pad", model.pad());
    return out;
  }

  Napi::Value tokenize(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::LlamaModel& model = live(env);
    const std::string text = info[0].As<Napi::String>().Utf8Value();
    const bool parse_special = info[1].ToBoolean().Value();
    const std::vector<int32_t> ids = model.tokenize(text, parse_special);
    auto out = Napi::Int32Array::New(env, ids.size());
    std::copy(ids.begin(), ids.end(), out.Data());
    return out;
  }

  Napi::Value decode(const Napi::CallbackInfo& info);

  // sample(mask: Uint32Array, temperature, topK, topP, minP?, row?) -> id, or -1 when the mask
  // allows nothing. `row` picks one of the last decode's logits rows (default: its last).
  Napi::Value sample(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::LlamaModel& model = idle(env);
    int32_t row = model.rows() - 1;
    if (info.Length() > 5 && !info[5].IsUndefined()) {
      row = info[5].ToNumber().Int32Value();
      if (row < 0 || row >= model.rows()) {
        throw coded_error(env, "RANGE", "sample: row " + std::to_string(row) + " outside the " + std::to_string(model.rows()) + " rows of the last decode");
      }
    }
    return sampler_.sample(info, model.logits(row), model.n_vocab());
  }

  // logits() -> Float32Array: a copy of the last evaluated token's logits row.
  Napi::Value logits(const Napi::CallbackInfo& info) {
    pocket::LlamaModel& model = idle(info.Env());
    return pocket::copy_logits(info.Env(), model.logits(model.rows() - 1), model.n_vocab());
  }

  Napi::Value seed(const Napi::CallbackInfo& info) {
    live(info.Env());
    sampler_.seed(info);
    return info.Env().Undefined();
  }

  Napi::Value truncate(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::LlamaModel& model = idle(env);
    try {
      model.truncate(info[0].ToNumber().Int32Value());
    } catch (const std::exception& e) {
      throw coded_error(env, "RANGE", e.what());
    }
    return env.Undefined();
  }

  // Idempotent. With a decode in flight the model is released when that decode returns.
  Napi::Value free(const Napi::CallbackInfo& info) {
    guard_.free();
    return info.Env().Undefined();
  }

  pocket::ModelGuard<pocket::LlamaModel> guard_{"llama.cpp", "a decode"};
  pocket::JsSampler sampler_;
};

class DecodeWorker : public Napi::AsyncWorker {
 public:
  DecodeWorker(Napi::Env env, ModelHandle* handle, Napi::Object self, std::vector<int32_t> tokens, int32_t rows)
      : Napi::AsyncWorker(env),
        handle_(handle),
        deferred_(Napi::Promise::Deferred::New(env)),
        tokens_(std::move(tokens)),
        rows_(rows) {
    // Keeps the JS object (and so the model) alive while the worker thread uses it.
    self_ = Napi::Persistent(self);
  }
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      handle_->guard_.worker_model().decode(tokens_, rows_);
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }
  void OnOK() override {
    handle_->decode_finished();
    deferred_.Resolve(Env().Undefined());
  }
  void OnError(const Napi::Error& error) override {
    handle_->decode_finished();
    Napi::Error coded = coded_error(Env(), "DECODE", error.Message());
    deferred_.Reject(coded.Value());
  }

 private:
  ModelHandle* handle_;
  Napi::ObjectReference self_;
  Napi::Promise::Deferred deferred_;
  std::vector<int32_t> tokens_;
  int32_t rows_;
};

// decode(tokens: Int32Array, rows = 1) -> Promise<void>: one batch at the current position, off
// the JS thread, keeping the logits of its last `rows` tokens.
Napi::Value ModelHandle::decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  idle(env);
  if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(env, "decode: tokens must be an Int32Array");
  }
  auto tokens = info[0].As<Napi::Int32Array>();
  const int32_t rows = info.Length() > 1 && !info[1].IsUndefined() ? info[1].ToNumber().Int32Value() : 1;
  if (rows < 1 || static_cast<size_t>(rows) > tokens.ElementLength()) {
    throw coded_error(env, "RANGE", "decode: rows must be within 1.." + std::to_string(tokens.ElementLength()));
  }
  auto* worker = new DecodeWorker(env, this, info.This().As<Napi::Object>(),
                                  std::vector<int32_t>(tokens.Data(), tokens.Data() + tokens.ElementLength()), rows);
  guard_.begin_work();
  worker->Queue();
  return worker->promise();
}

class LoadWorker : public Napi::AsyncWorker {
 public:
  LoadWorker(Napi::Env env, std::string path, std::string backends_dir, pocket::LlamaModel::Params params)
      : Napi::AsyncWorker(env),
        deferred_(Napi::Promise::Deferred::New(env)),
        path_(std::move(path)),
        backends_dir_(std::move(backends_dir)),
        params_(params) {}
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      pocket::init_llama_runtime(backends_dir_);
      model_ = std::make_unique<pocket::LlamaModel>(path_, params_);
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }
  void OnOK() override {
    Napi::Object handle = Env().GetInstanceData<AddonData>()->model_constructor.New({});
    ModelHandle::Unwrap(handle)->adopt(std::move(model_));
    deferred_.Resolve(handle);
  }
  void OnError(const Napi::Error& error) override {
    deferred_.Reject(coded_error(Env(), "LOAD", error.Message()).Value());
  }

 private:
  Napi::Promise::Deferred deferred_;
  std::string path_;
  std::string backends_dir_;
  pocket::LlamaModel::Params params_;
  std::unique_ptr<pocket::LlamaModel> model_;
};

// loadModel(path, { backendsDir, contextLength?, threads? }) -> Promise<LlamaModel>
Napi::Value load_model(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsObject()) throw Napi::TypeError::New(env, "loadModel(path, options)");
  Napi::Object options = info[1].As<Napi::Object>();
  pocket::LlamaModel::Params params;
  if (options.Has("contextLength")) params.context_length = options.Get("contextLength").ToNumber().Uint32Value();
  if (options.Has("threads")) params.threads = options.Get("threads").ToNumber().Int32Value();
  auto* worker = new LoadWorker(env, info[0].As<Napi::String>().Utf8Value(),
                                options.Get("backendsDir").ToString().Utf8Value(), params);
  worker->Queue();
  return worker->promise();
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  Napi::Function constructor = ModelHandle::define(env);
  data->model_constructor = Napi::Persistent(constructor);
  env.SetInstanceData(data);
  exports.Set("loadModel", Napi::Function::New(env, load_model, "loadModel"));
  return exports;
}

}  // namespace

NODE_API_MODULE(pocket_llama, init)
