// N-API surface of the MNN engine (module "pocket_mnn"). JS gets `loadModel()` and an `MnnModel`
// handle. Loading and forward passes run on worker threads (Promises); masking + sampling runs
// synchronously on the JS thread through the shared pocket::MaskedSampler, reading the mask's
// memory in place. A handle exists only for a model whose load succeeded; a freed, busy or failed
// handle throws an error with a `code` instead of touching MNN, so misuse never crashes the process.
// One handle serves one request at a time: the TS engine queues sessions, and the BUSY check here
// backs that up.
#include <napi.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "model_guard.h"
#include "napi_sampling.h"
#include "mnn_model.h"

namespace {

using pocket::coded_error;

struct AddonData {
  Napi::FunctionReference model_constructor;
};

class ModelHandle : public Napi::ObjectWrap<ModelHandle> {
 public:
  static Napi::Function define(Napi::Env env) {
    return DefineClass(env, "MnnModel",
                       {
                           InstanceMethod<&ModelHandle::width>("width"),
                           InstanceMethod<&ModelHandle::cached>("cached"),
                           InstanceMethod<&ModelHandle::vocabulary>("vocabulary"),
                           InstanceMethod<&ModelHandle::tokenize>("tokenize"),
                           InstanceMethod<&ModelHandle::chat_template>("applyChatTemplate"),
                           InstanceMethod<&ModelHandle::evaluate>("evaluate"),
                           InstanceMethod<&ModelHandle::sample>("sample"),
                           InstanceMethod<&ModelHandle::logits>("logits"),
                           InstanceMethod<&ModelHandle::seed>("seed"),
                           InstanceMethod<&ModelHandle::free>("free"),
                       });
  }

  explicit ModelHandle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ModelHandle>(info) {}

  void adopt(std::unique_ptr<pocket::MnnModel> model) { guard_.adopt(std::move(model)); }

  // Called by the forward worker on the JS thread once MNN returned.
  void forward_finished() { guard_.end_work(); }

 private:
  friend class ForwardWorker;

  pocket::MnnModel& live(Napi::Env env) const { return guard_.live(env); }
  // Tokenizer calls only read MNN's tokenizer, which forward passes never touch: they are allowed
  // during a forward pass, so a queued request can tokenize its prompt while another decodes.
  pocket::MnnModel& idle(Napi::Env env) const { return guard_.idle(env); }

  Napi::Value width(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), live(info.Env()).width()); }
  Napi::Value cached(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), static_cast<double>(idle(info.Env()).cached()));
  }

  // { bytes: Buffer (all pieces, from MNN's tokenizer_decode), offsets: Uint32Array(width + 1) }.
  // Byte-level pieces can be partial UTF-8, so they never pass through JS strings.
  Napi::Value vocabulary(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::MnnModel& model = live(env);
    const int32_t n = model.width();
    std::string bytes;
    auto offsets = Napi::Uint32Array::New(env, static_cast<size_t>(n) + 1);
    for (int32_t id = 0; id < n; ++id) {
      offsets[id] = static_cast<uint32_t>(bytes.size());
      bytes += model.piece(id);
    }
    offsets[n] = static_cast<uint32_t>(bytes.size());
    Napi::Object out = Napi::Object::New(env);
    out.Set("bytes", Napi::Buffer<char>::Copy(env, bytes.data(), bytes.size()));
    out.Set("offsets", offsets);
    return out;
  }

  Napi::Value tokenize(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::MnnModel& model = live(env);
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

  Napi::Value chat_template(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    pocket::MnnModel& model = live(env);
    if (!info[0].IsString()) throw Napi::TypeError::New(env, "applyChatTemplate: text must be a string");
    return Napi::String::New(env, model.apply_chat_template(info[0].As<Napi::String>().Utf8Value()));
  }

  Napi::Value evaluate(const Napi::CallbackInfo& info);

  // sample(mask: Uint32Array, temperature, topK, topP, minP?) -> id, or -1 when the mask allows nothing.
  Napi::Value sample(const Napi::CallbackInfo& info) {
    pocket::MnnModel& model = idle(info.Env());
    return sampler_.sample(info, model.last_logits(), model.width());
  }

  // logits() -> Float32Array: a copy of the last evaluated token's logits row.
  Napi::Value logits(const Napi::CallbackInfo& info) {
    pocket::MnnModel& model = idle(info.Env());
    return pocket::copy_logits(info.Env(), model.last_logits(), model.width());
  }

  Napi::Value seed(const Napi::CallbackInfo& info) {
    live(info.Env());
    sampler_.seed(info);
    return info.Env().Undefined();
  }

  // Idempotent. With a forward pass in flight the model is released when that pass returns.
  Napi::Value free(const Napi::CallbackInfo& info) {
    guard_.free();
    return info.Env().Undefined();
  }

  pocket::ModelGuard<pocket::MnnModel> guard_{"MNN", "a forward pass"};
  pocket::JsSampler sampler_;
};

class ForwardWorker : public Napi::AsyncWorker {
 public:
  ForwardWorker(Napi::Env env, ModelHandle* handle, Napi::Object self, size_t keep, std::vector<int32_t> tokens)
      : Napi::AsyncWorker(env),
        handle_(handle),
        deferred_(Napi::Promise::Deferred::New(env)),
        keep_(keep),
        tokens_(std::move(tokens)) {
    // Keeps the JS object (and so the model) alive while the worker thread uses it.
    self_ = Napi::Persistent(self);
  }
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    const auto started = std::chrono::steady_clock::now();
    try {
      handle_->guard_.worker_model().evaluate(keep_, tokens_);
    } catch (const std::exception& e) {
      SetError(e.what());
    }
    micros_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count();
  }
  // Resolves with the time MNN spent, so benches can tell MNN's cost from the thread hop's.
  void OnOK() override {
    handle_->forward_finished();
    deferred_.Resolve(Napi::Number::New(Env(), micros_));
  }
  void OnError(const Napi::Error& error) override {
    handle_->forward_finished();
    deferred_.Reject(coded_error(Env(), "DECODE", error.Message()).Value());
  }

 private:
  ModelHandle* handle_;
  Napi::ObjectReference self_;
  Napi::Promise::Deferred deferred_;
  size_t keep_;
  std::vector<int32_t> tokens_;
  double micros_ = 0;
};

// evaluate(keep: number, tokens: Int32Array) -> Promise<number>: keeps `keep` cached tokens, then
// one forward pass over `tokens`, off the JS thread; resolves with the microseconds it took.
Napi::Value ModelHandle::evaluate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  pocket::MnnModel& model = idle(env);
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw Napi::TypeError::New(env, "evaluate: tokens must be an Int32Array");
  }
  const double keep = info[0].ToNumber().DoubleValue();
  auto tokens = info[1].As<Napi::Int32Array>();
  if (!(keep >= 0 && keep <= static_cast<double>(model.cached())) || std::floor(keep) != keep || tokens.ElementLength() == 0) {
    throw coded_error(env, "RANGE", "evaluate: keep must be an integer within 0.." + std::to_string(model.cached()) +
                                        " and tokens must not be empty");
  }
  const int32_t width = model.width();
  for (size_t i = 0; i < tokens.ElementLength(); ++i) {
    // MNN's embedding lookup reads the file at id * row size without bounds checks.
    if (tokens[i] < 0 || tokens[i] >= width) throw coded_error(env, "RANGE", "evaluate: token id " + std::to_string(tokens[i]) + " is out of range");
  }
  auto* worker = new ForwardWorker(env, this, info.This().As<Napi::Object>(), static_cast<size_t>(keep),
                                   std::vector<int32_t>(tokens.Data(), tokens.Data() + tokens.ElementLength()));
  guard_.begin_work();
  worker->Queue();
  return worker->promise();
}

class LoadWorker : public Napi::AsyncWorker {
 public:
  LoadWorker(Napi::Env env, std::string config_path, pocket::MnnModel::Params params)
      : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), config_path_(std::move(config_path)), params_(params) {}
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      model_ = std::make_unique<pocket::MnnModel>(config_path_, params_);
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }
  void OnOK() override {
    Napi::Object handle = Env().GetInstanceData<AddonData>()->model_constructor.New({});
    ModelHandle::Unwrap(handle)->adopt(std::move(model_));
    deferred_.Resolve(handle);
  }
  void OnError(const Napi::Error& error) override { deferred_.Reject(coded_error(Env(), "LOAD", error.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  std::string config_path_;
  pocket::MnnModel::Params params_;
  std::unique_ptr<pocket::MnnModel> model_;
};

// loadModel(configPath, { threads? }) -> Promise<MnnModel>
Napi::Value load_model(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsObject()) throw Napi::TypeError::New(env, "loadModel(configPath, options)");
  Napi::Object options = info[1].As<Napi::Object>();
  pocket::MnnModel::Params params;
  if (options.Has("threads")) params.threads = options.Get("threads").ToNumber().Int32Value();
  auto* worker = new LoadWorker(env, info[0].As<Napi::String>().Utf8Value(), params);
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

NODE_API_MODULE(pocket_mnn, init)
