/**
 * Public types of extraction: what `extract()` returns and the options it takes. They read like
 * the data: a result has typed `data` (or null), per-field statuses with spans, validation issues,
 * the raw model output and decode statistics.
 */
import type { GenerateStats } from "../decode/generate.js";
import type { SpeculativeOptions } from "../decode/speculative.js";
import type { SamplingOptions } from "../engines/engine.js";
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

/** What a streamed partial value may look like: any part may still be missing. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A field's grounding report; `truncated` marks a value finished by budget-aware completion. */
export type FieldResult = FieldReport & { readonly truncated?: true };

export interface ExtractStats extends GenerateStats {
  readonly promptTokens: number;
  /** Schema compile time (0 when the compiled grammar came from the cache). */
  readonly compileMs: number;
  /** True when budget-aware completion cut the output short (see `fields` for the cut fields). */
  readonly cutShort: boolean;
  /** Generations run for this result: 1, or more when `retries` resampled a failed output. */
  readonly attempts: number;
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
  /** The exact text the model produced. */
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
  /** Extra instruction appended to the system prompt. */
  readonly instruction?: string;
  /** Default bound for strings without maxLength (characters, default 200). */
  readonly defaultMaxStringLength?: number;
  /** Retries when zod refinements fail (resampling with a new seed); default 0, at most 100. */
  readonly retries?: number;
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
}

export interface BatchInput {
  readonly text: string;
  /** Caller's id, echoed in the result; defaults to the input's index. */
  readonly id?: string | number;
}

export type BatchResult<T> =
  | { readonly id: string | number; readonly index: number; readonly result: ExtractResult<T>; readonly error?: undefined }
  | { readonly id: string | number; readonly index: number; readonly result?: undefined; readonly error: PocketExtractError };

export interface BatchOptions extends ExtractOptions {
  /** Documents in flight at once (default 1; engines serialize their context anyway). */
  readonly concurrency?: number;
}

export type StreamEvent<T> =
  | { readonly type: "partial"; readonly partial: DeepPartial<T>; readonly raw: string }
  | { readonly type: "result"; readonly result: ExtractResult<T> };
