/**
 * GGUF v3 format constants shared by the metadata reader (src) and the fixture writer (fixtures/):
 * one definition of the magic, the metadata value types and the tensor types we write.
 * Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */

/** "GGUF" read as a little-endian uint32. */
export const GGUF_MAGIC = 0x46554747;
export const GGUF_VERSION = 3;
/** Tensor data offsets are aligned to `general.alignment`, 32 when absent. */
export const GGUF_DEFAULT_ALIGNMENT = 32;

export const GgufValueType = {
  Uint8: 0,
  Int8: 1,
  Uint16: 2,
  Int16: 3,
  Uint32: 4,
  Int32: 5,
  Float32: 6,
  Bool: 7,
  String: 8,
  Array: 9,
  Uint64: 10,
  Int64: 11,
  Float64: 12,
} as const;
export type GgufValueType = (typeof GgufValueType)[keyof typeof GgufValueType];

/** The ggml tensor types the fixtures use (values of `enum ggml_type`). */
export const GgmlType = {
  F32: 0,
  F16: 1,
  Q4_0: 2,
  Q8_0: 8,
} as const;
export type GgmlType = (typeof GgmlType)[keyof typeof GgmlType];

/** `tokenizer.ggml.token_type` values (llama.cpp `enum llama_token_type`). */
export const GgufTokenType = {
  Normal: 1,
  Unknown: 2,
  Control: 3,
  UserDefined: 4,
  Unused: 5,
  Byte: 6,
} as const;
export type GgufTokenType = (typeof GgufTokenType)[keyof typeof GgufTokenType];
