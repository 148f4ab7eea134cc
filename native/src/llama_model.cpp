// llama.cpp C API behind pocket::LlamaModel. llama.cpp reports load failures through its log
// callback (the API returns only NULL), so error lines are captured per thread and attached to
// the exception, which lets the caller name the actual problem (bad magic, missing tensor...).
#include "llama_model.h"

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "ggml-backend.h"
#include "llama.h"

namespace pocket {
namespace {

thread_local std::string captured_errors;

void log_callback(ggml_log_level level, const char* text, void*) {
  static const bool verbose = std::getenv("POCKET_EXTRACT_LLAMA_LOG") != nullptr;
  if (verbose) std::fputs(text, stderr);
  if (level == GGML_LOG_LEVEL_ERROR && captured_errors.size() < 4096) captured_errors += text;
}

std::runtime_error failure(const std::string& what) {
  std::string message = what;
  if (!captured_errors.empty()) {
    message += ": ";
    message += captured_errors;
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  }
  captured_errors.clear();
  return std::runtime_error(message);
}

}  // namespace

void init_llama_runtime(const std::string& backends_dir) {
  static std::once_flag once;
  std::call_once(once, [&] {
    llama_log_set(log_callback, nullptr);
    ggml_backend_load_all_from_path(backends_dir.c_str());
    llama_backend_init();
  });
}

LlamaModel::LlamaModel(const std::string& path, const Params& params) {
  captured_errors.clear();
  if (ggml_backend_dev_count() == 0) throw failure("no ggml backend could be loaded (CPU backend libraries missing?)");
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = 0;
  model_ = llama_model_load_from_file(path.c_str(), mp);
  if (model_ == nullptr) throw failure("llama.cpp could not load the model");

  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = params.context_length;
  const int32_t threads =
      params.threads > 0 ? params.threads : static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.n_seq_max = 1;
  cp.no_perf = true;
  ctx_ = llama_init_from_model(model_, cp);
  if (ctx_ == nullptr) {
    llama_model_free(model_);
    model_ = nullptr;
    throw failure("llama.cpp could not create a context");
  }
  vocab_ = llama_model_get_vocab(model_);
  batch_size_ = static_cast<int32_t>(llama_n_batch(ctx_));
}

LlamaModel::~LlamaModel() {
  if (ctx_ != nullptr) llama_free(ctx_);
  if (model_ != nullptr) llama_model_free(model_);
}

int32_t LlamaModel::n_vocab() const { return llama_vocab_n_tokens(vocab_); }
uint32_t LlamaModel::context_length() const { return llama_n_ctx(ctx_); }

void LlamaModel::decode(const std::vector<int32_t>& tokens, const std::vector<int32_t>& rows) {
  if (tokens.empty()) return;
  const size_t last_batch = (tokens.size() - 1) % batch_size_ + 1;
  const int64_t last_batch_start = static_cast<int64_t>(tokens.size() - last_batch);
  bool rows_valid = !rows.empty() && rows.front() >= last_batch_start && rows.back() < static_cast<int64_t>(tokens.size());
  for (size_t r = 1; r < rows.size() && rows_valid; ++r) rows_valid = rows[r] > rows[r - 1];
  if (!rows_valid) {
    throw std::runtime_error("decode: logits rows must be increasing indices within the last batch, tokens " +
                             std::to_string(last_batch_start) + ".." + std::to_string(tokens.size() - 1));
  }
  if (position_ + static_cast<int64_t>(tokens.size()) > static_cast<int64_t>(context_length())) {
    throw std::runtime_error("context full: " + std::to_string(position_) + " + " + std::to_string(tokens.size()) +
                             " tokens exceed " + std::to_string(context_length()));
  }
  const int32_t n_vocab_ids = n_vocab();
  for (int32_t t : tokens) {
    if (t < 0 || t >= n_vocab_ids) throw std::runtime_error("token id " + std::to_string(t) + " out of range");
  }
  has_logits_ = false;
  llama_batch batch = llama_batch_init(batch_size_, 0, 1);
  try {
    // Prompts longer than one batch go in several llama_decode calls; logits only at `rows`.
    size_t next_row = 0;
    for (size_t start = 0; start < tokens.size(); start += batch_size_) {
      const size_t count = std::min(tokens.size() - start, static_cast<size_t>(batch_size_));
      batch.n_tokens = static_cast<int32_t>(count);
      for (size_t i = 0; i < count; ++i) {
        batch.token[i] = tokens[start + i];
        batch.pos[i] = position_ + static_cast<int32_t>(i);
        batch.n_seq_id[i] = 1;
        batch.seq_id[i][0] = 0;
        const bool row = next_row < rows.size() && static_cast<size_t>(rows[next_row]) == start + i;
        batch.logits[i] = row;
        if (row) ++next_row;
      }
      captured_errors.clear();
      const int32_t rc = llama_decode(ctx_, batch);
      if (rc != 0) {
        // On failure the cache may hold part of the batch: cut it back to what we account for.
        llama_memory_seq_rm(llama_get_memory(ctx_), 0, position_, -1);
        throw failure("llama_decode failed with code " + std::to_string(rc));
      }
      position_ += static_cast<int32_t>(count);
    }
  } catch (...) {
    llama_batch_free(batch);
    throw;
  }
  llama_batch_free(batch);
  rows_ = static_cast<int32_t>(rows.size());
  has_logits_ = true;
}

const float* LlamaModel::logits(int32_t row) const {
  if (!has_logits_ || row < 0 || row >= rows_) return nullptr;
  return llama_get_logits_ith(ctx_, row - rows_);
}

void LlamaModel::truncate(int32_t n) {
  if (n < 0 || n > position_) throw std::runtime_error("truncate: position " + std::to_string(n) + " outside 0.." + std::to_string(position_));
  if (n == position_) return;
  if (!llama_memory_seq_rm(llama_get_memory(ctx_), 0, n, -1)) throw failure("llama_memory_seq_rm refused to truncate");
  position_ = n;
  has_logits_ = false;
}

std::vector<int32_t> LlamaModel::tokenize(const std::string& text, bool parse_special) const {
  std::vector<int32_t> out(text.size() + 2);
  int32_t n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), out.data(),
                             static_cast<int32_t>(out.size()), false, parse_special);
  if (n < 0) {
    if (n == INT32_MIN) throw std::runtime_error("tokenize: text too long");
    out.resize(-n);
    n = llama_tokenize(vocab_, text.data(), static_cast<int32_t>(text.size()), out.data(),
                       static_cast<int32_t>(out.size()), false, parse_special);
  }
  out.resize(std::max(n, 0));
  return out;
}

std::string LlamaModel::piece(int32_t id) const {
  std::string out(32, '\0');
  int32_t n = llama_token_to_piece(vocab_, id, out.data(), static_cast<int32_t>(out.size()), 0, true);
  if (n < 0) {
    out.resize(-n);
    n = llama_token_to_piece(vocab_, id, out.data(), static_cast<int32_t>(out.size()), 0, true);
  }
  out.resize(std::max(n, 0));
  return out;
}

int32_t LlamaModel::attributes(int32_t id) const { return static_cast<int32_t>(llama_vocab_get_attr(vocab_, id)); }
bool LlamaModel::is_end_of_generation(int32_t id) const { return llama_vocab_is_eog(vocab_, id); }
int32_t LlamaModel::eos() const { return llama_vocab_eos(vocab_); }
int32_t LlamaModel::eot() const { return llama_vocab_eot(vocab_); }
int32_t LlamaModel::pad() const { return llama_vocab_pad(vocab_); }

}  // namespace pocket
