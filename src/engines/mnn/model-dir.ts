/**
 * Reads an MNN model directory before MNN sees it: config.json merged with llm_config.json, every
 * file MNN will open, and the special / stop ids of the tokenizer header. MNN reports missing or
 * broken files only on stderr, and some it does not check at all (a missing embedding file loads
 * fine and crashes on the first forward pass), so these checks turn them into typed errors first.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { FileError } from "../../errors.js";
import { MTOK_PIPELINE_TYPE, type MtokAddedToken, readMtokAddedTokens } from "./mtok.js";

export interface MnnModelDir {
  /** What to hand to MNN's createLLM: config.json, or the directory (with a trailing slash). */
  readonly configPath: string;
  /**
   * Special ids: those the tokenizer header lists and, for a binary `.mtok` tokenizer, every added
   * token (the SDK keeps all of them out of generated text; MNN's header lists only the ones
   * tokenizer.json flags special).
   */
  readonly specialIds: readonly number[];
  /** Ids the tokenizer header lists as stop tokens: our end-of-generation ids. */
  readonly stopIds: readonly number[];
  /** The model's max_position_embeddings, if its config gives one. */
  readonly contextLength: number | undefined;
  /** Rows of the bf16 embedding file, when the model has one (undefined: embeddings in the weights). */
  readonly embeddingRows: number | undefined;
  /** The `.mtok` tokenizer's added tokens (empty for text tokenizers): MNN decodes none of them to bytes. */
  readonly addedTokens: readonly MtokAddedToken[];
}

/** MNN's tokenizer files (text and .mtok) start with this number. */
const TOKENIZER_MAGIC = 430;
/** Enough bytes for the header lines of any tokenizer, even with thousands of special ids. */
const HEADER_BYTES = 1 << 20;

type Json = Record<string, unknown>;

function readJson(path: string, what: string): Json {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new FileError("MODEL_INVALID", path, `cannot read the ${what}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Json;
  } catch (err) {
    throw new FileError("MODEL_INVALID", path, `the ${what} is not a JSON object: ${(err as Error).message}`, { cause: err });
  }
}

const stringOr = (config: Json, key: string, fallback: string): string => {
  const value = config[key];
  return typeof value === "string" ? value : fallback;
};

function fileSize(path: string): number | undefined {
  try {
    const info = statSync(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

type TokenizerInfo = Pick<MnnModelDir, "specialIds" | "stopIds" | "addedTokens">;

/**
 * "430 <type>", "<special> <stop> <prefix>", then the ids: the header of every MNN tokenizer file;
 * a binary `.mtok` (type 4) goes on with the pipeline sections and the added-token table.
 */
function readTokenizer(path: string): TokenizerInfo {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(HEADER_BYTES);
  let length: number;
  try {
    length = readSync(fd, buffer, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.subarray(0, length).toString("latin1").split("\n", 3);
  const numbers = (line: string | undefined): number[] => (line ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
  const [magic, type] = numbers(lines[0]);
  if (magic !== TOKENIZER_MAGIC) throw new FileError("MODEL_INVALID", path, `not an MNN tokenizer file (the first number is not ${TOKENIZER_MAGIC})`);
  const [specials = NaN, stops = NaN, prefixes = NaN] = numbers(lines[1]);
  const ids = numbers(lines[2]);
  if (![specials, stops, prefixes].every(Number.isInteger) || ids.length < specials + stops + prefixes || !ids.every(Number.isInteger)) {
    throw new FileError("MODEL_INVALID", path, "the tokenizer header (special / stop / prefix ids) is malformed");
  }
  const specialIds = ids.slice(0, specials);
  const stopIds = ids.slice(specials, specials + stops);
  if (type !== MTOK_PIPELINE_TYPE) return { specialIds, stopIds, addedTokens: [] };
  let addedTokens: MtokAddedToken[];
  try {
    addedTokens = readMtokAddedTokens(readFileSync(path));
  } catch (err) {
    throw new FileError("MODEL_INVALID", path, `the binary tokenizer is malformed: ${(err as Error).message}`, { cause: err });
  }
  return { specialIds: [...new Set([...specialIds, ...addedTokens.map((t) => t.id)])], stopIds, addedTokens };
}

/** Checks `dir` as MNN would read it; MODEL_INVALID naming the first problem found. */
export function readMnnModelDir(dir: string): MnnModelDir {
  const configJson = join(dir, "config.json");
  const hasConfig = fileSize(configJson) !== undefined;
  // Without config.json MNN takes the directory itself as its base path and reads llm_config.json.
  const config: Json = hasConfig ? readJson(configJson, "MNN config") : {};
  const baseDir = stringOr(config, "base_dir", `${dir.replace(/\/+$/, "")}/`);
  const llmConfigPath = baseDir + stringOr(config, "llm_config", "llm_config.json");
  if (fileSize(llmConfigPath) === undefined && !hasConfig) {
    throw new FileError("MODEL_INVALID", dir, "directory has no config.json or llm_config.json: not an MNN model directory");
  }
  // MNN merges llm_config.json over config.json.
  const merged: Json = { ...config, ...(fileSize(llmConfigPath) !== undefined ? readJson(llmConfigPath, "MNN llm_config") : {}) };

  const files: Record<string, string> = {
    "LLM graph": baseDir + stringOr(merged, "llm_model", "llm.mnn"),
    "LLM weights": baseDir + stringOr(merged, "llm_weight", "llm.mnn.weight"),
    tokenizer: baseDir + stringOr(merged, "tokenizer_file", "tokenizer.txt"),
  };
  // With tie_embeddings the embedding rows live in the weights; otherwise in a bf16 file.
  const embeddingFile = merged.tie_embeddings === undefined ? baseDir + stringOr(merged, "embedding_file", "embeddings_bf16.bin") : undefined;
  if (embeddingFile !== undefined) files["bf16 embedding table"] = embeddingFile;
  const missing = Object.entries(files).filter(([, path]) => fileSize(path) === undefined);
  if (missing.length > 0) {
    throw new FileError("MODEL_INVALID", dir, `missing ${missing.map(([what, path]) => `${what} (${path})`).join(", ")}`);
  }

  let embeddingRows: number | undefined;
  if (embeddingFile !== undefined) {
    const hidden = merged.hidden_size;
    if (!(typeof hidden === "number" && Number.isInteger(hidden) && hidden > 0)) {
      throw new FileError("MODEL_INVALID", llmConfigPath, "hidden_size must be a positive integer");
    }
    const size = fileSize(embeddingFile) ?? 0;
    if (size === 0 || size % (hidden * 2) !== 0) {
      throw new FileError("MODEL_INVALID", embeddingFile, `${size} bytes is not a whole number of bf16 rows of hidden_size ${hidden}`);
    }
    embeddingRows = size / (hidden * 2);
  }

  const maxPositions = merged.max_position_embeddings;
  return {
    configPath: hasConfig ? configJson : baseDir,
    ...readTokenizer(files.tokenizer!),
    contextLength: typeof maxPositions === "number" && Number.isInteger(maxPositions) && maxPositions > 0 ? maxPositions : undefined,
    embeddingRows,
  };
}
