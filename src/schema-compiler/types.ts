/**
 * Public types of the schema compiler: its options and what comes out (grammar, the JSON Schema
 * used, the keyword report, the null-escape list).
 */

import type { Grammar } from "../grammar/index.js";
import type { JsonSchemaObject, SchemaLimits } from "../schema/index.js";

/**
 * Extraction mode's default bound for strings without maxLength, in characters. Each allowed
 * character of a bounded string costs automaton states (and compile time): 200 covers names,
 * addresses and titles while keeping a typical schema's compile in the tens of milliseconds.
 */
export const DEFAULT_MAX_STRING_LENGTH = 200;

/**
 * How deep an unconstrained value may nest containers, per mode. Each level is a copy of the JSON
 * value rules (the automaton has no unbounded stack), costing compile time in proportion. An
 * extraction's free-form values are shallow; JSON Schema mode accepts documents as written, and
 * real ones nest deeper under free-form values (a JSON Schema kept as data: 10 levels).
 */
export const DEFAULT_MAX_ANY_VALUE_DEPTH = { extraction: 8, jsonschema: 16 } as const;

/** Largest accepted maxAnyValueDepth / maxRecursionDepth: the nesting bound of maxSchemaDepth's default. */
export const MAX_NESTING_OPTION = 256;

export interface CompileOptions extends SchemaLimits {
  /**
   * "compact" (default): no whitespace anywhere. "flexible": any JSON whitespace between tokens
   * (for conformance runs; see format.ts for why it is unbounded).
   */
  readonly format?: "compact" | "flexible";
  /**
   * "extraction" (default): `additionalProperties` is false unless the schema says otherwise;
   * every declared property value may also be `null` (the null escape, see `nullEscape`);
   * strings without a maxLength, pattern or format get `defaultMaxStringLength`.
   * "jsonschema": standard JSON Schema semantics (additional properties allowed unless
   * forbidden, no null escape, no default length bound).
   */
  readonly mode?: "extraction" | "jsonschema";
  /**
   * The order object keys may be written in. "any": any order, each name at most once, with
   * `required`, dependencies and min/maxProperties checked on the set of keys written; past
   * ANY_ORDER_LIMITS sets, unconstrained optional names may repeat, or the object keeps the
   * declared order (README "Property order").
   * "declared" (the default, in both modes): one fixed order (README "Property order"), which
   * steers a model better (it never has to choose what to write next) and costs least: "any"
   * builds a rule per set of written names, at compile and on a first document.
   */
  readonly propertyOrder?: "declared" | "any";
  /** Extraction mode's bound for unbounded strings, in code points. Default 200
   *  (DEFAULT_MAX_STRING_LENGTH). */
  readonly defaultMaxStringLength?: number;
  /**
   * The source text of the document being extracted from. String schemas marked verbatim
   * (`"x-pocket": { "verbatim": true }`) then only admit non-empty substrings of it, so the model
   * cannot write a value the text does not contain. Without it, verbatim marks are ignored.
   */
  readonly verbatimSource?: string;
  /** Extraction mode: property values may be `null` meaning "not in the text". Default true. */
  readonly nullEscape?: boolean;
  /** Recursion bound handed to the automaton builder for recursive schemas, 0 to 256. Default 8. */
  readonly maxRecursionDepth?: number;
  /**
   * How deep an unconstrained value (`true`, `{}`, `z.unknown()`) may nest containers, 0 to 256
   * (3 allows `[{"a":[1]}]`); deeper instances are refused there (see CompileContext.anyValue).
   * Default 8 in extraction mode, 16 in JSON Schema mode (DEFAULT_MAX_ANY_VALUE_DEPTH).
   */
  readonly maxAnyValueDepth?: number;
}

/** Options with their defaults filled in (the source text stays optional). */
export type ResolvedCompileOptions = Required<Omit<CompileOptions, "verbatimSource">> & Pick<CompileOptions, "verbatimSource">;

/** One keyword occurrence: the keyword, the JSON pointer of the schema holding it, a remark. */
export interface KeywordUse {
  readonly keyword: string;
  readonly pointer: string;
  readonly note?: string;
}

/**
 * How every keyword of the schema is handled. Keywords the compiler cannot handle are not listed:
 * they make `compileSchema` throw a `SchemaError` naming the keyword and pointer.
 */
export interface CompileReport {
  /** Enforced by the grammar while decoding. */
  readonly enforced: readonly KeywordUse[];
  /** Not (or not fully) enforced by the grammar; the verify step checks them after decoding. */
  readonly validatedAfter: readonly KeywordUse[];
  /** No effect on validity (title, description, ...); unknown keywords land here with a note. */
  readonly annotations: readonly KeywordUse[];
}

/** A declared property whose value may be the `null` escape (extraction mode). */
export interface NullEscape {
  /** Instance path as a JSON pointer; `*` stands for any array index or additional key. For
   *  definitions reached through `$ref`, the path of the first use. */
  readonly instancePath: string;
  /** JSON pointer of the property's schema. */
  readonly schemaPointer: string;
}

export interface CompiledSchema {
  readonly grammar: Grammar;
  /** The JSON Schema that was compiled (Zod input converted); the verify step validates with it. */
  readonly jsonSchema: JsonSchemaObject;
  readonly report: CompileReport;
  readonly nullEscapes: readonly NullEscape[];
  /** Options in effect, defaults filled in. */
  readonly options: ResolvedCompileOptions;
}
