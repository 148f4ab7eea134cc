// One MNN LLM (MNN::Transformer::Llm) in plain C++ with no N-API: load, tokenizer access, and
// forward passes that keep a prefix of the KV cache and append tokens, leaving the raw logits of
// the last token readable. An MnnModel only exists once Llm::load() succeeded: MNN crashes on
// forward and tokenizer calls of an instance whose load failed, so a failed load destroys the
// instance and throws instead of handing out a half-made model.
#pragma once

#include <MNN/expr/Expr.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace MNN {
namespace Transformer {
class Llm;
}
}  // namespace MNN

namespace pocket {

class MnnModel {
 public:
  struct Params {
    int32_t threads = 0;  // 0 = the model config's thread_num
  };

  // Throws std::runtime_error when MNN cannot load the model described by `config_path`.
  MnnModel(const std::string& config_path, const Params& params);
  ~MnnModel();
  MnnModel(const MnnModel&) = delete;
  MnnModel& operator=(const MnnModel&) = delete;

  // Logits width, read from the logits of a probe forward pass at load.
  int32_t width() const { return width_; }
  // Tokens held by the KV cache after the last forward pass.
  size_t cached() const { return cached_; }
  // Batches evaluated by MNN's prefill module since load (prompts; see mnn_model.cpp): a decode
  // step's batch going there costs a module resize, so tests check that none does.
  size_t prefill_batches() const { return prefill_batches_; }

  // Keeps the first `keep` cached tokens (keep <= cached()), drops the rest and evaluates
  // `tokens` after them. Throws std::runtime_error when MNN reports a failure; the model is then
  // unusable (MNN keeps its error status) and every later call throws too.
  void evaluate(size_t keep, const std::vector<int32_t>& tokens);
  // Logits row of the last evaluated token, or nullptr before the first evaluate.
  const float* last_logits() const { return last_logits_; }

  std::vector<int32_t> tokenize(const std::string& text) const;
  // Raw bytes of a token; byte-level pieces may be partial UTF-8.
  std::string piece(int32_t id) const;
  // The model's chat template applied to one user message.
  std::string apply_chat_template(const std::string& user) const;

 private:
  void forward(const std::vector<int32_t>& tokens);
  void check_usable() const;

  struct LlmDeleter {
    void operator()(MNN::Transformer::Llm* llm) const;
  };
  std::unique_ptr<MNN::Transformer::Llm, LlmDeleter> llm_;
  // Holds the logits VARP alive: last_logits_ points into it.
  MNN::Express::VARP logits_;
  const float* last_logits_ = nullptr;
  int32_t width_ = 0;
  size_t cached_ = 0;
  size_t prefill_batches_ = 0;
  bool failed_ = false;
};

}  // namespace pocket
