/**
 * `fakeExtractor`: an object with the Extractor's methods and types (`extract`, `extractMany`,
 * `stream`, `dispose`) that answers from a user's table or from `arbitraryResult`, for unit tests
 * of app code without a model. Plain values in the table are turned into full results by the
 * extractor's own verification (statuses, spans, ok/data), after checking that the grammar could
 * have produced them, so a fixture the model could never emit fails loudly instead of passing.
 * Options are checked as `extract` checks them, but the long-document options (`chunkSize`,
 * `chunkOverlap`, `passes`) do not chunk: answers are keyed by the whole text and a merged result
 * has the shape of a single one. Chunking and merging are tested with the real extractor on a
 * test engine (ScriptedEngine), as test/extract/long-document.test.ts does.
 */
import { sample } from "fast-check";
import { asPocketExtractError, PocketExtractError } from "../errors.js";
import {
  ExtractStream,
  checkExtractOptions,
  checkText,
  watchProgress,
  type ArrayKeyOf,
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  type ElementOf,
  type ExtractOptions,
  type ExtractResult,
  type Extractor,
  type InferOutput,
  type StreamOptions,
} from "../extract/index.js";
import { arbitraryResult } from "./arbitrary-result.js";
import { inSchemaOrder } from "./key-order.js";
import { buildResult } from "./result.js";
import { schemaSource } from "./source.js";
import { plausibleStats } from "./stats.js";

/** A full result, or the JSON value the model "wrote" (null escapes allowed); undefined: no answer. */
export type FakeAnswer = ExtractResult<unknown> | unknown;

/** How a fakeExtractor answers: by document text, else arbitrary results drawn deterministically. */
export interface FakeExtractorOptions {
  /** Answers by document text: a map, or a function (may be async). */
  readonly results?: ReadonlyMap<string, FakeAnswer> | ((text: string) => FakeAnswer | Promise<FakeAnswer>);
  /** Texts without an answer get `arbitraryResult(schema, text)`, drawn deterministically from
   *  the seed and the text (same text, same result). Without it such texts throw. */
  readonly arbitrary?: boolean | { readonly seed?: number };
}

/** One call a fakeExtractor received: schema, text and options. */
export interface FakeCall {
  readonly schema: unknown;
  readonly text: string;
  readonly options: ExtractOptions;
}

/** What fakeExtractor returns: the Extractor methods app code calls, plus the calls it received. */
export type FakeExtractor = Pick<Extractor, "extract" | "extractMany" | "stream" | "dispose"> & {
  /** Every extract/stream call (and each document of extractMany), in call order. */
  readonly calls: readonly FakeCall[];
};

const encoder = new TextEncoder();
/** Characters per streamed partial: about one token of output. */
const STREAM_CHUNK = 3;

/**
 * A stand-in for an Extractor with the same methods: answers from a map or function, or arbitrary
 * results, and records its calls.
 */
export function fakeExtractor(options: FakeExtractorOptions = {}): FakeExtractor {
  const calls: FakeCall[] = [];
  let disposed = false;

  const answer = async <S>(schema: S, text: string, opts: ExtractOptions): Promise<ExtractResult<InferOutput<S>>> => {
    if (disposed) throw new PocketExtractError("ENGINE_DISPOSED", "this extractor was disposed");
    if (opts.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted");
    checkExtractOptions(opts);
    checkText(text);
    calls.push({ schema, text, options: opts });
    const given = typeof options.results === "function" ? await options.results(text) : options.results?.get(text);
    if (given !== undefined) return asResult<S>(schema, text, given, opts);
    if (options.arbitrary === undefined || options.arbitrary === false) {
      throw new PocketExtractError("OPTION_INVALID", `fakeExtractor has no result for the text ${JSON.stringify(text.slice(0, 60))} (give it in \`results\` or set \`arbitrary\`)`);
    }
    const seed = (typeof options.arbitrary === "object" ? (options.arbitrary.seed ?? 0) : 0) ^ hash(text);
    const arb = arbitraryResult(schema, text, { defaultMaxStringLength: opts.defaultMaxStringLength });
    return sample(arb, { seed, numRuns: 1 })[0]!;
  };

  async function* extractMany<S>(
    schema: S,
    inputs: Iterable<BatchInput | string> | AsyncIterable<BatchInput | string>,
    opts: BatchOptions = {},
  ): AsyncGenerator<BatchResult<InferOutput<S>>> {
    checkExtractOptions(opts);
    let index = 0;
    for await (const input of inputs) {
      const { text, id } = typeof input === "string" ? { text: input, id: undefined } : input;
      const i = index++;
      try {
        yield { id: id ?? i, index: i, result: await answer(schema, text, opts) };
      } catch (error) {
        yield { id: id ?? i, index: i, error: asPocketExtractError(error) };
      }
    }
  }

  /** The real stream's events (extract-stream.ts, stream-progress.ts) over the answer's raw
   *  output, written a few characters at a time. */
  function stream<S, K extends ArrayKeyOf<InferOutput<S>> = never>(
    schema: S,
    text: string,
    opts: StreamOptions<K> = {},
  ): ExtractStream<InferOutput<S>, ElementOf<InferOutput<S>, K>> {
    const { elements, ...extractOptions } = opts;
    return new ExtractStream(async (sink) => {
      const result = await answer(schema, text, { ...extractOptions, signal: sink.signal });
      const { jsonSchema } = schemaSource(schema, { escapes: true, defaultMaxStringLength: opts.defaultMaxStringLength });
      const write = watchProgress({ text, elements, sink })({ number: 1, jsonSchema, grounding: { language: opts.language, ...opts.grounding } });
      const chars = [...result.raw];
      for (let end = STREAM_CHUNK; end < chars.length + STREAM_CHUNK; end += STREAM_CHUNK) {
        if (sink.signal.aborted) throw new PocketExtractError("ABORTED", "generation aborted", { cause: sink.signal.reason });
        write(encoder.encode(chars.slice(0, end).join("")));
      }
      return result;
    }, opts.signal);
  }

  return {
    calls,
    extract: (schema, text, opts = {}) => answer(schema, text, opts),
    extractMany,
    stream,
    dispose: async () => {
      disposed = true;
    },
  };
}

function isExtractResult(v: unknown): v is ExtractResult<unknown> {
  return typeof v === "object" && v !== null && "ok" in v && "fields" in v && "raw" in v && "stats" in v;
}

/** A table entry as the result `extract()` would give: full results pass through unchanged. */
function asResult<S>(schema: S, text: string, given: FakeAnswer, opts: ExtractOptions): ExtractResult<InferOutput<S>> {
  if (isExtractResult(given)) return given as ExtractResult<InferOutput<S>>;
  const source = schemaSource(schema, { escapes: true, defaultMaxStringLength: opts.defaultMaxStringLength });
  const raw = JSON.stringify(inSchemaOrder(given, source.jsonSchema, source.jsonSchema));
  const bytes = encoder.encode(raw ?? "");
  if (raw === undefined || !source.walker.accepts(bytes)) {
    throw new PocketExtractError(
      "OPTION_INVALID",
      `fakeExtractor: ${raw ?? String(given)} is not an output the extraction grammar allows for this schema (check types, enums, bounds, patterns and undeclared keys; null stands for a missing value)`,
    );
  }
  const stats = plausibleStats({
    rawBytes: bytes.length,
    textLength: text.length,
    stopReason: source.walker.isClosed(bytes) ? "closed" : "eos",
    completedBytes: 0,
    forcedPercent: 40,
    msPerToken: 15,
  });
  return buildResult<InferOutput<S>>(source, { raw, text, stats });
}

/** FNV-1a of the text: a stable per-text offset to the seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
