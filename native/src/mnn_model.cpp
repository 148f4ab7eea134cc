// MnnModel over MNN::Transformer::Llm. How the Llm's state is driven (read from MNN's llm.cpp):
// - forward(ids) embeds the ids, runs the module and advances the context (all_seq_len += n,
//   gen_seq_len += 1); its is_prefill argument is ignored. gen_seq_len == 0 selects the prefill
//   module (any length); otherwise the batch goes to a module kept for its length (length 1: the
//   decode module; MNN clones one more the first time another length comes).
// - A module resizes at its first call and whenever its input length differs from its last
//   call's: ~0.4 s on the pocket INT4 export (1 thread), 12x a decode step; and each module's
//   first resize adds ~100 MB resident, whatever the length. The decode module's first resize is
//   done at load (a warm-up step), not by the first request's first decode step. A decode step's
//   batch (a sampled token and the grammar's forced run after it, up to kMaxStepBatch tokens) is
//   fed token by token to the decode module: sending it to the prefill module cost a resize at
//   every change of batch length (constrained decoding ran slower than unconstrained), and a
//   module per length ~100 MB each. Longer batches (prompts) call generate_init() first, which
//   zeroes gen_seq_len so the prefill module takes them; with reuse_kv on it keeps the KV cache.
// - reset() forgets the whole cache; eraseHistory(keep, 0) forgets every token from `keep` on.
//   Both only schedule the removal: MNN applies it during the next forward, which is why
//   getCurrentHistory() lags one forward, and why we count cached tokens ourselves.
// - is_stop() changes the context status, so end of generation is left to the vocabulary's eos ids.
#include "mnn_model.h"

#include <llm/llm.hpp>

#include <stdexcept>

namespace pocket {

using MNN::Express::VARP;
using MNN::Transformer::Llm;

// Longest batch fed token by token (see the top of this file): past it, one resize of the prefill
// module and one batched forward pass cost less than the single steps.
constexpr size_t kMaxStepBatch = 16;

void MnnModel::LlmDeleter::operator()(Llm* llm) const { Llm::destroy(llm); }

MnnModel::MnnModel(const std::string& config_path, const Params& params) {
  llm_.reset(Llm::createLLM(config_path));
  if (!llm_) throw std::runtime_error("MNN could not create an LLM from " + config_path);
  // reuse_kv: generate_init() must keep the cache (see above). async off: logits are complete
  // when forward returns, whatever the backend.
  std::string overrides = R"({"reuse_kv": true, "async": false)";
  if (params.threads > 0) overrides += R"(, "thread_num": )" + std::to_string(params.threads);
  overrides += "}";
  llm_->set_config(overrides);
  if (!llm_->load()) {
    llm_.reset();
    throw std::runtime_error("MNN could not load the model of " + config_path + " (MNN's reason is in its log above)");
  }
  // The logits width is only known from a forward pass: probe with token 0 (the prefill module).
  llm_->reset();
  forward({0});
  width_ = static_cast<int32_t>(logits_->getInfo()->dim.back());
  // Warm-up: one decode step, so the decode module's first resize (the costliest, see the top of
  // this file) is paid here rather than by the first token of the first request. Then forget both.
  forward({0});
  llm_->reset();
  cached_ = 0;
  logits_ = nullptr;
  last_logits_ = nullptr;
}

MnnModel::~MnnModel() = default;

void MnnModel::check_usable() const {
  if (failed_) throw std::runtime_error("an earlier MNN forward pass failed; the model is unusable");
}

void MnnModel::forward(const std::vector<int32_t>& tokens) {
  last_logits_ = nullptr;
  // Forward passes run on whichever libuv worker thread is free: make the Llm's executor current
  // on it for the logits' mapping too, not only inside Llm::forward.
  MNN::Express::ExecutorScope scope(llm_->getExecutor());
  VARP logits = llm_->forward(std::vector<int>(tokens.begin(), tokens.end()));
  const float* data = logits.get() != nullptr ? logits->readMap<float>() : nullptr;
  if (data == nullptr) {
    failed_ = true;
    throw std::runtime_error("MNN forward pass failed (MNN's reason is in its log above)");
  }
  const auto* info = logits->getInfo();
  const size_t width = static_cast<size_t>(info->dim.back());
  // [1, n, width]: n is 1 unless the model returns all rows (all_logits); we want the last row.
  const size_t rows = static_cast<size_t>(info->size) / width;
  logits_ = logits;
  last_logits_ = data + (rows - 1) * width;
}

void MnnModel::evaluate(size_t keep, const std::vector<int32_t>& tokens) {
  check_usable();
  if (keep > cached_) throw std::out_of_range("cannot keep " + std::to_string(keep) + " of " + std::to_string(cached_) + " cached tokens");
  if (tokens.empty()) throw std::invalid_argument("evaluate needs at least one token");
  if (keep == 0) {
    llm_->reset();
  } else if (keep < cached_) {
    llm_->eraseHistory(keep, 0);
  }
  cached_ = keep;
  if (keep == 0 || tokens.size() > kMaxStepBatch) {
    if (keep > 0) llm_->generate_init();
    prefill_batches_++;
    forward(tokens);
    cached_ += tokens.size();
    return;
  }
  for (const int32_t token : tokens) {
    forward({token});
    cached_++;
  }
}

std::vector<int32_t> MnnModel::tokenize(const std::string& text) const {
  const std::vector<int> ids = llm_->tokenizer_encode(text);
  return std::vector<int32_t>(ids.begin(), ids.end());
}

std::string MnnModel::piece(int32_t id) const { return llm_->tokenizer_decode(id); }

std::string MnnModel::apply_chat_template(const std::string& user) const { return llm_->apply_chat_template(user); }

}  // namespace pocket
