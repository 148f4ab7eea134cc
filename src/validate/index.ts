/**
 * Validation: does an extracted value satisfy its schema (ajv for the JSON Schema, then zod for
 * refinements), and does the model's raw JSON repeat a key? Knows nothing about the source text
 * (grounding is ../ground) or about decoding: it takes a value (or raw JSON) and a schema.
 */
export { validate, compileValidator, type ValidationResult, type ZodLike, type ZodSafeParse } from "./validate.js";
export { duplicateKeyIssues } from "./duplicate-keys.js";
export type { Issue } from "./types.js";
