/**
 * The compiler's dispatcher: one subschema in, one grammar expression out (null = the subschema
 * accepts nothing). It handles `$ref` (rules, so recursion works), `allOf` (merge), `anyOf` /
 * `oneOf` (alternatives, siblings distributed into each branch), `enum`/`const`, and `type`,
 * handing each type to its module (strings, numbers, objects, arrays).
 */

import { SchemaError } from "../errors.js";
import { lit, type Expr } from "../grammar/ir.js";
import { LIMITS, type CompileContext } from "./context.js";
import { union } from "./format.js";
import { childPointer, isAnnotationKeyword, REJECTED } from "./keywords.js";
import { mergeSchemas } from "./merge.js";
import { normalizeNode } from "./normalize.js";
import { compileArray } from "./arrays.js";
import { compileInteger, compileNumber } from "./numbers.js";
import { compileObject } from "./objects.js";
import { compileString } from "./strings.js";
import { typesOf, valueExpr } from "./values.js";
import type { JsonSchema, JsonSchemaObject } from "./types.js";

const TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"] as const;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function compileNode(ctx: CompileContext, schema: unknown, pointer: string, instancePath: string): Expr | null {
  ctx.tick(pointer);
  if (schema === true) return ctx.anyValue();
  if (schema === false) return ctx.unsat("the schema is false", "false", pointer);
  if (!isRecord(schema)) throw new SchemaError("SCHEMA_INVALID", "a schema must be an object or a boolean", { pointer });
  for (const k of REJECTED) {
    if (k in schema) throw new SchemaError("SCHEMA_UNSUPPORTED", `${k} is not supported (dynamic scope)`, { keyword: k, pointer });
  }
  ctx.depth++;
  const inlineBefore = ctx.inlineDepth;
  try {
    return compileSchemaObject(ctx, schema, pointer, instancePath);
  } finally {
    ctx.depth--;
    ctx.inlineDepth = inlineBefore;
  }
}

const hasAssertions = (node: JsonSchemaObject, except: readonly string[]): boolean =>
  Object.keys(node).some((k) => !except.includes(k) && !isAnnotationKeyword(k));

const without = (node: JsonSchemaObject, keys: readonly string[]): JsonSchemaObject => {
  const out: { [k: string]: unknown } = { ...node };
  for (const k of keys) delete out[k];
  return out;
};

function compileSchemaObject(ctx: CompileContext, raw: JsonSchemaObject, pointer: string, instancePath: string): Expr | null {
  if ("$ref" in raw) {
    if (typeof raw.$ref !== "string") throw new SchemaError("SCHEMA_INVALID", "$ref must be a string", { keyword: "$ref", pointer });
    if (ctx.legacyRefs || !hasAssertions(raw, ["$ref"])) {
      const target = ctx.resolver.resolve(raw.$ref, raw, pointer);
      const hint = target.pointer.split("/").pop() || "root";
      return ctx.refRule(target.pointer, hint, () => compileNode(ctx, target.node, target.pointer, instancePath));
    }
    return compileNode(ctx, inlineRefs(ctx, raw, pointer), pointer, instancePath);
  }
  const node = normalizeNode(raw);
  if (node !== raw) ctx.resolver.inheritBase(node, raw);
  if ("allOf" in node) {
    const branches = node.allOf;
    if (!Array.isArray(branches) || branches.length === 0) throw new SchemaError("SCHEMA_INVALID", "allOf must be a non-empty array", { keyword: "allOf", pointer });
    let merged: JsonSchema = inlineRefs(ctx, without(node, ["allOf"]), pointer);
    for (const b of branches) merged = mergeSchemas(ctx, merged, inlineRefs(ctx, b, pointer), pointer);
    if (merged === false) return null;
    return compileNode(ctx, merged, pointer, instancePath);
  }
  const groups = (["anyOf", "oneOf"] as const).filter((k) => k in node);
  if (groups.length > 0) return compileAlternatives(ctx, node, groups, pointer, instancePath);
  return compileTyped(ctx, node, pointer, instancePath);
}

/** Replaces a top-level `$ref` by its target merged with the siblings (bounded nesting). */
function inlineRefs(ctx: CompileContext, schema: unknown, pointer: string): JsonSchema {
  if (!isRecord(schema) || typeof schema.$ref !== "string") {
    if (typeof schema === "boolean" || isRecord(schema)) return schema;
    throw new SchemaError("SCHEMA_INVALID", "a schema must be an object or a boolean", { pointer });
  }
  if (++ctx.inlineDepth > LIMITS.maxInlineDepth) {
    throw new SchemaError("SCHEMA_UNSUPPORTED", "a recursive $ref inside allOf (or beside other keywords) cannot be merged", { keyword: "$ref", pointer });
  }
  const target = ctx.resolver.resolve(schema.$ref, schema, pointer);
  const rest = without(schema, ["$ref"]);
  ctx.resolver.inheritBase(rest, schema);
  const inlinedTarget = inlineRefs(ctx, target.node, target.pointer);
  if (ctx.legacyRefs) return inlinedTarget;
  return mergeSchemas(ctx, rest, inlinedTarget, pointer);
}

function compileAlternatives(ctx: CompileContext, node: JsonSchemaObject, groups: readonly ("anyOf" | "oneOf")[], pointer: string, instancePath: string): Expr | null {
  for (const g of groups) {
    const v = node[g];
    if (!Array.isArray(v) || v.length === 0) throw new SchemaError("SCHEMA_INVALID", `${g} must be a non-empty array`, { keyword: g, pointer });
  }
  const rest = without(node, groups);
  ctx.resolver.inheritBase(rest, node);
  const distribute = hasAssertions(rest, []);
  // Each combination of one branch per group, with the siblings merged in when there are any.
  let combos: { schema: unknown; pointer: string }[] = [{ schema: undefined, pointer }];
  for (const g of groups) {
    const branches = node[g] as unknown[];
    if (combos.length * branches.length > LIMITS.maxBranches) {
      throw new SchemaError("SCHEMA_TOO_LARGE", `${groups.join(" and ")} multiply out to more than ${LIMITS.maxBranches} branches`, { keyword: g, pointer });
    }
    combos = combos.flatMap((c) =>
      branches.map((b, i) => ({
        schema: c.schema === undefined ? b : mergeSchemas(ctx, inlineRefs(ctx, c.schema, pointer), inlineRefs(ctx, b, pointer), pointer),
        pointer: groups.length === 1 ? childPointer(pointer, g, i) : pointer,
      })),
    );
  }
  const parts = combos.map((c) => {
    if (!distribute) return compileNode(ctx, c.schema, c.pointer, instancePath);
    const merged = mergeSchemas(ctx, rest, inlineRefs(ctx, c.schema, c.pointer), pointer);
    return compileNode(ctx, merged, pointer, instancePath);
  });
  // When every branch is empty, the last branch's reason (ctx.lastUnsat) explains it.
  return union(parts);
}

function readTypes(node: JsonSchemaObject, pointer: string): Set<string> | undefined {
  const t = node.type;
  if (t === undefined) return undefined;
  const list = Array.isArray(t) ? t : [t];
  for (const x of list) {
    if (typeof x !== "string" || !(TYPES as readonly string[]).includes(x)) {
      throw new SchemaError("SCHEMA_INVALID", `unknown type ${JSON.stringify(x)}`, { keyword: "type", pointer });
    }
  }
  return new Set(list as string[]);
}

function compileTyped(ctx: CompileContext, node: JsonSchemaObject, pointer: string, instancePath: string): Expr | null {
  const types = readTypes(node, pointer);
  if ("enum" in node) {
    const values = node.enum;
    if (!Array.isArray(values)) throw new SchemaError("SCHEMA_INVALID", "enum must be an array", { keyword: "enum", pointer });
    const allowed = values.filter((v) => types === undefined || typesOf(v).some((t) => types.has(t)));
    for (const k of Object.keys(node)) {
      if (k !== "enum" && k !== "type" && k !== "nullable" && !isAnnotationKeyword(k)) {
        ctx.report.set(pointer, k, "validatedAfter", "enum/const values are enforced; this keyword is checked after decoding");
      }
    }
    if (allowed.length === 0) return ctx.unsat(values.length === 0 ? "enum is empty" : "no enum value has an allowed type", "enum", pointer);
    return union(allowed.map((v) => valueExpr(ctx, v)));
  }
  if (types === undefined && !hasAssertions(node, [])) return ctx.anyValue();
  const has = (t: string): boolean => types === undefined || types.has(t);
  const parts: (Expr | null)[] = [];
  if (has("null")) parts.push(lit("null"));
  if (has("boolean")) parts.push(union([lit("true"), lit("false")]));
  if (has("number")) parts.push(compileNumber(ctx, node, pointer));
  else if (has("integer")) parts.push(compileInteger(ctx, node, pointer));
  if (has("string")) parts.push(compileString(ctx, node, pointer));
  const sub = (schema: unknown, ptr: string, ipath: string): Expr | null => compileNode(ctx, schema, ptr, ipath);
  if (has("object")) parts.push(compileObject(ctx, node, pointer, instancePath, sub));
  if (has("array")) parts.push(compileArray(ctx, node, pointer, instancePath, sub));
  return union(parts);
}
