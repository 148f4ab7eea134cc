/**
 * ExtractorPool: N extractors (each with its own engine), one request per extractor at a time, and
 * a bounded wait queue in front of them. The HTTP service and the queue workers both take leases
 * from it; it knows nothing about either. A full wait queue refuses at once (`PoolFullError`), so a
 * caller can answer "try later" instead of piling up requests; a waiter whose signal aborts leaves
 * the queue. Compiled grammars are shared across extractors by the process-wide compile cache
 * (keyed by schema, options and vocabulary fingerprint), so N engines of one model compile once.
 *
 * A long document (`chunkSize`) spreads over the engines: its request holds one extractor, and
 * each of its chunks that waits borrows an idle one for that chunk (Extractor.shareChunksWith),
 * so it uses the engines no request is waiting for, and a request that arrives waits at most one
 * chunk for the engine it gets.
 */
import { runBatch } from "../extract/index.js";
import type { BatchInput, BatchOptions, BatchResult, ExtractOptions, ExtractResult, Extractor, ExtractorLoan, InferOutput } from "../extract/index.js";
import { PocketExtractError } from "../errors.js";

export { isDocumentFault } from "./failure.js";

/** The wait queue is full: the caller should retry after `retryAfterSeconds`. */
export class PoolFullError extends PocketExtractError {
  constructor(
    readonly waiting: number,
    readonly retryAfterSeconds: number,
  ) {
    super("POOL_FULL", `all engines are busy and ${waiting} request(s) are already waiting; retry in ${retryAfterSeconds} s`);
  }
}

/** How many requests an ExtractorPool lets wait for an extractor. */
export interface PoolOptions {
  /** Requests allowed to wait for a free extractor (default: 4 per extractor). 0 = no waiting. */
  readonly maxWaiting?: number;
}

interface Waiter {
  readonly resolve: (extractor: Extractor) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * N extractors (one engine each) serving one request each at a time, behind a bounded wait queue;
 * `extract` runs a document on one of them, a long document's chunks on all that are idle.
 */
export class ExtractorPool {
  private readonly idle: Extractor[];
  private readonly waiters: Waiter[] = [];
  private readonly maxWaiting: number;
  /** Mean time an extractor was held, for Retry-After (exponential average, ms). */
  private meanHoldMs = 1000;

  constructor(
    readonly extractors: readonly Extractor[],
    options: PoolOptions = {},
  ) {
    if (extractors.length === 0) throw new RangeError("an ExtractorPool needs at least one extractor");
    this.idle = [...extractors];
    this.maxWaiting = options.maxWaiting ?? 4 * extractors.length;
    for (const extractor of extractors) extractor.shareChunksWith((borrower) => this.lend(borrower));
  }

  get size(): number {
    return this.extractors.length;
  }

  /** Extractors running a request now. */
  get busy(): number {
    return this.extractors.length - this.idle.length;
  }

  /** Requests waiting for an extractor. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Runs `work` with an extractor of its own; waits (bounded) when all are busy. Throws
   * `PoolFullError` when the wait queue is full, or the signal's reason when it aborts while waiting.
   */
  async use<T>(work: (extractor: Extractor) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const extractor = await this.acquire(signal);
    const started = performance.now();
    try {
      return await work(extractor);
    } finally {
      this.meanHoldMs = 0.8 * this.meanHoldMs + 0.2 * (performance.now() - started);
      this.release(extractor);
    }
  }

  /**
   * Extracts one document on an extractor of the pool (waiting, bounded, when all are busy); a
   * long document's chunks also run on the extractors that are idle meanwhile. The same result as
   * `extract` on one extractor; `options.signal` stops every engine at work on it.
   */
  extract<S>(schema: S, text: string, options: ExtractOptions = {}): Promise<ExtractResult<InferOutput<S>>> {
    return this.use((extractor) => extractor.extract(schema, text, options), options.signal);
  }

  /**
   * Extracts many documents, each as `extract` does (on a free extractor, a long one on the idle
   * ones too); results arrive in completion order, tagged with id and index, as from
   * `Extractor.extractMany`. `concurrency` (default: the pool's size) documents are in flight at
   * once; more than the pool's size plus its wait queue would be refused (POOL_FULL error entries).
   */
  extractMany<S>(schema: S, inputs: Iterable<BatchInput | string> | AsyncIterable<BatchInput | string>, options: BatchOptions = {}): AsyncGenerator<BatchResult<InferOutput<S>>> {
    const { concurrency: _concurrency, ...extractOptions } = options;
    return runBatch({
      inputs,
      options,
      defaultConcurrency: this.size,
      compile: () => this.extractors[0]!.compile(schema, options),
      extractOne: (text, signal) => this.extract(schema, text, { ...extractOptions, signal }),
    });
  }

  /** Seconds a refused caller should wait: the queue ahead of it drained at the recent pace. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(((this.waiters.length + 1) * this.meanHoldMs) / this.extractors.length / 1000));
  }

  async dispose(): Promise<void> {
    for (const w of this.waiters.splice(0)) w.reject(new PocketExtractError("ENGINE_DISPOSED", "the extractor pool was disposed"));
    await Promise.all(this.extractors.map((e) => e.dispose()));
  }

  /** An idle extractor for one chunk of `borrower`'s document; none while requests wait for one. */
  private lend(borrower: Extractor): ExtractorLoan | undefined {
    const extractor = [...this.idle].reverse().find((e) => e !== borrower);
    if (!extractor) return undefined;
    this.idle.splice(this.idle.indexOf(extractor), 1);
    return { extractor, release: () => this.release(extractor) };
  }

  private acquire(signal: AbortSignal | undefined): Promise<Extractor> {
    signal?.throwIfAborted();
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    if (this.waiters.length >= this.maxWaiting) return Promise.reject(new PoolFullError(this.waiters.length, this.retryAfterSeconds()));
    return new Promise<Extractor>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at !== -1) this.waiters.splice(at, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        resolve: (extractor) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(extractor);
        },
        reject,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(extractor: Extractor): void {
    const next = this.waiters.shift();
    if (next) next.resolve(extractor);
    else this.idle.push(extractor);
  }
}
