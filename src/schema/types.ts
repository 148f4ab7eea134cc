/**
 * The JSON Schema types every folder shares (the compiler, validation, grounding, prompts), and
 * the user-settable limits on the schemas a compile accepts.
 */

/** A JSON value as JSON Schema keywords hold them. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [k: string]: JsonValue };
/** A JSON Schema object; keyword values are left `unknown` because the compiler validates them. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };
/** A JSON Schema: `true` (anything), `false` (nothing) or a schema object. */
export type JsonSchema = boolean | JsonSchemaObject;

/**
 * Limits on the schemas a compile accepts (README, "Limits"); each is a typed SchemaError when
 * exceeded, raised before any unbounded work.
 */
export interface SchemaLimits {
  /** Serialized JSON Schema size in bytes (SCHEMA_TOO_LARGE). Default 4,000,000. */
  readonly maxSchemaBytes?: number;
  /** Nesting depth of subschemas (SCHEMA_TOO_LARGE). Default 256. */
  readonly maxSchemaDepth?: number;
  /** Declared properties, all objects together (SCHEMA_TOO_LARGE). Default 1,000. */
  readonly maxSchemaProperties?: number;
  /** Subschemas once every `$ref` is expanded: bounds validation, null escapes and grounding
   *  after decoding (SCHEMA_TOO_COMPLEX). Default 10,000. */
  readonly maxSchemaExpansion?: number;
}

/** The default schema limits (compile work, nesting, expansion) applied when an option leaves one unset. */
export const DEFAULT_SCHEMA_LIMITS: Required<SchemaLimits> = {
  maxSchemaBytes: 4_000_000,
  maxSchemaDepth: 256,
  maxSchemaProperties: 1_000,
  maxSchemaExpansion: 10_000,
};
