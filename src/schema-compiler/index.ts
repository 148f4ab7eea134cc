/**
 * The schema compiler's public face: Zod v4 / Zod v3 / JSON Schema in (read through the schema
 * model, src/schema), grammar IR plus a report of how every keyword is handled out. See types.ts
 * for the options and their defaults.
 *
 * Bounds (each failure is a SchemaError with code, keyword and pointer, raised within bounded
 * time): the SchemaLimits options (serialized size, nesting, declared properties, size with
 * $refs expanded; types.ts), and fixed ones: <= 200,000 subschema compilations, anyOf/oneOf
 * distribution <= 256 branches, $ref inlining (for merges) <= 16 deep, regex size after
 * expanding counted repetition <= 100,000 (see context.ts LIMITS).
 */

import { SchemaError } from "../errors.js";
import { reachableRules, type Grammar } from "../grammar/index.js";
import { checkExpansion, DEFAULT_SCHEMA_LIMITS, toJsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { compileNode } from "./compile.js";
import { CompileContext } from "./context.js";
import { productiveRules } from "./productive.js";
import type { CompileOptions, CompiledSchema } from "./types.js";

export { LIMITS } from "./context.js";
export type * from "./types.js";
export { DEFAULT_MAX_ANY_VALUE_DEPTH, DEFAULT_MAX_STRING_LENGTH, MAX_NESTING_OPTION } from "./types.js";
export { FORMAT_NOT_ENFORCED } from "./strings.js";

const START = "root";

export function compileSchema(input: unknown, options: CompileOptions = {}): CompiledSchema {
  const schema = toJsonSchema(input);
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch (err) {
    if (err instanceof RangeError) throw new SchemaError("SCHEMA_TOO_LARGE", "the schema nests too deeply to serialize", { pointer: "" }, { cause: err });
    throw new SchemaError("SCHEMA_INVALID", `the schema is not JSON (${(err as Error).message})`, { pointer: "" }, { cause: err });
  }
  const maxBytes = options.maxSchemaBytes ?? DEFAULT_SCHEMA_LIMITS.maxSchemaBytes;
  if (size > maxBytes) {
    throw new SchemaError("SCHEMA_TOO_LARGE", `the schema is ${size} bytes serialized (maxSchemaBytes is ${maxBytes})`, { pointer: "" });
  }
  if (schema === false) throw new SchemaError("SCHEMA_UNSATISFIABLE", "the schema is false: nothing is valid", { keyword: "false", pointer: "" });
  const ctx = new CompileContext(schema, options);
  ctx.report.classifyAll(schema, ctx.legacyRefs);
  let body;
  try {
    body = compileNode(ctx, schema, "", "");
  } catch (err) {
    if (err instanceof RangeError) {
      throw new SchemaError("SCHEMA_TOO_LARGE", "the schema nests too deeply to compile", { pointer: "" }, { cause: err });
    }
    throw err;
  }
  if (body === null) {
    const why = ctx.lastUnsat ?? { message: "no instance satisfies the schema", keyword: undefined, pointer: "" };
    throw new SchemaError("SCHEMA_UNSATISFIABLE", why.message, { keyword: why.keyword, pointer: why.pointer });
  }
  const rules = reachableRules({ start: START, rules: new Map(ctx.rules).set(START, body) });
  const distinctArrays = [...ctx.distinctArrays].filter((name) => rules.has(name));
  const grammar: Grammar = distinctArrays.length === 0 ? { start: START, rules } : { start: START, rules, distinctArrays: new Set(distinctArrays) };
  if (!productiveRules(grammar).has(START)) {
    throw new SchemaError("SCHEMA_UNSATISFIABLE", "the schema has no finite instance: a $ref cycle without a base case", { keyword: "$ref", pointer: "" });
  }
  // After the compile (whose own budgets bound it), so that a wide schema hears about its
  // property count first, and a $ref cycle without a base case is called unsatisfiable.
  checkExpansion(schema, ctx.resolver, ctx.options.maxSchemaExpansion);
  return {
    grammar,
    jsonSchema: schema === true ? {} : (schema as JsonSchemaObject),
    report: ctx.report.build(),
    nullEscapes: ctx.nullEscapes,
    options: ctx.options,
  };
}
