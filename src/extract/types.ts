/**
 * Public types of extraction: what `extract()` returns and the options it takes. They read like
 * the data: a result has typed `data` (or null), per-field statuses with spans, validation issues,
 * the raw model output and decode statistics.
 */
import type { GenerateStats } from "../decode/index.js";
import type { SpeculativeOptions } from "../decode/index.js";
import type { SamplingOptions } from "../engines/index.js";
import type { FieldReport, GroundingOptions } from "../ground/index.js";
import type { JsonSchemaObject, SchemaLimits } from "../schema/index.js";
import type { Issue } from "../validate/index.js";
import type { PocketExtractError } from "../errors.js";

declare const schemaOutput: unique symbol;
/** A plain JSON Schema tagged with the type of the values it describes: see `jsonSchema<T>()`. */
export type TypedJsonSchema<T> = JsonSchemaObject & { readonly [schemaOutput]?: T };

/** Output type of a schema: Zod (v4 or v3), any Standard Schema (its `types.output`: valibot,
 *  arktype, ...), a `jsonSchema<T>()`; `unknown` for an untyped plain JSON Schema. */
export type InferOutput<S> = S extends { _zod: { output: infer O } }
  ? O
  : S extends { _output: infer O }
    ? O
    : S extends { readonly "~standard": { readonly types?: infer Types } }
      ? NonNullable<Types> extends { readonly output: infer O }
        ? O
        : unknown
      : S extends { readonly [schemaOutput]?: infer O }
        ? O
        : unknown;

/**
 * What a streamed partial value may look like: any property may still be absent and an array
 * may hold fewer items, the last one partial. What is there has its type: a null only where `T`
 * admits null (a "not stated" answer for a field that does not is absent), a string is a prefix
 * of the final one (strings grow while written; enum and literal strings appear once complete),
 * numbers, booleans and literals are complete.
 */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A field's grounding report; `truncated` marks a value finished by budget-aware completion. */
export type FieldResult = FieldReport & { readonly truncated?: true };

/**
 * What an extraction cost: prompt and output tokens, compile and decode time, on top of the generation
 * loop's counts.
 */
export interface ExtractStats extends GenerateStats {
  readonly promptTokens: number;
  /** Schema compile time (0 when the compiled grammar came from the cache). */
  readonly compileMs: number;
  /** True when budget-aware completion cut the output short (see `fields` for the cut fields). */
  readonly cutShort: boolean;
  /** Generations run for this result: 1, or more when `retries` ran another after a failed output
   *  (a long document's result: the sum over its chunks and passes). */
  readonly attempts: number;
  /** Every generation in order, the returned one last; present only when there was more than one
   *  (and not on a long document's merged result: see each chunk's `attempts` summed above). */
  readonly attemptLog?: readonly AttemptReport[];
  /** Set when the text was extracted in chunks (`chunkSize`): how many. */
  readonly chunks?: number;
}

/** How a retry asks again (`retryMode`): the same prompt with a new seed, or the prompt with the
 *  previous output and its issues added (Instructor's re-ask). */
export type RetryMode = "resample" | "feedback";

/** One generation of a result that took more than one (ExtractStats.attemptLog). */
export interface AttemptReport {
  /** 1 for the first generation, 2... for retries (as a stream event's `attempt`). */
  readonly attempt: number;
  /** Its prompt: the first one, the first one resampled, or the re-ask with the previous issues. */
  readonly prompt: "first" | RetryMode;
  readonly ok: boolean;
  /** What the model wrote. */
  readonly raw: string;
  /** Why it was not ok (empty when it was, or when only the output budget cut it short). */
  readonly issues: readonly Issue[];
  readonly cutShort: boolean;
}

/** What every result holds, valid or not. */
interface ResultParts {
  /** True when no field is `fabricated`: every stated value has support in the text. Independent
   *  of `ok`: a valid result can hold a fabricated value, and an invalid one can be grounded. */
  readonly grounded: boolean;
  /** The parsed JSON value even when it is not valid (null escapes of optional fields removed). */
  readonly partial: unknown;
  /** One entry per leaf path: status, value, source spans. */
  readonly fields: readonly FieldResult[];
  /** Validation problems, with JSON paths. */
  readonly issues: readonly Issue[];
  /** The exact text the model produced (a long document: one line per chunk and pass). */
  readonly raw: string;
  readonly stats: ExtractStats;
}

/**
 * One extraction's result. `ok` is the discriminant: after `if (result.ok)`, `data` is `T`.
 * `ok` means valid (complete output that satisfies the schema; no field `invalid`, a required
 * field answered null included); `grounded` means no field is fabricated.
 */
export type ExtractResult<T> =
  | (ResultParts & {
      /** The output is complete and satisfies the schema (ajv, then the schema's own validation). */
      readonly ok: true;
      /** The schema's output for the extracted value. */
      readonly data: T;
    })
  | (ResultParts & {
      readonly ok: false;
      /** No valid value: see `issues`, `fields` and `partial`. */
      readonly data: null;
    });

/** Extraction options; the schema limits (maxSchemaBytes, maxSchemaDepth, maxSchemaProperties,
 *  maxSchemaExpansion) apply to the schema's compile, see SchemaLimits. */
export interface ExtractOptions extends SchemaLimits {
  /** Output token budget (default 512); the output is always complete JSON within it. */
  readonly maxTokens?: number;
  readonly sampling?: SamplingOptions;
  readonly signal?: AbortSignal;
  /** Prompt language: "auto" (default) picks Chinese when the text is mostly Chinese. */
  readonly language?: "auto" | "zh" | "en";
  /** Few-shot examples, validated against the schema. */
  readonly examples?: readonly { readonly text: string; readonly output: unknown }[];
  /** Replaces the prompt's default instruction sentence(s); the field list, the examples and the
   *  document still follow. */
  readonly instruction?: string;
  /** Default bound for strings without maxLength (characters, default 200). */
  readonly defaultMaxStringLength?: number;
  /** Generations to run again while the result is not ok (schema issues, the schema's own
   *  validation, a required field answered null, an output cut short); default 0, at most 100. */
  readonly retries?: number;
  /** How a retry asks: "resample" (default) runs the same prompt with the next seed at
   *  temperature 0.7 unless set; "feedback" re-asks with the previous output and its issues in the
   *  prompt, under the same grammar and sampling. */
  readonly retryMode?: RetryMode;
  /** How grounding reads dates, suffixed numbers and currencies in the text (GroundingOptions);
   *  its language defaults to `language`. */
  readonly grounding?: GroundingOptions;
  /** Largest document in UTF-8 bytes, checked before any tokenizing (TEXT_TOO_LONG); default
   *  262,144 (256 KiB). Also bounds `instruction`. */
  readonly maxTextBytes?: number;
  /**
   * Speculative decoding on engines that verify several tokens per forward pass (llama.cpp):
   * prompt lookup over the document, forced runs, optionally a draft model. Same output either
   * way; default false (its measured gain on CPU llama.cpp is not yet positive).
   */
  readonly speculative?: boolean | SpeculativeOptions;
  /**
   * Long documents: a text longer than `chunkSize` characters (UTF-16 code units, as
   * `text.length` counts them) is split into chunks of at most that many, cut at paragraph or
   * sentence ends (。！？； . ! ?) and never inside a word or number; each chunk is extracted
   * on its own and the results merged: arrays concatenated with an element read by two
   * overlapping chunks kept once, other fields from the chunk that grounds them best, different
   * found values reported as issues (source "chunks"), every span in the whole text's offsets.
   * Characters, not tokens: known before tokenizing and the same on every engine; each chunk's
   * prompt must still fit the model's context (TEXT_TOO_LONG names the chunk). From 200 to
   * 1,073,741,824; unset, the text is one document (and over the context, TEXT_TOO_LONG).
   * `maxTextBytes` still bounds the whole text.
   */
  readonly chunkSize?: number;
  /** Characters each chunk shares with the previous one (default 200, under half of `chunkSize`):
   *  the next chunk starts at the first sentence start within them. */
  readonly chunkOverlap?: number;
  /** Extraction passes over the chunks (default 1, at most 3): a later pass re-reads, resampled
   *  (as `retries` does), only the chunks that found nothing for some top-level field. */
  readonly passes?: number;
}

/** One document of a batch: its text and an optional caller id. */
export interface BatchInput {
  readonly text: string;
  /** Caller's id, echoed in the result; defaults to the input's index. */
  readonly id?: string | number;
}

/**
 * One document's outcome in `extractMany`: its result, or the typed error that stopped it; either way
 * with its id and input index.
 */
export type BatchResult<T> =
  | { readonly id: string | number; readonly index: number; readonly result: ExtractResult<T>; readonly error?: undefined }
  | { readonly id: string | number; readonly index: number; readonly result?: undefined; readonly error: PocketExtractError };

/** Options for `extractMany`: the extraction options plus how many documents run at once. */
export interface BatchOptions extends ExtractOptions {
  /** Documents in flight at once (default 1; engines serialize their context anyway). */
  readonly concurrency?: number;
}

/** Top-level properties of `T` holding arrays: what `stream`'s `elements` option may name (any
 *  name for an untyped schema). */
export type ArrayKeyOf<T> = unknown extends T
  ? string
  : { [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never }[keyof T] & string;

/** The type of the elements a stream reports: the items of the top-level array property `K`,
 *  or without `K` the items of `T` itself when it is an array (`never` otherwise). */
export type ElementOf<T, K = never> = unknown extends T
  ? unknown
  : [K] extends [never]
    ? T extends readonly (infer U)[]
      ? U
      : never
    : K extends keyof T
      ? NonNullable<T[K]> extends readonly (infer U)[]
        ? U
        : never
      : never;

/** Options for `Extractor.stream`: the extraction options plus which array's elements to report. */
export interface StreamOptions<K extends string = string> extends ExtractOptions {
  /** The top-level array property whose elements the stream reports (`elementStream`, "element"
   *  events); default: the document itself when the schema's root is an array. */
  readonly elements?: K;
}

/** One complete element of the streamed array, verified as soon as it is complete. */
interface ElementParts<E> {
  /** Its index in the array. */
  readonly index: number;
  /** Its fields' reports, pointers into the whole document (`/people/2/name`). */
  readonly fields: readonly FieldResult[];
  /** JSON Schema problems inside the element (the schema's own validation, e.g. zod
   *  refinements, runs on the final result only). */
  readonly issues: readonly Issue[];
  /** No field of the element is `fabricated`. */
  readonly grounded: boolean;
  /** The element as written, with what its type forbids left out (see DeepPartial). */
  readonly partial: DeepPartial<E>;
}

/** A complete element: `ok` (it satisfies its JSON Schema, no required field answered null)
 *  narrows `data` to the element type, as in ExtractResult. */
export type StreamElement<E> = (ElementParts<E> & { readonly ok: true; readonly data: E }) | (ElementParts<E> & { readonly ok: false; readonly data: null });

/**
 * What an extraction stream yields: "partial" when the partial value changed (so no two partials
 * in a row are equal), "element" once per element of the streamed array when it is complete
 * (only when there is one: `E` is not `never`), then one "result". `attempt` counts generations
 * (1, then 2... when `retries` runs another): each attempt streams from the start.
 */
export type StreamEvent<T, E = ElementOf<T>> = PartialEvent<T> | ([E] extends [never] ? never : ElementEvent<E>) | ResultEvent<T>;
/** A stream event: the partial value changed; with the output so far. */
export interface PartialEvent<T> {
  readonly type: "partial";
  readonly partial: DeepPartial<T>;
  /** The output so far (whole characters). */
  readonly raw: string;
  readonly attempt: number;
}
/** A stream event: one element of the streamed array is complete and verified. */
export interface ElementEvent<E> {
  readonly type: "element";
  readonly element: StreamElement<E>;
  readonly attempt: number;
}
/** A stream event, the last one: the final result. */
export interface ResultEvent<T> {
  readonly type: "result";
  /** The same result `extract()` gives. */
  readonly result: ExtractResult<T>;
}
