/**
 * What `extractor.stream()` returns: one extraction read while it decodes, shaped like the AI
 * SDK's `streamObject` result. Iterate it for every event (partials, elements, the result), or
 * read only `partialObjectStream` or `elementStream`; `result` is the final ExtractResult.
 *
 * One reader: the events are produced once, so the stream is read through one of its views, once
 * (a second read throws instead of silently seeing nothing). Decoding starts when it is first
 * read or `result` is asked for. When the reader stops early (`break`, `return()`), decoding
 * stops before its next token, and `return()` resolves once the engine is free for the next
 * request; `result` then rejects with ABORTED, as it does when the caller's `signal` aborts.
 */
import { PocketExtractError } from "../errors.js";
import { linkedAbort, type LinkedAbort } from "./linked-abort.js";
import type { DeepPartial, ElementOf, ExtractResult, StreamElement, StreamEvent } from "./types.js";

/** Where a stream's producer delivers what it decodes. */
export interface StreamSink<T, E> {
  /** Aborts when the reader stopped or the caller's signal aborted. */
  readonly signal: AbortSignal;
  emit(events: readonly StreamEvent<T, E>[]): void;
  /** Whether this extraction has an array whose elements are reported. */
  announceElements(available: boolean): void;
}

/** Runs the extraction, delivering its progress to the sink; resolves with its result. */
export type StreamSource<T, E> = (sink: StreamSink<T, E>) => Promise<ExtractResult<T>>;

/** One extraction read while it decodes (see the file comment): events, `partialObjectStream`, `elementStream`, `result`. */
export class ExtractStream<T, E = ElementOf<T>> implements AsyncIterable<StreamEvent<T, E>> {
  private readonly queue: StreamEvent<T, E>[] = [];
  private wake: (() => void) | undefined;
  /** Settles (never rejects) once the source is done and the engine released. */
  private running: Promise<void> | undefined;
  private abort: LinkedAbort | undefined;
  private finished = false;
  private failure: { readonly error: unknown } | undefined;
  private read = false;
  private elementsAvailable: boolean | undefined;
  private readonly outcome: Promise<ExtractResult<T>>;
  private settle!: { resolve(r: ExtractResult<T>): void; reject(e: unknown): void };

  constructor(
    private readonly source: StreamSource<T, E>,
    private readonly signal?: AbortSignal,
  ) {
    this.outcome = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Rejections reach whoever awaits `result` or reads the stream; no one else has to.
    this.outcome.catch(() => undefined);
  }

  /** The final result, the same `extract()` gives (like the AI SDK's `object`, but it does not
   *  reject on an invalid output: check `ok`). Rejects on errors and cancellation. */
  get result(): Promise<ExtractResult<T>> {
    this.start();
    return this.outcome;
  }

  /** The partial values only (each differs from the one before). */
  get partialObjectStream(): AsyncIterable<DeepPartial<T>> {
    return { [Symbol.asyncIterator]: () => this.reader((e) => (e.type === "partial" ? { value: e.partial } : undefined)) };
  }

  /** Each element of the streamed array once, when complete, with its report. Throws
   *  OPTION_INVALID when the schema has no such array (a root array, or `elements`). */
  get elementStream(): AsyncIterable<StreamElement<E>> {
    return { [Symbol.asyncIterator]: () => this.reader((e) => (e.type === "element" ? { value: e.element as StreamElement<E> } : undefined), true) };
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent<T, E>> {
    return this.reader((e) => ({ value: e }));
  }

  private reader<V>(pick: (e: StreamEvent<T, E>) => { readonly value: V } | undefined, elements = false): AsyncIterator<V> {
    if (this.read) throw new PocketExtractError("OPTION_INVALID", "an extraction stream is read once, by one reader: iterate the stream itself and switch on event.type to see partials and elements together");
    this.read = true;
    return {
      next: async (): Promise<IteratorResult<V>> => {
        this.start();
        for (;;) {
          if (elements && this.elementsAvailable === false) {
            await this.stop();
            throw new PocketExtractError("OPTION_INVALID", "elementStream needs an array to stream: a schema whose root is an array, or the `elements` option naming a top-level array property");
          }
          const e = this.queue.shift();
          if (e !== undefined) {
            const picked = pick(e);
            if (picked) return { value: picked.value, done: false };
            continue;
          }
          if (this.finished) {
            const failure = this.failure;
            this.failure = undefined;
            if (failure) throw failure.error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      },
      return: async (): Promise<IteratorResult<V>> => {
        await this.stop();
        return { value: undefined, done: true };
      },
    };
  }

  private start(): void {
    if (this.running) return;
    const abort = (this.abort = linkedAbort(this.signal));
    const sink: StreamSink<T, E> = {
      signal: abort.signal,
      emit: (events) => {
        this.queue.push(...events);
        this.notify();
      },
      announceElements: (available) => {
        this.elementsAvailable = available;
        this.notify();
      },
    };
    this.running = Promise.resolve()
      .then(() => this.source(sink))
      .then(
        (result) => {
          this.queue.push({ type: "result", result });
          this.settle.resolve(result);
        },
        (error: unknown) => {
          this.failure = { error };
          this.settle.reject(error);
        },
      )
      .finally(() => {
        this.finished = true;
        abort.release();
        this.notify();
      });
  }

  /** Stops decoding (if it still runs) and resolves once the engine is released. */
  private async stop(): Promise<void> {
    this.queue.length = 0;
    if (!this.running) return;
    if (!this.finished) this.abort?.abort(new PocketExtractError("ABORTED", "the stream's reader stopped reading"));
    await this.running;
    this.failure = undefined;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
