/**
 * Extraction of a document longer than one chunk: split it (chunker.ts), extract every chunk with
 * the ordinary single-text path, on as many lanes (engines) as lanes.ts is given, run further
 * passes over the chunks that found nothing for some top-level field, merge (merge.ts), then
 * validate the merged value against the schema, so the result means what a single extraction's
 * result means (`ok`, `data`, `fields`, `issues`). The merge sees the chunks in document order (a
 * chunk's passes in order), whatever lane finished first: one lane or several, the same result.
 */
import type { SamplingOptions } from "../../engines/index.js";
import { PocketExtractError } from "../../errors.js";
import type { JsonSchema } from "../../schema/index.js";
import { validate, type ZodLike } from "../../validate/index.js";
import type { ExtractResult, ExtractStats, FieldResult } from "../types.js";
import { splitIntoChunks, type Chunk } from "./chunker.js";
import { runOnLanes, type Lanes } from "./lanes.js";
import { mergeChunkOutcomes, type MergedOutcome } from "./merge.js";

export interface ChunkedRun<T, L> {
  readonly text: string;
  /** Largest chunk, in characters (UTF-16 code units). */
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly passes: number;
  readonly jsonSchema: JsonSchema;
  readonly zod?: ZodLike<T>;
  /** Where the chunks run: the run's own lane, and idle ones it may borrow for a chunk. */
  readonly lanes: Lanes<L>;
  readonly signal?: AbortSignal;
  /** Extracts one chunk's text as a document of its own on `lane`; `pass` 0 is the first pass. */
  readonly extractChunk: (text: string, pass: number, lane: L, signal: AbortSignal) => Promise<ExtractResult<unknown>>;
  /** Called each time more leading chunks are settled (see SettledChunks). */
  readonly onSettled?: (settled: SettledChunks) => void;
}

/**
 * The merge of the leading chunks that no later pass will re-read: its arrays only grow as more
 * chunks settle (their items keep their index and report), its other values may still change.
 */
export interface SettledChunks {
  readonly merged: MergedOutcome;
  /** The settled chunks' outputs, one line per chunk and pass: a prefix of the result's `raw`. */
  readonly raw: string;
  readonly settled: number;
  readonly chunks: number;
}

export async function extractInChunks<T, L>(run: ChunkedRun<T, L>): Promise<ExtractResult<T>> {
  const started = performance.now();
  const chunks = splitIntoChunks(run.text, run.chunkSize, run.chunkOverlap);
  /** Each chunk's extractions, in pass order. */
  const runs: ExtractResult<unknown>[][] = chunks.map(() => []);
  const watch = run.onSettled && settleWatcher(chunks, runs, run.passes, run.onSettled);
  for (let pass = 0; pass < run.passes; pass++) {
    const todo = pass === 0 ? chunks.map((_, index) => index) : chunks.flatMap((_, index) => (hasGap(runs[index]!) ? [index] : []));
    if (todo.length === 0) break;
    await runOnLanes({
      jobs: todo,
      lanes: run.lanes,
      signal: run.signal,
      run: (index, lane, signal) => extractChunk(run, chunks[index]!, pass, lane, signal),
      onDone: (at, result) => {
        runs[todo[at]!]!.push(result);
        watch?.();
      },
    });
  }
  const merged = mergeRuns(chunks, runs, chunks.length);
  const checked = validate(merged.value, run.jsonSchema, run.zod);
  const invalidAt = new Set(checked.issues.map((i) => i.pointer));
  const fields: FieldResult[] = merged.fields.map((f) =>
    invalidAt.has(f.pointer) || (f.required && (f.value === null || f.value === undefined)) ? { ...f, status: "invalid" } : f,
  );
  const results = runs.flat();
  const stats = sumStats(results, chunks.length, performance.now() - started);
  const parts = {
    grounded: !fields.some((f) => f.status === "fabricated"),
    partial: merged.value,
    fields,
    issues: [...checked.issues, ...merged.conflicts],
    raw: results.map((r) => r.raw).join("\n"),
    stats,
  };
  const ok = checked.ok && !stats.cutShort && !fields.some((f) => f.status === "invalid");
  return ok ? { ...parts, ok: true, data: checked.data as T } : { ...parts, ok: false, data: null };
}

/** Sampling of a later pass: resampled like a retry (temperature 0.7 unless set, a new seed). */
export function passSampling(sampling: SamplingOptions | undefined, pass: number): SamplingOptions | undefined {
  return pass === 0 ? sampling : { temperature: 0.7, ...sampling, seed: (sampling?.seed ?? 0) + pass };
}

/** The merge of the first `count` chunks' extractions, in document order, a chunk's passes in order. */
function mergeRuns(chunks: readonly Chunk[], runs: readonly (readonly ExtractResult<unknown>[])[], count: number): MergedOutcome {
  return mergeChunkOutcomes(
    chunks.slice(0, count).flatMap((chunk, index) => runs[index]!.map((r) => ({ start: chunk.start, value: r.partial, fields: r.fields }))),
  );
}

/** Reports the merge of the leading settled chunks each time it grows: a chunk is settled when it
 *  has run every pass, or when no later pass will re-read it (it has no gap). */
function settleWatcher(chunks: readonly Chunk[], runs: readonly (readonly ExtractResult<unknown>[])[], passes: number, report: (s: SettledChunks) => void): () => void {
  let settled = 0;
  const isSettled = (index: number): boolean => {
    const own = runs[index]!;
    return own.length === passes || (own.length > 0 && !hasGap(own));
  };
  return () => {
    const before = settled;
    while (settled < chunks.length && isSettled(settled)) settled++;
    if (settled === before) return;
    const raw = runs.slice(0, settled).flat().map((r) => r.raw).join("\n");
    report({ merged: mergeRuns(chunks, runs, settled), raw, settled, chunks: chunks.length });
  };
}

async function extractChunk<T, L>(run: ChunkedRun<T, L>, chunk: Chunk, pass: number, lane: L, signal: AbortSignal): Promise<ExtractResult<unknown>> {
  try {
    return await run.extractChunk(chunk.text, pass, lane, signal);
  } catch (error) {
    if (error instanceof PocketExtractError && error.code === "TEXT_TOO_LONG") {
      throw new PocketExtractError(
        "TEXT_TOO_LONG",
        `a chunk of ${chunk.text.length} characters (at ${chunk.start}) does not fit the model (${error.message.replace(/; shorten the text.*$/, "")}); lower chunkSize or maxTokens`,
      );
    }
    throw error;
  }
}

/** None of a chunk's extractions so far found anything for some top-level field. */
function hasGap(runs: readonly ExtractResult<unknown>[]): boolean {
  const gaps = runs.map((r) => new Set(r.fields.filter((f) => f.path.length === 1 && foundNothing(f)).map((f) => f.pointer)));
  return gaps.length > 0 && [...gaps[0]!].some((pointer) => gaps.every((g) => g.has(pointer)));
}

function foundNothing(f: FieldResult): boolean {
  return f.status === "missing" || (f.status === "invalid" && (f.value === null || f.value === undefined));
}

/** Totals of the chunks' generations; `totalMs` is the whole run's wall time. */
function sumStats(results: readonly ExtractResult<unknown>[], chunks: number, totalMs: number): ExtractStats {
  const sum = (pick: (s: ExtractStats) => number): number => results.reduce((n, r) => n + pick(r.stats), 0);
  const first = results[0]!.stats;
  return {
    tokensSampled: sum((s) => s.tokensSampled),
    tokensForced: sum((s) => s.tokensForced),
    tokensCompleted: sum((s) => s.tokensCompleted),
    tokensDrafted: sum((s) => s.tokensDrafted),
    tokensAccepted: sum((s) => s.tokensAccepted),
    forwardPasses: sum((s) => s.forwardPasses),
    maskMs: sum((s) => s.maskMs),
    engineMs: sum((s) => s.engineMs),
    totalMs,
    timeToFirstTokenMs: first.timeToFirstTokenMs,
    stopReason: results.find((r) => r.stats.stopReason === "budget")?.stats.stopReason ?? first.stopReason,
    promptTokens: sum((s) => s.promptTokens),
    compileMs: sum((s) => s.compileMs),
    cutShort: results.some((r) => r.stats.cutShort),
    attempts: sum((s) => s.attempts),
    chunks,
  };
}
