/**
 * Extraction of a document longer than one chunk: split it (chunker.ts), extract every chunk with
 * the ordinary single-text path, run further passes over the chunks that found nothing for some
 * top-level field, merge (merge.ts), then validate the merged value against the schema, so the
 * result means what a single extraction's result means (`ok`, `data`, `fields`, `issues`).
 */
import type { SamplingOptions } from "../../engines/index.js";
import { PocketExtractError } from "../../errors.js";
import type { JsonSchema } from "../../schema/index.js";
import { validate, type ZodLike } from "../../validate/index.js";
import type { ExtractResult, ExtractStats, FieldResult } from "../types.js";
import { splitIntoChunks, type Chunk } from "./chunker.js";
import { mergeChunkOutcomes } from "./merge.js";

export interface ChunkedRun<T> {
  readonly text: string;
  /** Largest chunk, in characters (UTF-16 code units). */
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly passes: number;
  readonly jsonSchema: JsonSchema;
  readonly zod?: ZodLike<T>;
  /** Extracts one chunk's text as a document of its own; `pass` 0 is the first pass. */
  readonly extractChunk: (text: string, pass: number) => Promise<ExtractResult<unknown>>;
}

interface ChunkExtraction {
  readonly chunk: Chunk;
  readonly index: number;
  readonly result: ExtractResult<unknown>;
}

export async function extractInChunks<T>(run: ChunkedRun<T>): Promise<ExtractResult<T>> {
  const started = performance.now();
  const chunks = splitIntoChunks(run.text, run.chunkSize, run.chunkOverlap);
  const done: ChunkExtraction[] = [];
  for (let pass = 0; pass < run.passes; pass++) {
    const todo = pass === 0 ? chunks.map((chunk, index) => ({ chunk, index })) : chunksWithGaps(done);
    for (const { chunk, index } of todo) done.push({ chunk, index, result: await extractChunk(run, chunk, pass) });
  }
  // Document order; a chunk's first pass before its later ones (the first wins ties).
  const ordered = done.map((d, order) => ({ ...d, order })).sort((a, b) => a.index - b.index || a.order - b.order);
  const merged = mergeChunkOutcomes(ordered.map((d) => ({ start: d.chunk.start, value: d.result.partial, fields: d.result.fields })));
  const checked = validate(merged.value, run.jsonSchema, run.zod);
  const invalidAt = new Set(checked.issues.map((i) => i.pointer));
  const fields: FieldResult[] = merged.fields.map((f) =>
    invalidAt.has(f.pointer) || (f.required && (f.value === null || f.value === undefined)) ? { ...f, status: "invalid" } : f,
  );
  const results = ordered.map((d) => d.result);
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

async function extractChunk<T>(run: ChunkedRun<T>, chunk: Chunk, pass: number): Promise<ExtractResult<unknown>> {
  try {
    return await run.extractChunk(chunk.text, pass);
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

/** Chunks none of whose extractions so far found anything for some top-level field. */
function chunksWithGaps(done: readonly ChunkExtraction[]): { chunk: Chunk; index: number }[] {
  const byChunk = new Map<number, ChunkExtraction[]>();
  for (const d of done) byChunk.set(d.index, [...(byChunk.get(d.index) ?? []), d]);
  return [...byChunk.values()]
    .filter((runs) => {
      const gaps = runs.map((r) => new Set(r.result.fields.filter((f) => f.path.length === 1 && foundNothing(f)).map((f) => f.pointer)));
      return [...gaps[0]!].some((pointer) => gaps.every((g) => g.has(pointer)));
    })
    .map((runs) => ({ chunk: runs[0]!.chunk, index: runs[0]!.index }));
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
