// The N-API seam of a native engine, written once for the llama.cpp and MNN addons as a template
// over a backend: the JS handle of a model (lifetime through ModelGuard, masked sampling through
// JsSampler), the worker that runs a model call off the JS thread and settles a Promise, loading
// a model on a worker thread, and the module's registration. A backend file (llama_addon.cpp,
// mnn_addon.cpp) keeps only what differs: its model type and names, how loadModel's options are
// read and a model loaded, which logits row sample() reads, and its own methods.
//
// A Backend provides:
//   using Model;        the plain C++ model (llama_model.h, mnn_model.h)
//   using LoadOptions;  what loadModel's options object says, read on the JS thread
//   static constexpr const char* kClassName;  the JS class ("LlamaModel")
//   static constexpr const char* kEngine;     the backend in errors ("llama.cpp")
//   static constexpr const char* kWork;       what a worker call is, in BUSY errors ("a decode")
//   static constexpr const char* kLoadUsage;  loadModel's signature, in its TypeError
//   static LoadOptions load_options(const Napi::Object& options);
//   static std::unique_ptr<Model> load(const std::string& path, const LoadOptions&);  worker thread
//   static int32_t width(const Model&);       logits width
//   static const float* last_logits(const Model&);  last evaluated token's row (nullptr: none yet)
//   static const float* sample_logits(const Napi::CallbackInfo&, const Model&);  the row sample() reads
#pragma once

#include <napi.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model_guard.h"
#include "napi_sampling.h"

namespace pocket {

// What a worker call resolves with: nothing, or a number (e.g. the microseconds it took).
struct NoResult {};
inline Napi::Value to_js(Napi::Env env, NoResult) { return env.Undefined(); }
inline Napi::Value to_js(Napi::Env env, double value) { return Napi::Number::New(env, value); }

// Runs `job(model)` on a worker thread; the handle gets the model back on the JS thread, then the
// Promise settles (rejected with code DECODE when the job threw).
template <typename Handle, typename Job>
class ModelWorker : public Napi::AsyncWorker {
 public:
  using Result = decltype(std::declval<Job&>()(std::declval<typename Handle::Model&>()));

  ModelWorker(Napi::Env env, Handle* handle, Napi::Object self, Job job)
      : Napi::AsyncWorker(env), handle_(handle), deferred_(Napi::Promise::Deferred::New(env)), job_(std::move(job)) {
    // Keeps the JS object (and so the model) alive while the worker thread uses it.
    self_ = Napi::Persistent(self);
  }
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      result_ = job_(handle_->worker_model());
    } catch (const InvalidLogit& e) {  // a job that samples
      code_ = "LOGITS";
      SetError(e.what());
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }
  void OnOK() override {
    handle_->work_finished();
    deferred_.Resolve(to_js(Env(), result_));
  }
  void OnError(const Napi::Error& error) override {
    handle_->work_finished();
    deferred_.Reject(coded_error(Env(), code_, error.Message()).Value());
  }

 private:
  Handle* handle_;
  Napi::ObjectReference self_;
  Napi::Promise::Deferred deferred_;
  Job job_;
  Result result_{};
  const char* code_ = "DECODE";
};

template <typename Backend>
class ModelHandle : public Napi::ObjectWrap<ModelHandle<Backend>> {
 public:
  using Model = typename Backend::Model;
  using Wrap = Napi::ObjectWrap<ModelHandle<Backend>>;
  using Descriptor = typename Wrap::PropertyDescriptor;
  // A backend's own method: a plain function given the handle.
  using Method = Napi::Value (*)(ModelHandle&, const Napi::CallbackInfo&);

  // The JS class: the shared methods plus the backend's own.
  static Napi::Function define(Napi::Env env, const std::vector<Descriptor>& backend_methods) {
    std::vector<Descriptor> methods = {
        Wrap::template InstanceMethod<&ModelHandle::width>("width"),
        Wrap::template InstanceMethod<&ModelHandle::sample>("sample"),
        Wrap::template InstanceMethod<&ModelHandle::logits>("logits"),
        Wrap::template InstanceMethod<&ModelHandle::seed>("seed"),
        Wrap::template InstanceMethod<&ModelHandle::mark_mask_ready>("maskReady"),
        Wrap::template InstanceMethod<&ModelHandle::free>("free"),
    };
    methods.insert(methods.end(), backend_methods.begin(), backend_methods.end());
    return Wrap::DefineClass(env, Backend::kClassName, methods);
  }

  // Names a backend method `name` on the JS class.
  template <Method F>
  static Descriptor method(const char* name) {
    return Wrap::template InstanceMethod<&ModelHandle::template call<F>>(name);
  }

  explicit ModelHandle(const Napi::CallbackInfo& info) : Wrap(info) {}

  void adopt(std::unique_ptr<Model> model) { guard_.adopt(std::move(model)); }

  // The model, throwing FREED; idle() also throws BUSY while a worker thread runs it.
  Model& live(Napi::Env env) const { return guard_.live(env); }
  Model& idle(Napi::Env env) const { return guard_.idle(env); }

  // Runs `job(model)` off the JS thread; returns the Promise of its result. The caller has checked
  // idle() and the arguments.
  template <typename Job>
  Napi::Value run_on_worker(const Napi::CallbackInfo& info, Job job) {
    auto* worker = new ModelWorker<ModelHandle, Job>(info.Env(), this, info.This().As<Napi::Object>(), std::move(job));
    guard_.begin_work();
    worker->Queue();
    return worker->promise();
  }

  // For ModelWorker: the model on the worker thread, and its return on the JS thread.
  Model& worker_model() const { return guard_.worker_model(); }
  void work_finished() { guard_.end_work(); }

  // One native call per token: runs `evaluate(model)`, which returns the logits row to draw from,
  // on a worker thread and, on that thread right after it (the logits still in its cache), the
  // masked draw under `mask`. JS writes the mask while the model runs, then calls maskReady().
  // Resolves with the id, -1 when the mask allows nothing, or -2 when the evaluation finished
  // before the mask was ready: nothing is drawn and the caller samples with sample(), so a mask
  // that is never finished cannot hang the worker. The mask is read in place and must not change
  // until the promise settles. The caller has checked idle(), the mask (JsSampler::checked_mask)
  // and the rest of its arguments.
  template <typename Evaluate>
  Napi::Value evaluate_then_sample(const Napi::CallbackInfo& info, const Napi::Uint32Array& mask, const SamplingOptions& options, Evaluate evaluate) {
    set_mask_ready(false);
    // The reference keeps the mask's memory alive until the worker is done (released on the JS thread).
    return run_on_worker(info, [evaluate = std::move(evaluate), words = mask.Data(), count = mask.ElementLength(),
                                keep = Napi::Persistent(mask.As<Napi::Object>()), options, this](Model& model) -> double {
      const float* logits = evaluate(model);
      if (!mask_ready()) return -2;
      return sampler_.sample_now(logits, Backend::width(model), words, count, options);
    });
  }

 private:
  // Set on the JS thread once the mask of evaluate_then_sample is written (release), read by its
  // job after the evaluation (acquire).
  void set_mask_ready(bool ready) { mask_ready_.store(ready, std::memory_order_release); }
  bool mask_ready() const { return mask_ready_.load(std::memory_order_acquire); }

  template <Method F>
  Napi::Value call(const Napi::CallbackInfo& info) {
    return F(*this, info);
  }

  Napi::Value width(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), Backend::width(live(info.Env()))); }

  // sample(mask: Uint32Array, temperature, topK, topP, minP?, ...) -> id, or -1 when the mask
  // allows nothing; the backend picks the logits row (llama.cpp reads a `row` argument).
  Napi::Value sample(const Napi::CallbackInfo& info) {
    Model& model = idle(info.Env());
    return sampler_.sample(info, Backend::sample_logits(info, model), Backend::width(model));
  }

  // logits() -> Float32Array: a copy of the last evaluated token's logits row.
  Napi::Value logits(const Napi::CallbackInfo& info) {
    Model& model = idle(info.Env());
    return copy_logits(info.Env(), Backend::last_logits(model), Backend::width(model));
  }

  // maskReady(): the mask of the evaluate_then_sample call in flight is written.
  Napi::Value mark_mask_ready(const Napi::CallbackInfo& info) {
    live(info.Env());
    set_mask_ready(true);
    return info.Env().Undefined();
  }

  Napi::Value seed(const Napi::CallbackInfo& info) {
    idle(info.Env());  // a worker job may be drawing from the generator
    sampler_.seed(info);
    return info.Env().Undefined();
  }

  // Idempotent. With a worker call in flight the model is released when that call returns.
  Napi::Value free(const Napi::CallbackInfo& info) {
    guard_.free();
    return info.Env().Undefined();
  }

  ModelGuard<Model> guard_{Backend::kEngine, Backend::kWork};
  JsSampler sampler_;
  std::atomic<bool> mask_ready_{false};
};

// { bytes: Buffer (every token's bytes, in id order), offsets: Uint32Array(width + 1) }: token
// pieces can be partial UTF-8, so they never pass through JS strings.
template <typename Piece>
Napi::Object vocabulary_bytes(Napi::Env env, int32_t width, Piece piece) {
  std::string bytes;
  auto offsets = Napi::Uint32Array::New(env, static_cast<size_t>(width) + 1);
  for (int32_t id = 0; id < width; ++id) {
    offsets[id] = static_cast<uint32_t>(bytes.size());
    bytes += piece(id);
  }
  offsets[width] = static_cast<uint32_t>(bytes.size());
  Napi::Object out = Napi::Object::New(env);
  out.Set("bytes", Napi::Buffer<char>::Copy(env, bytes.data(), bytes.size()));
  out.Set("offsets", offsets);
  return out;
}

// The constructor of the module's handle class, for LoadWorker.
struct AddonData {
  Napi::FunctionReference model_constructor;
};

// Loads a model on a worker thread; resolves with a new handle owning it, or rejects with code LOAD.
template <typename Backend>
class LoadWorker : public Napi::AsyncWorker {
 public:
  LoadWorker(Napi::Env env, std::string path, typename Backend::LoadOptions options)
      : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), path_(std::move(path)), options_(std::move(options)) {}
  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      model_ = Backend::load(path_, options_);
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }
  void OnOK() override {
    Napi::Object handle = Env().GetInstanceData<AddonData>()->model_constructor.New({});
    ModelHandle<Backend>::Unwrap(handle)->adopt(std::move(model_));
    deferred_.Resolve(handle);
  }
  void OnError(const Napi::Error& error) override { deferred_.Reject(coded_error(Env(), "LOAD", error.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  std::string path_;
  typename Backend::LoadOptions options_;
  std::unique_ptr<typename Backend::Model> model_;
};

// loadModel(path, options) -> Promise<handle>
template <typename Backend>
Napi::Value load_model(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsObject()) throw Napi::TypeError::New(env, Backend::kLoadUsage);
  auto* worker = new LoadWorker<Backend>(env, info[0].As<Napi::String>().Utf8Value(), Backend::load_options(info[1].As<Napi::Object>()));
  worker->Queue();
  return worker->promise();
}

// The module's exports: `loadModel`, whose handles have the shared methods plus `backend_methods`.
template <typename Backend>
Napi::Object register_addon(Napi::Env env, Napi::Object exports, const std::vector<typename ModelHandle<Backend>::Descriptor>& backend_methods) {
  auto* data = new AddonData();
  data->model_constructor = Napi::Persistent(ModelHandle<Backend>::define(env, backend_methods));
  env.SetInstanceData(data);
  exports.Set("loadModel", Napi::Function::New(env, load_model<Backend>, "loadModel"));
  return exports;
}

}  // namespace pocket
