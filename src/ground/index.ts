/**
 * Grounding: is each field of an extracted value supported by the source text, and where (spans)?
 * Also the schema navigation the grounding and the prompt's schema description share. Knows
 * nothing about validation (../validate) or decoding: it takes a value, a schema and a text.
 */
export { groundFields, checkGroundingOptions, type GroundOptions, type GroundingOptions } from "./ground.js";
export { prepareText, type PreparedText } from "./prepared.js";
export { alignValue, type AlignOptions } from "./align.js";
export { collectLeaves, ANNOTATION_KEY, type Leaf } from "./leaves.js";
export { normalizeValue, normalizeWithMap, type NormalizedText } from "./normalize.js";
export { parseChineseNumeral, type ChineseNumber } from "./chinese-numerals.js";
export { DATE_ORDERS, type DateOrder, type DateParts } from "./dates.js";
export type { FieldReport, FieldStatus, Span } from "./types.js";
export { resolveSchema, unionBranches, isNullType } from "./schema-nav.js";
