/**
 * The llama.cpp engine: GGUF models through our native addon (raw logits, our mask, our sampler).
 *
 * One engine = one llama.cpp context, so sessions are serialized: `createSession` resolves once the
 * previous session is closed. The KV cache outlives sessions: a new session's prompt reuses the
 * longest cached prefix, and rollback just forgets tokens (their cache entries are dropped lazily,
 * and kept if the same tokens are fed again).
 */
import { availableParallelism } from "node:os";
import { FileError, PocketExtractError } from "../../errors.js";
import { vocabularyFromBytes } from "../../tokens/from-bytes.js";
import type { Vocabulary } from "../../tokens/vocabulary.js";
import type { Engine, EngineSession, SamplingOptions, SessionOptions } from "../engine.js";
import { loadLlamaAddon, nativeErrorCode, type NativeLlamaModel } from "./addon.js";
import { assertSameVocabulary, readGgufVocabularyParts } from "./gguf-vocabulary.js";

export interface LlamaEngineOptions {
  /** Path of a GGUF model file. */
  readonly modelPath: string;
  /** Context size in tokens (prompt + output). Default 4096. */
  readonly contextLength?: number;
  /** CPU threads for decoding. Default: one core left to the JS thread (1 to 4 threads). */
  readonly threads?: number;
  /** The vocabulary the grammars were compiled for; checked id by id against the model's. */
  readonly vocabulary?: Vocabulary;
}

const DEFAULT_CONTEXT_LENGTH = 4096;

/** Native errors as typed errors: a freed handle means the engine was disposed. */
function typed(err: unknown, doing: string): PocketExtractError {
  if (err instanceof PocketExtractError) return err;
  const message = err instanceof Error ? err.message : String(err);
  switch (nativeErrorCode(err)) {
    case "FREED":
      return new PocketExtractError("ENGINE_DISPOSED", "the llama.cpp engine is disposed", { cause: err });
    case "MASK_SIZE":
      return new PocketExtractError("MASK_SIZE", message, { cause: err });
    default:
      return new PocketExtractError("ENGINE_FAILED", `llama.cpp ${doing} failed: ${message}`, { cause: err });
  }
}

/** Refuses options the native sampler would silently misread (NaN temperature, fractional top-k...). */
function checkSampling({ temperature = 0, topK = 0, topP = 1, seed = 0 }: SamplingOptions): void {
  const bad = (what: string): never => {
    throw new PocketExtractError("OPTION_INVALID", `sampling: ${what}`);
  };
  if (!(temperature >= 0 && Number.isFinite(temperature))) bad(`temperature must be a finite number >= 0, got ${temperature}`);
  if (!(Number.isInteger(topK) && topK >= 0)) bad(`topK must be an integer >= 0, got ${topK}`);
  if (!(topP >= 0 && topP <= 1)) bad(`topP must be within [0, 1], got ${topP}`);
  if (!(Number.isSafeInteger(seed) && seed >= 0)) bad(`seed must be a non-negative safe integer, got ${seed}`);
}

/**
 * Loads a GGUF model. Checks, in order and before any weights are read: the file (MODEL_NOT_FOUND,
 * MODEL_INVALID), its vocabulary against `options.vocabulary` (VOCABULARY_MISMATCH), the native
 * addon (ENGINE_UNAVAILABLE); then loads it (ENGINE_LOAD with llama.cpp's reason).
 */
export async function createLlamaEngine(options: LlamaEngineOptions): Promise<LlamaEngine> {
  const path = options.modelPath;
  for (const key of ["contextLength", "threads"] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) {
      throw new PocketExtractError("OPTION_INVALID", `${key} must be a positive integer, got ${v}`);
    }
  }
  const parts = readGgufVocabularyParts(path);
  if (options.vocabulary) assertSameVocabulary(path, vocabularyFromBytes(parts), options.vocabulary);
  const { addon, backendsDir } = loadLlamaAddon();
  let native: NativeLlamaModel;
  try {
    native = await addon.loadModel(path, {
      backendsDir,
      contextLength: options.contextLength ?? DEFAULT_CONTEXT_LENGTH,
      // ggml's worker threads spin-wait: more threads than free cores made decoding 10-100x slower
      // on a busy 2-core machine, so leave one core to the JS thread (and everything else).
      threads: options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    });
  } catch (err) {
    throw new FileError("ENGINE_LOAD", path, (err as Error).message, { cause: err });
  }
  if (native.width() !== parts.width) {
    native.free();
    throw new FileError("VOCABULARY_MISMATCH", path, `llama.cpp reports ${native.width()} logits, the vocabulary has width ${parts.width}`);
  }
  const engine: LlamaEngine = new LlamaEngine(
    native,
    options.vocabulary ?? vocabularyFromBytes({ ...parts, encode: (text): number[] => engine.tokenize(text) }),
  );
  return engine;
}

export class LlamaEngine implements Engine {
  readonly name = "llama.cpp";
  readonly contextLength: number;
  /** Tokens held by the KV cache, in order (mirror of the native context). */
  private cached: number[] = [];
  private turn: Promise<void> = Promise.resolve();
  private disposed = false;
  private decoding = false;

  constructor(
    private readonly native: NativeLlamaModel,
    readonly vocabulary: Vocabulary,
  ) {
    this.contextLength = native.contextLength();
  }

  async createSession(options: SessionOptions = {}): Promise<EngineSession> {
    this.assertLive();
    checkSampling(options.sampling ?? {});
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    if (this.disposed) {
      release();
      this.assertLive();
    }
    this.native.seed(options.sampling?.seed ?? Math.floor(Math.random() * 2 ** 32));
    return new LlamaSession(this, options, release);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.native.free();
  }

  /** llama.cpp's tokenizer, special tokens recognised (used as `vocabulary.encode`). */
  tokenize(text: string): number[] {
    this.assertLive();
    return Array.from(this.native.tokenize(text, true));
  }

  assertLive(): void {
    if (this.disposed) throw new PocketExtractError("ENGINE_DISPOSED", "the llama.cpp engine is disposed");
  }

  /**
   * Makes the context hold exactly `tokens` with fresh logits for the last one, decoding only what
   * the cache lacks (at least the last token, whose logits are needed).
   */
  async evaluate(tokens: readonly number[]): Promise<void> {
    if (tokens.length === 0) return;
    if (tokens.length > this.contextLength) {
      throw new PocketExtractError("CONTEXT_OVERFLOW", `${tokens.length} tokens exceed the context length ${this.contextLength}`);
    }
    const width = this.vocabulary.width;
    for (const id of tokens) {
      if (!Number.isInteger(id) || id < 0 || id >= width) throw new PocketExtractError("TOKEN_UNKNOWN", `token id ${id} is outside 0..${width - 1}`);
    }
    if (this.decoding) throw new PocketExtractError("ENGINE_FAILED", "feed/sample called while a decode is in progress (await each call)");
    let keep = 0;
    const limit = Math.min(this.cached.length, tokens.length - 1);
    while (keep < limit && this.cached[keep] === tokens[keep]) keep++;
    this.decoding = true;
    try {
      this.native.truncate(keep);
      this.cached.length = keep;
      await this.native.decode(Int32Array.from(tokens.slice(keep)));
      this.cached = [...tokens];
    } catch (err) {
      // A failed batch leaves the cache at whatever llama.cpp kept: mirror that.
      if (nativeErrorCode(err) === "DECODE" && !this.disposed) this.cached = tokens.slice(0, this.native.position());
      throw typed(err, "decode");
    } finally {
      this.decoding = false;
    }
  }

  sample(mask: Uint32Array, sampling: SamplingOptions): number {
    try {
      return this.native.sample(mask, sampling.temperature ?? 0, sampling.topK ?? 0, sampling.topP ?? 1);
    } catch (err) {
      throw typed(err, "sampling");
    }
  }
}

class LlamaSession implements EngineSession {
  /** This session's context: prompt, then fed and sampled-then-fed tokens. */
  private tokens: number[] = [];
  /** False after a rollback: the native logits belong to tokens we forgot. */
  private synced = true;
  private closed = false;

  constructor(
    private readonly engine: LlamaEngine,
    private readonly options: SessionOptions,
    private readonly release: () => void,
  ) {}

  async feed(ids: readonly number[]): Promise<void> {
    this.check();
    if (ids.length === 0) return;
    const next = [...this.tokens, ...ids];
    await this.engine.evaluate(next);
    this.tokens = next;
    this.synced = true;
  }

  async sample(mask: Uint32Array): Promise<number> {
    this.check();
    if (this.tokens.length === 0) throw new PocketExtractError("ENGINE_FAILED", "sample() before any token was fed");
    if (!this.synced) {
      await this.engine.evaluate(this.tokens);
      this.synced = true;
    }
    const id = this.engine.sample(mask, this.options.sampling ?? {});
    if (id < 0) throw new PocketExtractError("ENGINE_FAILED", "the mask allows no token");
    return id;
  }

  async rollback(n: number): Promise<void> {
    this.check();
    if (!Number.isInteger(n) || n < 0 || n > this.tokens.length) {
      throw new PocketExtractError("ROLLBACK_RANGE", `cannot roll back ${n} of ${this.tokens.length} tokens`);
    }
    if (n === 0) return;
    this.tokens.length -= n;
    this.synced = false;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.release();
  }

  private check(): void {
    if (this.closed) throw new PocketExtractError("ENGINE_DISPOSED", "session is closed");
    this.engine.assertLive();
    if (this.options.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted");
  }
}
