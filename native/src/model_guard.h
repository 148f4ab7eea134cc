// Lifetime of a native model behind a JS handle, shared by the llama.cpp and MNN addons: calls on
// a freed model throw FREED, calls that need the model to themselves throw BUSY while a worker
// thread runs it, and a free() during that work is deferred until the worker returns (the worker
// would otherwise use a destroyed model).
#pragma once

#include <napi.h>

#include <memory>
#include <string>

#include "napi_sampling.h"

namespace pocket {

template <typename Model>
class ModelGuard {
 public:
  // `engine` names the backend in errors ("llama.cpp"); `work` the busy state ("a decode").
  ModelGuard(const char* engine, const char* work) : engine_(engine), work_(work) {}

  void adopt(std::unique_ptr<Model> model) { model_ = std::move(model); }

  Model& live(Napi::Env env) const {
    if (!model_ || free_requested_) throw coded_error(env, "FREED", std::string("the ") + engine_ + " model was freed");
    return *model_;
  }
  Model& idle(Napi::Env env) const {
    Model& model = live(env);
    if (busy_) throw coded_error(env, "BUSY", std::string(work_) + " is in progress on this model");
    return model;
  }

  // A worker thread takes the model (after idle() was checked) and gives it back on the JS thread.
  void begin_work() { busy_ = true; }
  Model& worker_model() const { return *model_; }
  void end_work() {
    busy_ = false;
    if (free_requested_) model_.reset();
  }

  // Idempotent.
  void free() {
    if (busy_) free_requested_ = true;
    else model_.reset();
  }

 private:
  const char* engine_;
  const char* work_;
  std::unique_ptr<Model> model_;
  bool busy_ = false;
  bool free_requested_ = false;
};

}  // namespace pocket
