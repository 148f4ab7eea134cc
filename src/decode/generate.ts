/**
 * The constrained decode loop, engine-agnostic: mask -> sample -> accept, with jump-forward of
 * grammar-forced tokens (fed to the engine in one batch with the sampled token, never sampled),
 * eos only where the document is complete, cancellation, and budget-aware completion: if taking a
 * sampled token would leave too few tokens to finish the document within `maxTokens`, the token is
 * withdrawn and the shortest completion is appended instead, so the output is always complete.
 */
import { PocketExtractError } from "../errors.js";
import type { EngineSession } from "../engines/engine.js";
import type { TokenGrammar } from "../mask/token-grammar.js";

export interface GenerateOptions {
  /** Most output tokens (sampled + forced; the end-of-generation token is not counted). Default 512. */
  readonly maxTokens?: number;
  /** Use grammar-forced tokens without sampling (default true). */
  readonly jumpForward?: boolean;
  readonly signal?: AbortSignal;
  /** Called after every accepted step with all output bytes so far (for streaming). */
  readonly onProgress?: (output: Uint8Array) => void;
}

export type StopReason = "eos" | "closed" | "budget";

export interface GenerateStats {
  readonly tokensSampled: number;
  readonly tokensForced: number;
  /** Tokens appended by budget-aware completion. */
  readonly tokensCompleted: number;
  readonly maskMs: number;
  readonly engineMs: number;
  readonly totalMs: number;
  /** Time from the start (prefill included) to the first sampled token. */
  readonly timeToFirstTokenMs: number | undefined;
  readonly stopReason: StopReason;
}

export interface GenerateResult {
  readonly tokens: readonly number[];
  /** The exact output bytes (UTF-8 JSON text). */
  readonly bytes: Uint8Array;
  readonly text: string;
  /** Byte offset where budget-aware completion took over, if it did. */
  readonly cutAt: number | undefined;
  readonly stats: GenerateStats;
}

export const DEFAULT_MAX_TOKENS = 512;

export async function generate(
  session: EngineSession,
  grammar: TokenGrammar,
  promptIds: readonly number[],
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const matcher = grammar.matcher();
  const minimum = matcher.remainingMinimum();
  if (!Number.isInteger(maxTokens) || maxTokens < minimum) {
    throw new PocketExtractError(
      "OPTION_INVALID",
      `maxTokens ${maxTokens} is too small: the shortest document this schema allows takes ${minimum} tokens`,
    );
  }
  const started = performance.now();
  const mask = new Uint32Array(grammar.maskWords);
  const tokens: number[] = [];
  const output = new ByteSink();
  let toFeed: number[] = [];
  let sampled = 0;
  let forced = 0;
  let completed = 0;
  let maskMs = 0;
  let engineMs = 0;
  let firstTokenAt: number | undefined;
  let cutAt: number | undefined;
  let stopReason: StopReason = "closed";

  const take = (ids: readonly number[]): void => {
    for (const id of ids) {
      tokens.push(id);
      output.push(grammar.vocabulary.bytes(id));
    }
    options.onProgress?.(output.view());
  };

  // Prefill on its own, so engines can tell the prompt (and reuse its cache) from the output.
  let t0 = performance.now();
  await session.feed(promptIds);
  engineMs += performance.now() - t0;

  for (;;) {
    if (options.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted", { cause: options.signal.reason });
    if (matcher.isClosed()) break;

    if (options.jumpForward !== false) {
      const run = matcher.forced();
      if (run.tokens.length > 0 && tokens.length + run.tokens.length <= maxTokens) {
        const before = matcher.length;
        let ok = true;
        for (const id of run.tokens) ok = ok && matcher.accept(id);
        if (ok && tokens.length + run.tokens.length + matcher.remainingMinimum() <= maxTokens) {
          forced += run.tokens.length;
          toFeed.push(...run.tokens);
          take(run.tokens);
          continue;
        }
        matcher.rollback(matcher.length - before);
      }
    }

    t0 = performance.now();
    matcher.fillMask(mask);
    maskMs += performance.now() - t0;
    t0 = performance.now();
    if (toFeed.length > 0) await session.feed(toFeed);
    toFeed = [];
    const id = await session.sample(mask);
    engineMs += performance.now() - t0;
    firstTokenAt ??= performance.now();

    if (grammar.index.eosIds.includes(id)) {
      if (!matcher.accept(id)) throw engineBrokeMask(id);
      stopReason = "eos";
      break;
    }
    if (!matcher.accept(id)) throw engineBrokeMask(id);
    if (tokens.length + 1 + matcher.remainingMinimum() > maxTokens) {
      // This token would strand the document: withdraw it and finish the shortest way instead.
      matcher.rollback(1);
      const completion = matcher.shortestCompletion();
      for (const c of completion.tokens) matcher.accept(c);
      cutAt = output.length;
      completed = completion.tokens.length;
      take(completion.tokens);
      stopReason = "budget";
      break;
    }
    sampled++;
    toFeed.push(id);
    take([id]);
  }

  const bytes = output.view().slice();
  return {
    tokens,
    bytes,
    text: new TextDecoder().decode(bytes),
    cutAt,
    stats: {
      tokensSampled: sampled,
      tokensForced: forced,
      tokensCompleted: completed,
      maskMs,
      engineMs,
      totalMs: performance.now() - started,
      timeToFirstTokenMs: firstTokenAt === undefined ? undefined : firstTokenAt - started,
      stopReason,
    },
  };
}

function engineBrokeMask(id: number): PocketExtractError {
  return new PocketExtractError("ENGINE_FAILED", `the engine sampled token ${id}, which the mask forbids`);
}

/** Growable byte buffer for the output. */
class ByteSink {
  private buf = new Uint8Array(256);
  length = 0;

  push(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.length + bytes.length));
      bigger.set(this.buf.subarray(0, this.length));
      this.buf = bigger;
    }
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
