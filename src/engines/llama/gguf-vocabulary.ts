/**
 * The vocabulary of a GGUF model, read from its `tokenizer.ggml.*` metadata in TypeScript without
 * loading weights: token strings (byte-level BPE spelling, undone to exact bytes), token types
 * (CONTROL and USER_DEFINED tokens are special), eos/pad ids, and the logits width taken from the
 * output matrix's shape.
 */
import { FileError } from "../../errors.js";
import { byteLevelToBytes } from "../../tokens/index.js";
import { vocabularyFromBytes, type VocabularyFromBytesOptions } from "../../tokens/index.js";
import { DEFAULT_EOS_TOKENS } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import { GgufTokenType } from "./gguf-format.js";
import { type GgufHeader, type GgufValue, readGgufHeader } from "./gguf.js";

/** The parts `vocabularyFromBytes` needs; the engine adds llama.cpp's tokenizer as `encode`. */
export type GgufVocabularyParts = Omit<VocabularyFromBytesOptions, "encode" | "decode">;

/** The vocabulary parts of the GGUF at `path` (its header, when already read, spares a second read). */
export function readGgufVocabularyParts(path: string, header: GgufHeader = readGgufHeader(path)): GgufVocabularyParts {
  const { metadata, tensors } = header;
  const invalid = (message: string): never => {
    throw new FileError("MODEL_INVALID", path, message);
  };
  const model = metadata.get("tokenizer.ggml.model");
  if (model !== "gpt2") {
    throw new FileError("TOKENIZER_UNSUPPORTED", path, `tokenizer.ggml.model is ${JSON.stringify(model)}; only byte-level BPE ("gpt2") is supported`);
  }
  const tokens = metadata.get("tokenizer.ggml.tokens");
  const types = metadata.get("tokenizer.ggml.token_type");
  if (!Array.isArray(tokens) || !tokens.every((t): t is string => typeof t === "string")) return invalid("tokenizer.ggml.tokens is missing or not a string array");
  if (!Array.isArray(types) || types.length !== tokens.length) return invalid("tokenizer.ggml.token_type is missing or does not match the tokens");
  const optionalId = (key: string): number | undefined => {
    const v: GgufValue | undefined = metadata.get(key);
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= tokens.length) return invalid(`${key} (${String(v)}) is not a token id`);
    return v;
  };

  // Logits width = rows of the output matrix (tied models: the embedding), which may exceed the token list.
  const output = tensors.get("output.weight") ?? tensors.get("token_embd.weight");
  const width = output?.dims.length === 2 ? output.dims[1] : undefined;
  if (width === undefined) return invalid("no output.weight / token_embd.weight matrix");
  if (width < tokens.length) return invalid(`logits width ${width} is smaller than the ${tokens.length} tokens of its vocabulary`);

  const special: number[] = [];
  const specialByText = new Map<string, number>();
  const utf8 = new TextEncoder();
  const bytes = new Array<Uint8Array | undefined>(tokens.length);
  tokens.forEach((text, id) => {
    const type = types[id];
    if (type === GgufTokenType.Control || type === GgufTokenType.UserDefined) {
      special.push(id);
      specialByText.set(text, id);
      bytes[id] = utf8.encode(text);
    } else if (type === GgufTokenType.Normal) {
      bytes[id] = byteLevelToBytes(text) ?? invalid(`token ${id} (${JSON.stringify(text)}) is not in byte-level BPE spelling`);
    }
  });
  // Same eos convention as the tokenizer.json loader: the declared eos first, then the usual end markers.
  const eos = optionalId("tokenizer.ggml.eos_token_id");
  const eosIds = [eos, optionalId("tokenizer.ggml.eot_token_id"), ...DEFAULT_EOS_TOKENS.map((t) => specialByText.get(t))];
  return {
    width,
    bytes: (id) => bytes[id],
    specialIds: special,
    eosIds: [...new Set(eosIds.filter((id): id is number => id !== undefined))],
    padId: optionalId("tokenizer.ggml.padding_token_id"),
  };
}

/** The vocabulary of a GGUF model from its metadata alone (no weights, no native code). */
export function readGgufVocabulary(path: string): Vocabulary {
  return vocabularyFromBytes(readGgufVocabularyParts(path));
}

/**
 * Throws VOCABULARY_MISMATCH (naming the model file and the first difference) unless `vocabulary`
 * has the same width and the same bytes for every id as the model's own vocabulary.
 */
export function assertSameVocabulary(path: string, model: Vocabulary, vocabulary: Vocabulary): void {
  const mismatch = (what: string): never => {
    throw new FileError("VOCABULARY_MISMATCH", path, `the model's vocabulary differs from the one given: ${what}`);
  };
  if (model.width !== vocabulary.width) mismatch(`logits width ${model.width} vs ${vocabulary.width}`);
  for (let id = 0; id < model.width; id++) {
    const a = model.bytes(id);
    const b = vocabulary.bytes(id);
    if (a.length !== b.length || !a.every((x, i) => x === b[i])) {
      mismatch(`token ${id} is ${JSON.stringify(model.decode([id]))} in the model, ${JSON.stringify(vocabulary.decode([id]))} in the vocabulary`);
    }
  }
}
