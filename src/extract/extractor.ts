/**
 * The Extractor: one loaded engine, its compiled schemas, and the three ways to use them:
 * `extract` (one document), `extractMany` (a batch, with bounded concurrency, results tagged with
 * their input), and `stream` (an ExtractStream: partials, elements, cancellation). It orchestrates the pipeline stages
 * (compile -> prompt -> generate -> resolve escapes -> validate -> ground, again while `retries`
 * allow and the result is not ok: retry.ts) and owns no stage itself.
 */
import { compileGrammar, type CompiledGrammar, type GrammarCacheDir } from "../mask/index.js";
import { DEFAULT_MAX_TOKENS, DraftRecord, generate } from "../decode/index.js";
import type { Engine, SamplingOptions } from "../engines/index.js";
import { PocketExtractError } from "../errors.js";
import { buildPrompt } from "../prompt/index.js";
import { encodeSegments } from "../tokens/index.js";
import { DEFAULT_SCHEMA_LIMITS, ownValidation, type JsonSchema, type SchemaLimits } from "../schema/index.js";
import { DEFAULT_MAX_STRING_LENGTH } from "../schema-compiler/index.js";
import { checkExtractOptions, chunkOverlapOf, DEFAULT_MAX_TEXT_BYTES } from "./options.js";
import { extractInChunks, passSampling } from "./long-document/index.js";
import { checkText, checkTextBytes } from "./text-checks.js";
import { ASYNC_DISPOSE } from "../util/index.js";
import { hasVerbatimFields } from "./verbatim.js";
import { verifyOutput } from "./verify-output.js";
import { ExtractStream } from "./extract-stream.js";
import { runBatch } from "./batch.js";
import { askFor, attemptReport, resampled } from "./retry.js";
import { watchChunks, watchProgress, type AttemptWatcher, type ChunkWatcher } from "./stream-progress.js";
import type {
  ArrayKeyOf,
  AttemptReport,
  BatchInput,
  BatchOptions,
  BatchResult,
  ElementOf,
  ExtractOptions,
  ExtractResult,
  InferOutput,
  StreamOptions,
} from "./types.js";

/** An idle extractor lent for one chunk of a long document; `release` hands it back. */
export interface ExtractorLoan {
  readonly extractor: Extractor;
  release(): void;
}

/** Lends an idle extractor other than `borrower`, or undefined when none is idle now. */
export type LendExtractor = (borrower: Extractor) => ExtractorLoan | undefined;

/** How a stream watches the run: token by token in one text, chunk by chunk in a long document. */
interface StreamWatch {
  readonly attempt: AttemptWatcher;
  readonly chunks: ChunkWatcher;
}

/**
 * One engine and its compiled grammars, reused across documents: `extract`, `extractMany`, `stream`,
 * and `dispose` (or `await using`) to free the model.
 */
export class Extractor {
  private disposed = false;
  /** How often this engine's model confirmed speculative drafts, kept across documents. */
  private readonly draftRecord: DraftRecord;
  private lend: LendExtractor | undefined;

  constructor(
    readonly engine: Engine,
    private readonly defaults: ExtractOptions = {},
    /** Where compiled grammars persist across processes (createExtractor's `cacheDir`). */
    private readonly grammarFiles?: GrammarCacheDir,
  ) {
    this.draftRecord = new DraftRecord(engine.verifyRowCost);
  }

  /**
   * Compile (or fetch from the cache) the extraction grammar of a schema for this engine. A schema
   * with verbatim fields compiles per document: pass the document as `source`.
   */
  compile(schema: unknown, options: ExtractOptions = {}, source?: string): CompiledGrammar {
    const o = { ...this.defaults, ...options };
    const compileOptions = {
      mode: "extraction",
      format: "compact",
      defaultMaxStringLength: o.defaultMaxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
      ...schemaLimits(o),
    } as const;
    const compiled = this.grammarFiles ? this.grammarFiles.compile(schema, this.engine.vocabulary, compileOptions) : compileGrammar(schema, this.engine.vocabulary, compileOptions);
    if (source === undefined || !hasVerbatimFields(compiled.jsonSchema)) return compiled;
    return compileGrammar(schema, this.engine.vocabulary, { ...compileOptions, verbatimSource: source });
  }

  async extract<S>(schema: S, text: string, options: ExtractOptions = {}): Promise<ExtractResult<InferOutput<S>>> {
    return this.run(schema, text, options);
  }

  /** Extract from many documents; results arrive in completion order, tagged with id and index. */
  extractMany<S>(schema: S, inputs: Iterable<BatchInput | string> | AsyncIterable<BatchInput | string>, options: BatchOptions = {}): AsyncGenerator<BatchResult<InferOutput<S>>> {
    return runBatch({
      inputs,
      options,
      defaultConcurrency: 1,
      compile: () => this.compile(schema, options),
      extractOne: (text, signal) => this.run(schema, text, { ...options, signal }),
    });
  }

  /**
   * Streams one extraction while it decodes (see ExtractStream): deduplicated partial values with
   * growing strings, each element of an array once complete with its report (the root array, or
   * the top-level array property named by `elements`), then the result. Stopping the reader
   * (`break`) or aborting `signal` stops decoding within one token and frees the engine.
   */
  stream<S, K extends ArrayKeyOf<InferOutput<S>> = never>(
    schema: S,
    text: string,
    options: StreamOptions<K> = {},
  ): ExtractStream<InferOutput<S>, ElementOf<InferOutput<S>, K>> {
    const { elements, ...extractOptions } = options;
    return new ExtractStream(
      (sink) => this.run(schema, text, { ...extractOptions, signal: sink.signal }, { attempt: watchProgress({ text, elements, sink }), chunks: watchChunks({ elements, sink }) }),
      options.signal,
    );
  }

  /**
   * Lets the chunks of a long document (`chunkSize`) also run on other extractors: whenever a
   * chunk waits, `lend` is asked for an idle extractor, which runs that one chunk and is handed
   * back. The result is the same as on this extractor alone. ExtractorPool does this for its
   * extractors (each borrows the pool's idle ones); `undefined` stops it.
   */
  shareChunksWith(lend: LendExtractor | undefined): void {
    this.lend = lend;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.grammarFiles?.saveGrown({ final: true });
    await this.engine.dispose();
  }

  /** `await using extractor = await createExtractor(...)` disposes it at the end of the scope. */
  async [ASYNC_DISPOSE](): Promise<void> {
    await this.dispose();
  }

  private async run<S>(schema: S, text: string, options: ExtractOptions, watch?: StreamWatch): Promise<ExtractResult<InferOutput<S>>> {
    if (this.disposed) throw new PocketExtractError("ENGINE_DISPOSED", "this extractor was disposed");
    const o = { ...this.defaults, ...options, sampling: mergeSampling(this.defaults.sampling, options.sampling) };
    checkExtractOptions(o);
    checkText(text, o.maxTextBytes);
    if (o.instruction !== undefined) checkTextBytes(o.instruction, o.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES, "instruction");
    if (o.chunkSize !== undefined && text.length > o.chunkSize) return this.runInChunks(schema, text, o, o.chunkSize, watch?.chunks);
    const compiled = this.compile(schema, o, text);
    const jsonSchema = compiled.jsonSchema as JsonSchema;
    const promptOptions = {
      jsonSchema,
      text,
      language: o.language,
      examples: o.examples,
      instruction: o.instruction,
      chatTemplate: this.engine.chatTemplate,
    };
    const firstIds = encodeSegments(this.engine.vocabulary, buildPrompt(promptOptions).segments);
    const maxTokens = o.maxTokens ?? DEFAULT_MAX_TOKENS;
    const limit = this.engine.contextLength;
    const fits = (ids: readonly number[]): boolean => limit === undefined || ids.length + maxTokens <= limit;
    if (!fits(firstIds)) {
      throw new PocketExtractError(
        "TEXT_TOO_LONG",
        `prompt (${firstIds.length} tokens) + maxTokens (${maxTokens}) exceeds the model context (${limit} tokens); shorten the text, lower maxTokens, or set chunkSize to extract it in chunks`,
      );
    }
    // Grounding options merge key by key: a call's dateOrder keeps the extractor's currency.
    const grounding = { language: o.language, ...this.defaults.grounding, ...options.grounding };
    const zod = ownValidation<InferOutput<S>>(schema);
    const attempts = 1 + (o.retries ?? 0);
    const log: AttemptReport[] = [];
    let result: ExtractResult<InferOutput<S>> | undefined;
    for (let attempt = 0; attempt < attempts && !result?.ok; attempt++) {
      let ask = askFor(attempt, result, o);
      let promptIds = firstIds;
      if (ask.feedback) {
        const ids = encodeSegments(this.engine.vocabulary, buildPrompt({ ...promptOptions, feedback: ask.feedback }).segments);
        if (fits(ids)) promptIds = ids;
        else ask = resampled(attempt, o.sampling);
      }
      const onProgress = watch?.attempt({ number: attempt + 1, jsonSchema, grounding });
      const session = await this.engine.createSession({ sampling: ask.sampling, signal: o.signal });
      let generated;
      try {
        generated = await generate(session, compiled.tokens, promptIds, { maxTokens, signal: o.signal, onProgress, speculative: o.speculative, draftRecord: this.draftRecord });
      } finally {
        await session.close();
      }
      result = {
        ...verifyOutput({ raw: generated.text, text, jsonSchema, zod, grounding, cutAt: generated.cutAt }),
        raw: generated.text,
        stats: {
          ...generated.stats,
          promptTokens: promptIds.length,
          compileMs: compiled.compileMs,
          cutShort: generated.stats.stopReason === "budget",
          attempts: attempt + 1,
        },
      };
      log.push(attemptReport(attempt, ask, result));
    }
    // After the document, so the file holds the masks it computed (see GrammarCacheDir).
    this.grammarFiles?.saveGrown();
    return log.length > 1 ? { ...result!, stats: { ...result!.stats, attemptLog: log } } : result!;
  }

  /** A long document: its chunks on this extractor and those `lend` lends (merged options `o`). */
  private runInChunks<S>(schema: S, text: string, o: ExtractOptions, chunkSize: number, watch?: ChunkWatcher): Promise<ExtractResult<InferOutput<S>>> {
    const jsonSchema = this.compile(schema, o).jsonSchema as JsonSchema;
    const lend = this.lend;
    return extractInChunks({
      text,
      chunkSize,
      chunkOverlap: chunkOverlapOf(o),
      passes: o.passes ?? 1,
      jsonSchema,
      zod: ownValidation<InferOutput<S>>(schema),
      signal: o.signal,
      lanes: {
        own: this as Extractor,
        borrow: () => {
          const loan = lend?.(this);
          return loan && { lane: loan.extractor, release: () => loan.release() };
        },
      },
      // Every lane runs a chunk with this extractor's options, so which lane ran it does not show.
      extractChunk: (chunk, pass, lane, signal) => lane.run(schema, chunk, { ...o, chunkSize: undefined, sampling: passSampling(o.sampling, pass), signal }),
      onSettled: watch?.(jsonSchema),
    });
  }
}

/** Sampling merges key by key, as grounding does: a call's seed keeps the extractor's temperature. */
function mergeSampling(defaults: SamplingOptions | undefined, call: SamplingOptions | undefined): SamplingOptions | undefined {
  return defaults && call ? { ...defaults, ...call } : (call ?? defaults);
}

/** The schema limits the caller set (unset ones stay out of the compile-cache key). */
function schemaLimits(o: ExtractOptions): SchemaLimits {
  const limits: { -readonly [K in keyof SchemaLimits]: SchemaLimits[K] } = {};
  for (const key of Object.keys(DEFAULT_SCHEMA_LIMITS) as (keyof SchemaLimits)[]) if (o[key] !== undefined) limits[key] = o[key];
  return limits;
}
