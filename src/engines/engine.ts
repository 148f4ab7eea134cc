/**
 * The engine seam: what a model backend (llama.cpp, MNN, test engines) provides to the decode loop.
 * Engines know nothing about schemas or grammars: they turn token ids into next-token choices under
 * a mask handed over as a bitset (bit i of word i>>>5 set = token i allowed).
 */
import type { ChatTemplate } from "../tokens/index.js";
import type { Vocabulary } from "../tokens/index.js";

/** How a session samples from the masked logits (greedy by default). */
export interface SamplingOptions {
  /** 0 (default) = greedy. */
  readonly temperature?: number;
  readonly topK?: number;
  readonly topP?: number;
  /** Keep only tokens at least `minP` times as likely as the most likely one (0 = off). */
  readonly minP?: number;
  /** Seed for reproducible sampling when temperature > 0. */
  readonly seed?: number;
}

/** A loaded model as the extractor sees it: its vocabulary and chat template, and sessions that score tokens. */
export interface Engine {
  /** The vocabulary this engine decodes with; `vocabulary.width` is its logits width. */
  readonly vocabulary: Vocabulary;
  /** Short name for stats and errors, e.g. "llama.cpp", "mnn", "random". */
  readonly name: string;
  /** Context length in tokens (prompt + output), if the engine has a limit. */
  readonly contextLength: number | undefined;
  /**
   * The model's chat template, when it is not ChatML: prompts are built in it. Absent, prompts are
   * ChatML with thinking off (MNN-Pocket's, src/prompt/chatml.ts). The native engines take it as
   * an option: they do not read the template a model file names (GGUF `tokenizer.chat_template`,
   * MNN's llm_config.json), which is Jinja or a one-string format without the control/text split
   * that keeps a document from ending a turn.
   */
  readonly chatTemplate?: ChatTemplate;
  /**
   * What verifying one more drafted token costs, in forward passes of one token (llama.cpp: from
   * the model's shape, src/engines/llama/verify-cost.ts). A guess saves a pass when confirmed and
   * wastes this much when not, so speculative decoding verifies a kind of guess only while the
   * model confirms about this share of them (DraftRecord). Absent: a half.
   */
  readonly verifyRowCost?: number;
  /** Start a generation session. Sessions of one engine may be serialized by the engine. */
  createSession(options?: SessionOptions): Promise<EngineSession>;
  /** Release native resources; every later call throws ENGINE_DISPOSED. */
  dispose(): Promise<void>;
}

/** Options for a new session: its sampling and an abort signal. */
export interface SessionOptions {
  readonly sampling?: SamplingOptions;
  readonly signal?: AbortSignal;
}

/** One decoding context of an engine: feed tokens, read logits, sample under a mask, roll back. */
export interface EngineSession {
  /** Feed tokens (the prompt, or forced tokens) in one batch; the next `sample` conditions on them. */
  feed(ids: readonly number[]): Promise<void>;
  /** Choose the next token among the ids whose bit is set in `mask` (length ceil(width / 32)). */
  sample(mask: Uint32Array): Promise<number>;
  /** Drop the last `n` fed/sampled tokens from the context (KV cache), if supported. */
  rollback?(n: number): Promise<void>;
  /**
   * Speculative verification, for engines that score several positions in one forward pass:
   * feeds `ids` in one batch and keeps the next-token logits after the ids at the indices `rows`
   * (increasing, within 0..ids.length - 1, at least one); the others cost no output-layer row.
   * Rejected ids are dropped afterwards with `rollback`.
   */
  feedRows?(ids: readonly number[], rows: readonly number[]): Promise<void>;
  /**
   * Chooses from row `row` (0 = the first of the last `feedRows`' rows) as `sample` does from the
   * last position, drawing from the same random stream: one choice per row, in row order.
   */
  sampleRow?(row: number, mask: Uint32Array): Promise<number>;
  /**
   * `feed(ids)` then `sample(mask)` in one engine call, for engines that can draw right after the
   * forward pass without returning to JS in between. `fillMask` is called once, while the forward
   * pass runs, and writes the mask; the mask must not change until the promise settles.
   */
  feedAndSample?(ids: readonly number[], mask: Uint32Array, fillMask: () => void): Promise<number>;
  /** End the session and free its context; idempotent. */
  close(): Promise<void>;
}
