/**
 * An Engine over one native inference context with a KV cache (a llama.cpp context, an MNN Llm):
 * the backend-neutral half of the native engines. The backend only has to evaluate a batch after
 * keeping a prefix of its cache, and sample from the last logits under a mask.
 *
 * One context serves one request at a time, so sessions are serialized: `createSession` resolves
 * once the previous session is closed. The cache outlives sessions: a new session's prompt reuses
 * the longest cached prefix, and rollback just forgets tokens (the backend drops their cache
 * entries on the next evaluation, unless the same tokens are fed again).
 */
import { PocketExtractError } from "../../errors.js";
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import type { Engine, EngineSession, SamplingOptions, SessionOptions } from "../engine.js";
import { checkRows } from "../feed-rows.js";
import { nativeErrorCode, typedNativeError } from "./native-error.js";
import { checkSampling } from "./sampling.js";

/** What a native addon handle provides; errors carry the codes of native-error.ts. */
export interface NativeContext {
  /**
   * Keeps the first `keep` cached tokens, then evaluates `tokens` in one batch off the JS thread,
   * keeping the logits after the tokens at the indices `rows` (increasing; backends with
   * `multiRow`, others always get the last index). What it resolves with is the backend's (e.g.
   * timings for benches); the engine ignores it.
   */
  evaluate(keep: number, tokens: Int32Array, rows: Int32Array): Promise<unknown>;
  /** Tokens the native cache holds (also after a failed evaluation). */
  cached(): number;
  /**
   * Masked sampling on the logits of row `row` of the last evaluation (default: its last row); -1
   * when the mask allows nothing. Throws (code LOGITS) when an allowed id's logit is NaN or infinite.
   */
  sample(mask: Uint32Array, temperature: number, topK: number, topP: number, minP?: number, row?: number): number;
  /**
   * Optional: `evaluate(keep, tokens, 1)`, then `sample(mask, ...)` in the same native call, right
   * after the forward pass (one return to JS per token). The mask is written while the model runs,
   * then `maskReady()` is called; -2 when the evaluation finished first (nothing drawn).
   */
  evaluateSample?(keep: number, tokens: Int32Array, mask: Uint32Array, temperature: number, topK: number, topP: number, minP: number): Promise<number>;
  maskReady?(): void;
  seed(seed: number): void;
  /** Idempotent; deferred by the addon until an in-flight evaluation returns. */
  free(): void;
}

export interface CachedContextEngineOptions {
  /** Engine name for stats and errors, e.g. "mnn". */
  readonly name: string;
  readonly vocabulary: Vocabulary;
  readonly contextLength: number | undefined;
  /** The backend keeps logits at several positions of one evaluation (speculative verification). */
  readonly multiRow?: boolean;
  /** Engine.verifyRowCost, for backends with `multiRow`. */
  readonly verifyRowCost?: number;
  /** The model's chat template, when it is not ChatML (Engine.chatTemplate). */
  readonly chatTemplate?: ChatTemplate;
}

export class CachedContextEngine implements Engine {
  readonly name: string;
  readonly vocabulary: Vocabulary;
  readonly contextLength: number | undefined;
  readonly multiRow: boolean;
  readonly verifyRowCost: number | undefined;
  readonly chatTemplate: ChatTemplate | undefined;
  /** Tokens held by the native cache, in order (its mirror). */
  private cached: number[] = [];
  /** Bumped on every evaluation: a session that saw it unchanged knows the cache holds exactly its tokens. */
  private version = 0;
  private turn: Promise<void> = Promise.resolve();
  private disposed = false;
  private evaluating = false;

  constructor(
    private readonly native: NativeContext,
    options: CachedContextEngineOptions,
  ) {
    this.name = options.name;
    this.vocabulary = options.vocabulary;
    this.contextLength = options.contextLength;
    this.multiRow = options.multiRow ?? false;
    this.verifyRowCost = options.verifyRowCost;
    this.chatTemplate = options.chatTemplate;
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
    return new CachedContextSession(this, options, release);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.native.free();
  }

  assertLive(): void {
    if (this.disposed) throw new PocketExtractError("ENGINE_DISPOSED", `the ${this.name} engine is disposed`);
  }

  /**
   * Makes the context hold exactly `tokens` with fresh logits after the tokens at the indices
   * `rows` (default: the last), evaluating only what the cache lacks (at least the tokens from
   * the first of those on, whose logits are needed).
   */
  async evaluate(tokens: readonly number[], rows: readonly number[] = [tokens.length - 1]): Promise<void> {
    if (tokens.length === 0) return;
    this.checkBatch(tokens, tokens.length);
    let keep = 0;
    const limit = Math.min(this.cached.length, rows[0]!);
    while (keep < limit && this.cached[keep] === tokens[keep]) keep++;
    await this.evaluateAfter(keep, tokens.slice(keep), this.evaluateRows(rows.map((r) => r - keep)));
  }

  /** The version of the cache: unchanged since a session's evaluation means it holds exactly that session's tokens. */
  get cacheVersion(): number {
    return this.version;
  }

  /**
   * `evaluate(cachedTokens + ids)` for a caller whose tokens the cache holds exactly (its
   * `cacheVersion` unchanged), with logits after the ids at the indices `rows`: checks and copies
   * only `ids`, so a step costs the same at any length.
   */
  async extend(ids: readonly number[], rows: readonly number[]): Promise<void> {
    this.checkBatch(ids, this.cached.length + ids.length);
    await this.evaluateAfter(this.cached.length, ids, this.evaluateRows(rows));
  }

  private checkBatch(ids: readonly number[], total: number): void {
    if (this.contextLength !== undefined && total > this.contextLength) {
      throw new PocketExtractError("CONTEXT_OVERFLOW", `${total} tokens exceed the context length ${this.contextLength}`);
    }
    const width = this.vocabulary.width;
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || id >= width) throw new PocketExtractError("TOKEN_UNKNOWN", `token id ${id} is outside 0..${width - 1}`);
    }
    if (this.evaluating) throw new PocketExtractError("ENGINE_FAILED", "feed/sample called while an evaluation is in progress (await each call)");
  }

  private evaluateRows(rows: readonly number[]): (keep: number, tokens: Int32Array) => Promise<unknown> {
    return (keep, tokens) => this.native.evaluate(keep, tokens, Int32Array.from(rows));
  }

  /** Whether the backend can sample in the call that evaluates (extendAndSample). */
  get samplesAfterEvaluating(): boolean {
    return this.native.evaluateSample !== undefined && this.native.maskReady !== undefined;
  }

  /**
   * `extend(ids, 1)` and the sample under `mask` in one native call (samplesAfterEvaluating):
   * `fillMask` writes the mask while the model runs. -1 when the mask allows nothing.
   */
  async extendAndSample(ids: readonly number[], mask: Uint32Array, sampling: SamplingOptions, fillMask: () => void): Promise<number> {
    const native = this.native;
    this.checkBatch(ids, this.cached.length + ids.length);
    let fillError: unknown;
    let filled = false;
    let id = await this.evaluateAfter(this.cached.length, ids, async (keep, tokens) => {
      const drawn = native.evaluateSample!(keep, tokens, mask, sampling.temperature ?? 0, sampling.topK ?? 0, sampling.topP ?? 1, sampling.minP ?? 0);
      try {
        fillMask();
        filled = true;
        native.maskReady!();
      } catch (err) {
        // Not ready: the native side draws nothing, and the evaluation is awaited before this throws.
        fillError = err;
      }
      return drawn;
    });
    if (!filled) throw fillError;
    if (id === -2) id = this.sample(mask, sampling);
    return id;
  }

  /** Keeps the first `keep` cached tokens and evaluates `fresh` after them with `run` (a native evaluate call). */
  private async evaluateAfter<T>(keep: number, fresh: readonly number[], run: (keep: number, tokens: Int32Array) => Promise<T>): Promise<T> {
    this.evaluating = true;
    try {
      this.cached.length = keep;
      const result = await run(keep, Int32Array.from(fresh));
      for (const id of fresh) this.cached.push(id);
      return result;
    } catch (err) {
      // A failed batch leaves the cache at whatever the backend kept: mirror that.
      if (nativeErrorCode(err) === "DECODE" && !this.disposed) {
        const held = this.native.cached();
        this.cached.length = Math.min(keep, held);
        for (let i = 0; i < held - keep; i++) this.cached.push(fresh[i]!);
      }
      throw typedNativeError(err, this.name, "evaluation");
    } finally {
      this.evaluating = false;
      this.version++;
    }
  }

  sample(mask: Uint32Array, sampling: SamplingOptions, row?: number): number {
    try {
      return this.native.sample(mask, sampling.temperature ?? 0, sampling.topK ?? 0, sampling.topP ?? 1, sampling.minP ?? 0, row);
    } catch (err) {
      throw typedNativeError(err, this.name, "sampling");
    }
  }
}

class CachedContextSession implements EngineSession {
  /** This session's context: prompt, then fed and sampled-then-fed tokens. */
  private tokens: number[] = [];
  /** False after a rollback: the native logits belong to tokens we forgot. */
  private synced = true;
  /** Logits rows of the last evaluation (feedRows), while synced. */
  private rows = 1;
  /** The engine's cacheVersion after this session's last evaluation (-1: none yet). */
  private version = -1;
  private closed = false;
  readonly feedRows?: (ids: readonly number[], rows: readonly number[]) => Promise<void>;
  readonly sampleRow?: (row: number, mask: Uint32Array) => Promise<number>;
  readonly feedAndSample?: (ids: readonly number[], mask: Uint32Array, fillMask: () => void) => Promise<number>;

  constructor(
    private readonly engine: CachedContextEngine,
    private readonly options: SessionOptions,
    private readonly release: () => void,
  ) {
    if (engine.multiRow) {
      this.feedRows = (ids, rows) => this.feedWithRows(ids, rows);
      this.sampleRow = (row, mask) => this.sampleFromRow(row, mask);
    }
    if (engine.samplesAfterEvaluating) this.feedAndSample = (ids, mask, fillMask) => this.feedThenSample(ids, mask, fillMask);
  }

  async feed(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.feedWithRows(ids, [ids.length - 1]);
    else this.check();
  }

  async sample(mask: Uint32Array): Promise<number> {
    this.check();
    if (this.tokens.length === 0) throw new PocketExtractError("ENGINE_FAILED", "sample() before any token was fed");
    if (!this.synced) {
      await this.engine.evaluate(this.tokens);
      this.version = this.engine.cacheVersion;
      this.synced = true;
      this.rows = 1;
    }
    return this.choose(mask, this.rows - 1);
  }

  private async feedWithRows(ids: readonly number[], rows: readonly number[]): Promise<void> {
    this.check();
    checkRows(rows, ids.length);
    // Every step of a decode extends the cache this session left: only the new ids are handled.
    if (this.synced && this.version === this.engine.cacheVersion) await this.engine.extend(ids, rows);
    else await this.engine.evaluate([...this.tokens, ...ids], rows.map((r) => r + this.tokens.length));
    for (const id of ids) this.tokens.push(id);
    this.version = this.engine.cacheVersion;
    this.synced = true;
    this.rows = rows.length;
  }

  private async feedThenSample(ids: readonly number[], mask: Uint32Array, fillMask: () => void): Promise<number> {
    this.check();
    // Only a step that extends this session's cache goes in one call; anything else (after a
    // rollback, another session in between) evaluates first, as feed does.
    if (ids.length === 0 || !this.synced || this.version !== this.engine.cacheVersion) {
      await this.feed(ids);
      fillMask();
      return this.sample(mask);
    }
    const id = await this.engine.extendAndSample(ids, mask, this.options.sampling ?? {}, fillMask);
    for (const fed of ids) this.tokens.push(fed);
    this.version = this.engine.cacheVersion;
    this.rows = 1;
    if (id < 0) throw new PocketExtractError("ENGINE_FAILED", "the mask allows no token");
    return id;
  }

  private async sampleFromRow(row: number, mask: Uint32Array): Promise<number> {
    this.check();
    if (!this.synced || !(Number.isInteger(row) && row >= 0 && row < this.rows)) {
      throw new PocketExtractError("ENGINE_FAILED", `sampleRow(${row}): the last feedRows kept ${this.synced ? this.rows : 0} rows`);
    }
    return this.choose(mask, row);
  }

  private choose(mask: Uint32Array, row: number): number {
    const id = this.engine.sample(mask, this.options.sampling ?? {}, row);
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

