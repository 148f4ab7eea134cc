/**
 * Loads a HuggingFace `tokenizer.json` holding a byte-level BPE model (Qwen3, MNN-Pocket, GPT-2
 * style) into a Vocabulary. Encode/decode are delegated to `@huggingface/tokenizers`; the exact
 * byte view of every token is built here by undoing the byte-level alphabet. Not for
 * SentencePiece/Unigram/WordPiece tokenizers: those are rejected with TOKENIZER_UNSUPPORTED.
 *
 * End-of-generation ids: by default every added token whose text is in `DEFAULT_EOS_TOKENS`, in
 * that list's order (for Qwen3 / MNN-Pocket: `<|im_end|>`, then `<|endoftext|>`); override with
 * `eosTokens`. Pad id: `<|endoftext|>` when present (Qwen style); override with `padToken`.
 * Every added token (special or not in the file, e.g. `<think>`) counts as special here: none of
 * them may appear inside generated JSON.
 */
import { readFile } from "node:fs/promises";
import { Tokenizer } from "@huggingface/tokenizers";
import { FileError } from "../errors.js";
import { byteLevelToBytes, bytesToByteLevel } from "./byte-level.js";
import { packBytes, PackedVocabulary } from "./packed.js";
import type { Vocabulary } from "./vocabulary.js";

export const DEFAULT_EOS_TOKENS: readonly string[] = ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "</s>"];
export const DEFAULT_PAD_TOKEN = "<|endoftext|>";

/** loadTokenizerJson's options: logits width and the end-of-generation and padding tokens. */
export interface TokenizerJsonOptions {
  /** Logits width of the model (65,536 for MNN-Pocket). Default: highest token id + 1. */
  width?: number;
  /** Texts of the added tokens that end generation. Default: see `DEFAULT_EOS_TOKENS`. */
  eosTokens?: readonly string[];
  /** Text of the padding token, or null for none. Default: `<|endoftext|>` when present. */
  padToken?: string | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** True when a pre-tokenizer/decoder config is ByteLevel or a Sequence containing one. */
function hasByteLevel(config: unknown): boolean {
  if (!isObject(config)) return false;
  if (config.type === "ByteLevel") return true;
  const parts = config.pretokenizers ?? config.decoders;
  return config.type === "Sequence" && Array.isArray(parts) && parts.some(hasByteLevel);
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a directory, not a tokenizer.json file" : `cannot be read (${String(cause)})`;
    throw new FileError("TOKENIZER_NOT_FOUND", path, why, { cause });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new FileError("TOKENIZER_INVALID", path, `not valid JSON (${(cause as Error).message})`, { cause });
  }
}

interface AddedTokenEntry {
  readonly id: number;
  readonly content: string;
}

/** Validated token tables of the file: regular tokens by id, added tokens. */
interface TokenTables {
  readonly regular: Map<number, string>;
  readonly added: AddedTokenEntry[];
  readonly size: number;
}

function readTables(path: string, json: Json, model: Json): TokenTables {
  const invalid = (message: string): FileError => new FileError("TOKENIZER_INVALID", path, message);
  const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
  if (!isObject(model.vocab)) throw invalid("model.vocab is missing or not an object");
  const vocab = model.vocab;
  const regular = new Map<number, string>();
  for (const token of Object.keys(vocab)) {
    const id = vocab[token];
    if (!isId(id)) throw invalid(`model.vocab: token ${JSON.stringify(token)} has id ${JSON.stringify(id)}, not a non-negative integer`);
    if (regular.has(id)) throw invalid(`model.vocab: id ${id} is used by two tokens`);
    if (byteLevelToBytes(token) === undefined) throw invalid(`model.vocab: token ${JSON.stringify(token)} (id ${id}) has a character outside the byte-level alphabet`);
    regular.set(id, token);
  }
  for (let b = 0; b < 256; b++) {
    const piece = bytesToByteLevel(Uint8Array.of(b));
    if (!Object.hasOwn(vocab, piece)) throw invalid(`model.vocab has no token for byte 0x${b.toString(16).padStart(2, "0")}, so some text could not be encoded`);
  }
  if (!Array.isArray(model.merges)) throw invalid("model.merges is missing or not an array");
  model.merges.forEach((merge: unknown, i) => {
    const pair = typeof merge === "string" ? merge.split(" ") : merge;
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((p) => typeof p === "string" && Object.hasOwn(vocab, p))) {
      throw invalid(`model.merges[${i}] (${JSON.stringify(merge)}) is not a pair of vocabulary tokens`);
    }
    if (!Object.hasOwn(vocab, pair[0] + pair[1])) throw invalid(`model.merges[${i}] (${JSON.stringify(merge)}) produces a token missing from model.vocab`);
  });
  const addedRaw = json.added_tokens ?? [];
  if (!Array.isArray(addedRaw)) throw invalid("added_tokens is not an array");
  const added = addedRaw.map((t: unknown, i): AddedTokenEntry => {
    if (!isObject(t) || !isId(t.id) || typeof t.content !== "string" || t.content === "") {
      throw invalid(`added_tokens[${i}] needs a non-negative integer id and a non-empty content string`);
    }
    const clash = regular.get(t.id);
    if (clash !== undefined && clash !== t.content) throw invalid(`added_tokens[${i}] (${JSON.stringify(t.content)}) reuses id ${t.id} of vocab token ${JSON.stringify(clash)}`);
    return { id: t.id, content: t.content };
  });
  let size = 0;
  for (const id of regular.keys()) size = Math.max(size, id + 1);
  for (const t of added) size = Math.max(size, t.id + 1);
  return { regular, added, size };
}

function idsOf(path: string, added: readonly AddedTokenEntry[], texts: readonly string[], option: string): number[] {
  return texts.map((text) => {
    const hit = added.find((t) => t.content === text);
    if (!hit) throw new FileError("OPTION_INVALID", path, `${option}: ${JSON.stringify(text)} is not an added token of this tokenizer`);
    return hit.id;
  });
}

/**
 * @huggingface/tokenizers keeps what it was built from after building its own tables from it: the
 * file's vocabulary object and merge list (on the tokenizer and on its BPE model's config) and the
 * merges split into pairs. Encoding reads none of them (it reads the token map and the merge ranks),
 * and at 64K tokens they are ~11 MB of the ~20 MB a loaded tokenizer holds, so they are let go.
 * Only fields the tokenizer does not read after construction are touched; a version that reads
 * them would fail the tokenizer tests (encode/decode against the reference ids), not mask wrongly.
 */
function releaseBuildInputs(tokenizer: Tokenizer): void {
  const internals = tokenizer as unknown as { tokenizer?: Json; model?: { config?: Json; merges?: unknown } };
  if (isObject(internals.tokenizer)) internals.tokenizer = { ...internals.tokenizer, model: undefined };
  const model = internals.model;
  if (model === undefined) return;
  if (isObject(model.config)) model.config = { ...model.config, vocab: undefined, merges: undefined };
  if (Array.isArray(model.merges)) model.merges = [];
}

/** Loads a byte-level BPE `tokenizer.json`. Throws FileError naming the file on any problem. */
export async function loadTokenizerJson(path: string, options: TokenizerJsonOptions = {}): Promise<Vocabulary> {
  const json = await readJson(path);
  if (!isObject(json) || !isObject(json.model)) throw new FileError("TOKENIZER_INVALID", path, "no model section: not a HuggingFace tokenizer.json");
  const model = json.model;
  if (model.type !== "BPE") {
    throw new FileError("TOKENIZER_UNSUPPORTED", path, `model type ${JSON.stringify(model.type)} is not supported; only byte-level BPE is`);
  }
  if (!hasByteLevel(json.pre_tokenizer) || !hasByteLevel(json.decoder)) {
    throw new FileError("TOKENIZER_UNSUPPORTED", path, "BPE model is not byte-level (pre_tokenizer and decoder must include ByteLevel)");
  }
  const { regular, added, size } = readTables(path, json, model);
  const width = options.width ?? size;
  if (!Number.isInteger(width) || width < size) {
    throw new FileError("VOCABULARY_MISMATCH", path, `width ${width} is smaller than the tokenizer's ${size} ids`);
  }

  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer({ ...json, added_tokens: json.added_tokens ?? [] }, { clean_up_tokenization_spaces: false });
  } catch (cause) {
    throw new FileError("TOKENIZER_UNSUPPORTED", path, `@huggingface/tokenizers cannot load it (${(cause as Error).message})`, { cause });
  }
  releaseBuildInputs(tokenizer);

  const addedById = new Map(added.map((t) => [t.id, t.content]));
  const utf8 = new TextEncoder();
  const packed = packBytes(size, (id) => {
    const special = addedById.get(id);
    if (special !== undefined) return utf8.encode(special);
    const piece = regular.get(id);
    return piece === undefined ? undefined : byteLevelToBytes(piece);
  });
  const special = new Uint8Array(size);
  for (const t of added) special[t.id] = 1;

  const present = new Set(added.map((t) => t.content));
  const eosTexts = options.eosTokens ?? DEFAULT_EOS_TOKENS.filter((t) => present.has(t));
  const padText = options.padToken === undefined ? (present.has(DEFAULT_PAD_TOKEN) ? DEFAULT_PAD_TOKEN : null) : options.padToken;

  return new PackedVocabulary({
    width,
    packed,
    special,
    eosIds: idsOf(path, added, eosTexts, "eosTokens"),
    padId: padText === null ? undefined : idsOf(path, added, [padText], "padToken")[0],
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false }),
  });
}
