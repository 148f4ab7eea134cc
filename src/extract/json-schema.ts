/**
 * `jsonSchema<T>(schema)`: a plain JSON Schema with the output type stated by the caller, so
 * `extract()` returns `ExtractResult<T>` instead of `unknown`. Type only: the object is returned
 * as is, and ajv checks the output against it at run time (it is trusted to describe `T`).
 */
import type { JsonSchemaObject } from "../schema/index.js";
import type { TypedJsonSchema } from "./types.js";

/**
 * Wraps a plain JSON Schema object with the TypeScript type of its data
 * (`jsonSchema<Invoice>({...})`), so results are typed without Zod.
 */
export function jsonSchema<T>(schema: JsonSchemaObject): TypedJsonSchema<T> {
  return schema;
}
