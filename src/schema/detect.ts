/**
 * Input detection: turns what the user handed us into a JSON Schema. Zod v4 schemas go through
 * Zod's own `toJSONSchema`, imported from `zod/v4/core`: the one entry that has it in both peer
 * ranges (zod 3.25 ships Zod 4 under `zod/v4`, and its root export has no `toJSONSchema`). Zod v3
 * schemas (the `zod/v3` entry of zod 4, or a zod 3.x install) go through `zod-to-json-schema`, an
 * optional peer dependency loaded only when such a schema arrives; other Standard Schemas
 * (valibot, arktype) go through standard.ts; plain JSON Schema objects and booleans pass through.
 */

import { createRequire } from "node:module";
import { toJSONSchema, type $ZodType } from "zod/v4/core";
import type { zodToJsonSchema as ZodToJsonSchema } from "zod-to-json-schema";
import { SchemaError } from "../errors.js";
import { isRecord } from "../util/index.js";
import { findUnrepresentable } from "./zod-unrepresentable.js";
import { isStandardSchema, standardToJsonSchema, type StandardSchemaLike } from "./standard.js";
import type { JsonSchema } from "./types.js";

export type SchemaSource = "zod4" | "zod3" | "standard" | "json-schema";

export function detectSource(input: unknown): SchemaSource {
  if (isRecord(input) && "_zod" in input) return "zod4";
  if (isRecord(input) && isRecord(input._def) && typeof input.safeParse === "function") return "zod3";
  if (isStandardSchema(input)) return "standard";
  if (typeof input === "boolean" || isRecord(input)) {
    if (typeof input === "object" && typeof input.safeParse === "function") {
      throw new SchemaError("SCHEMA_UNSUPPORTED", "a schema-like object with safeParse that is neither Zod v3 nor Zod v4", { pointer: "" });
    }
    return "json-schema";
  }
  throw new SchemaError("SCHEMA_INVALID", `expected a Zod schema, a Standard Schema or a JSON Schema (object or boolean), got ${input === null ? "null" : Array.isArray(input) ? "an array" : typeof input}`, { pointer: "" });
}

export function toJsonSchema(input: unknown): JsonSchema {
  const source = detectSource(input);
  try {
    if (source === "zod4") {
      return toJSONSchema(input as $ZodType, { target: "draft-2020-12", unrepresentable: "throw", cycles: "ref", reused: "inline" }) as JsonSchema;
    }
    if (source === "zod3") {
      const zodToJsonSchema = loadZodToJsonSchema();
      return zodToJsonSchema(input as Parameters<typeof ZodToJsonSchema>[0], { $refStrategy: "root" }) as JsonSchema;
    }
    if (source === "standard") return standardToJsonSchema(input as StandardSchemaLike);
  } catch (err) {
    if (err instanceof SchemaError) throw err;
    const where = source === "zod4" ? findUnrepresentable(input as $ZodType) : [];
    const [first] = where;
    if (first !== undefined) {
      const list = where.map((u) => `${u.construct} at ${u.field}: ${u.fix}`).join("; ");
      throw new SchemaError("SCHEMA_UNSUPPORTED", `the Zod schema cannot be expressed as JSON Schema: ${list}`, { pointer: first.pointer }, { cause: err });
    }
    throw new SchemaError("SCHEMA_UNSUPPORTED", `the Zod schema cannot be expressed as JSON Schema: ${(err as Error).message}`, { pointer: "" }, { cause: err });
  }
  return input as JsonSchema;
}

/** zod-to-json-schema, required on first use: only Zod v3 schemas need it. */
function loadZodToJsonSchema(): typeof ZodToJsonSchema {
  try {
    return (createRequire(import.meta.url)("zod-to-json-schema") as { zodToJsonSchema: typeof ZodToJsonSchema }).zodToJsonSchema;
  } catch (err) {
    throw new SchemaError(
      "SCHEMA_UNSUPPORTED",
      "a Zod v3 schema needs the package zod-to-json-schema (an optional peer dependency of pocket-extract): `npm install zod-to-json-schema`, or use Zod 4 schemas (`zod` 4, or `zod/v4` of zod 3.25)",
      { pointer: "" },
      { cause: err },
    );
  }
}
