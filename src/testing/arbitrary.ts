/**
 * `arbitrary(schema)`: fast-check values of exactly the outputs the extraction grammar allows.
 * Raw mode (default) yields JSON.parse of a grammar document, null escapes included; parsed mode
 * yields zod's output for the documents that pass validation, as `extract()` would return `data`.
 */
import type { Arbitrary } from "fast-check";
import type { InferOutput } from "../extract/index.js";
import type { JsonValue } from "../schema/index.js";
import { validate, type ZodLike } from "../validate/index.js";
import { documents } from "./documents.js";
import { schemaSource } from "./source.js";

/** Options of `arbitrary`: null escapes and size limits (`parsed: true` on top selects parsed mode). */
export interface ArbitraryOptions {
  /** Include the null escapes ("not in the text") of extraction mode; default true. Parsed mode
   *  ignores it: an escaped optional property resolves to an absent one, which the escape-free
   *  grammar also allows, and an escaped required one never validates. */
  readonly escapes?: boolean;
  /** Upper bound on the random choices per value (default 200); the value is completed the
   *  shortest way once they run out, so this bounds how much content a value carries. */
  readonly maxChoices?: number;
  /** Same as the extractor option: bound for strings without maxLength (default 200). */
  readonly defaultMaxStringLength?: number;
}

/** Values `extract()` could return as `data`: validated, null escapes resolved, zod's output type. */
export function arbitrary<S>(schema: S, options: ArbitraryOptions & { readonly parsed: true }): Arbitrary<InferOutput<S>>;
/** JSON values the extraction grammar lets the model write (null escapes included by default). */
export function arbitrary(schema: unknown, options?: ArbitraryOptions & { readonly parsed?: false }): Arbitrary<JsonValue>;
export function arbitrary<S>(
  schema: S,
  options: ArbitraryOptions & { readonly parsed?: boolean } = {},
): Arbitrary<JsonValue> | Arbitrary<InferOutput<S>> {
  if (!options.parsed) {
    const source = schemaSource(schema, { escapes: options.escapes ?? true, defaultMaxStringLength: options.defaultMaxStringLength });
    return documents(source, options.maxChoices).map((d) => d.value as JsonValue);
  }
  // Walking the escape-free grammar gives the same set of validated values with far fewer
  // rejections (each escaped required field would throw a whole document away).
  const source = schemaSource(schema, { escapes: false, defaultMaxStringLength: options.defaultMaxStringLength });
  return documents(source, options.maxChoices)
    .map((d) => validate<InferOutput<S>>(d.value, source.jsonSchema, source.zod as ZodLike<InferOutput<S>> | undefined))
    .filter((r) => r.ok)
    .map((r) => r.data as InferOutput<S>);
}
