/**
 * A batch of documents with bounded concurrency: results arrive in completion order, tagged with
 * their input's id and index; a document that fails is an error entry, never the end of the
 * batch. Leaving the loop early aborts the documents in flight, and the loop is left only once
 * they stopped (the engines are free then). Shared by `Extractor.extractMany` and
 * `ExtractorPool.extractMany`, which differ only in where one document runs.
 */
import { asPocketExtractError, PocketExtractError } from "../errors.js";
import { linkedAbort } from "./linked-abort.js";
import { checkExtractOptions } from "./options.js";
import type { BatchInput, BatchOptions, BatchResult, ExtractResult } from "./types.js";

/** Extracts one document of the batch; `signal` aborts when the batch stops. */
export type ExtractOne<T> = (text: string, signal: AbortSignal) => Promise<ExtractResult<T>>;

export interface Batch<T> {
  readonly inputs: Iterable<BatchInput | string> | AsyncIterable<BatchInput | string>;
  readonly options: BatchOptions;
  /** Documents in flight when `options.concurrency` is unset. */
  readonly defaultConcurrency: number;
  /** Compiles the schema: a bad one fails the batch before any document. */
  readonly compile: () => void;
  readonly extractOne: ExtractOne<T>;
}

/** Options are checked and the schema compiled when the batch is first read. */
export async function* runBatch<T>(batch: Batch<T>): AsyncGenerator<BatchResult<T>> {
  checkExtractOptions(batch.options);
  batch.compile();
  const concurrency = batch.options.concurrency ?? batch.defaultConcurrency;
  const stop = linkedAbort(batch.options.signal);
  const source = toAsyncIterator(batch.inputs);
  type Done = { kind: "done"; key: number; out: BatchResult<T> };
  type Input = { kind: "input"; next: IteratorResult<BatchInput | string> };
  const inFlight = new Map<number, Promise<Done>>();
  let pendingInput: Promise<Input> | undefined;
  let exhausted = false;
  let index = 0;
  // Race finished documents against the next input, so a slow input (a live pipe) never holds
  // back results that are already done.
  try {
    while (!exhausted || inFlight.size > 0) {
      if (!exhausted && !pendingInput && inFlight.size < concurrency && !stop.signal.aborted) {
        pendingInput = source.next().then((next) => ({ kind: "input", next }));
      }
      const racers: Promise<Done | Input>[] = [...inFlight.values()];
      if (pendingInput) racers.push(pendingInput);
      if (racers.length === 0) break;
      const first = await Promise.race(racers);
      if (first.kind === "done") {
        inFlight.delete(first.key);
        yield first.out;
        continue;
      }
      pendingInput = undefined;
      if (first.next.done) {
        exhausted = true;
        continue;
      }
      const input = typeof first.next.value === "string" ? { text: first.next.value } : first.next.value;
      const key = index++;
      const id = input.id ?? key;
      inFlight.set(
        key,
        batch.extractOne(input.text, stop.signal).then(
          (result): Done => ({ kind: "done", key, out: { id, index: key, result } }),
          (error: unknown): Done => ({ kind: "done", key, out: { id, index: key, error: asPocketExtractError(error) } }),
        ),
      );
    }
  } finally {
    if (inFlight.size > 0) {
      stop.abort(new PocketExtractError("ABORTED", "the batch's reader stopped reading"));
      await Promise.all(inFlight.values());
    }
    stop.release();
  }
}

function toAsyncIterator<T>(source: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]();
  const it = source[Symbol.iterator]();
  return { next: async () => it.next() };
}
