// One llama.cpp model with its single inference context (sequence 0), in plain C++ with no N-API:
// load, vocabulary access, tokenize, batch decode at explicit positions, raw logits of the last
// decoded tokens (several rows for speculative verification), and KV-cache truncation for
// rollback, rejected drafts and prompt-prefix reuse. Errors are thrown
// as std::runtime_error carrying llama.cpp's own error log lines.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct llama_model;
struct llama_context;
struct llama_vocab;

namespace pocket {

// Loads the ggml backends (CPU variants) from `dir` and routes llama.cpp's log; once per process.
void init_llama_runtime(const std::string& backends_dir);

class LlamaModel {
 public:
  struct Params {
    uint32_t context_length = 0;  // 0 = the model's training context
    int32_t threads = 0;          // 0 = hardware concurrency
  };

  LlamaModel(const std::string& path, const Params& params);
  ~LlamaModel();
  LlamaModel(const LlamaModel&) = delete;
  LlamaModel& operator=(const LlamaModel&) = delete;

  int32_t n_vocab() const;
  uint32_t context_length() const;
  // Number of tokens in the KV cache (the position the next decoded token gets).
  int32_t position() const { return position_; }

  // Evaluates `tokens` at positions position()..; logits are computed after the tokens at the
  // indices `rows` (increasing, at least one, all within the last batch of batch_size() tokens).
  void decode(const std::vector<int32_t>& tokens, const std::vector<int32_t>& rows);
  // Logits row `row` (0 = the first of the last decode's rows), or nullptr when nothing was decoded
  // since the last truncation or the row is out of range.
  const float* logits(int32_t row) const;
  int32_t rows() const { return has_logits_ ? rows_ : 0; }
  // Drops every cached token at position >= n.
  void truncate(int32_t n);

  std::vector<int32_t> tokenize(const std::string& text, bool parse_special) const;
  // Raw bytes of a token (byte-level BPE undone); special tokens give their text.
  std::string piece(int32_t id) const;
  int32_t attributes(int32_t id) const;
  bool is_end_of_generation(int32_t id) const;
  int32_t eos() const;
  int32_t eot() const;
  int32_t pad() const;

 private:
  llama_model* model_ = nullptr;
  llama_context* ctx_ = nullptr;
  const llama_vocab* vocab_ = nullptr;
  int32_t position_ = 0;
  int32_t batch_size_ = 0;
  int32_t rows_ = 0;
  bool has_logits_ = false;
};

}  // namespace pocket
