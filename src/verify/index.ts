/**
 * Verification: is an extracted value valid (ajv + zod), and is each of its fields supported by
 * the source text (grounding with spans)? Knows nothing about decoding or engines: it takes a
 * value, a schema and a text.
 */
export { validate, compileValidator, type ValidationResult, type ZodLike, type ZodSafeParse } from "./validate.js";
export { groundFields, checkGroundingOptions, type GroundOptions, type GroundingOptions } from "./ground.js";
export { verify, type Verification, type VerifyOptions } from "./verify.js";
export { prepareText, type PreparedText } from "./prepared.js";
export { alignValue, type AlignOptions } from "./align.js";
export { collectLeaves, ANNOTATION_KEY, type Leaf } from "./leaves.js";
export { normalizeValue, normalizeWithMap, type NormalizedText } from "./normalize.js";
export { parseChineseNumeral, type ChineseNumber } from "./chinese-numerals.js";
export { DATE_ORDERS, type DateOrder, type DateParts } from "./dates.js";
export { toPointer } from "./pointer.js";
export type { FieldReport, FieldStatus, Issue, JsonPath, JsonSchema, JsonSchemaObject, Span } from "./types.js";
export { resolveSchema, isSchemaObject, unionBranches, isNullType } from "./schema-nav.js";
