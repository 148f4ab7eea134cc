/**
 * The compiler's dispatcher: one subschema in, one grammar expression out (null = the subschema
 * accepts nothing). It handles `$ref` (rules, so recursion works), `allOf` (merge), `not` (its
 * positive rewriting, negate.ts), `anyOf` / `oneOf` (alternatives, siblings distributed into each
 * branch; a oneOf is exact when its branches are proven disjoint, exclusive.ts), `enum`/`const`,
 * and `type`, handing each type to its module (strings, numbers, objects, arrays).
 */

import { SchemaError } from "../errors.js";
import { lit, type Expr } from "../grammar/ir.js";
import { LIMITS, type CompileContext } from "./context.js";
import { branchesExclusive } from "./exclusive.js";
import { union } from "./format.js";
import { childPointer, isAnnotationKeyword, REJECTED } from "./keywords.js";
import { mergeSchemas } from "./merge.js";
import { excludeStrings, negate, stringExclusion } from "./negate.js";
import { normalizeNode } from "./normalize.js";
import { compileArray } from "./arrays.js";
import { compileInteger, compileNumber } from "./numbers.js";
import { compileObject } from "./objects.js";
import { compileString } from "./strings.js";
import { compileEnum } from "./values.js";
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

/** `node` without `keys`, keeping its base URI and, for the report, where its keywords came from. */
function without(ctx: CompileContext, node: JsonSchemaObject, keys: readonly string[]): JsonSchemaObject {
  const out: { [k: string]: unknown } = { ...node };
  for (const k of keys) delete out[k];
  ctx.resolver.inheritBase(out, node);
  ctx.report.derive(out, node);
  return out;
}

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
  if (node !== raw) {
    ctx.resolver.inheritBase(node, raw);
    ctx.report.derive(node, raw);
  }
  if ("allOf" in node) {
    const branches = node.allOf;
    if (!Array.isArray(branches) || branches.length === 0) throw new SchemaError("SCHEMA_INVALID", "allOf must be a non-empty array", { keyword: "allOf", pointer });
    let merged: JsonSchema = inlineRefs(ctx, without(ctx, node, ["allOf"]), pointer);
    for (const b of branches) merged = mergeSchemas(ctx, merged, inlineRefs(ctx, b, pointer), pointer);
    if (merged === false) return null;
    return compileNode(ctx, merged, pointer, instancePath);
  }
  // An enum decides its `not` per value (values.ts); a string exclusion goes to the string token.
  if ("not" in node && !("enum" in node) && stringExclusion(node.not) === undefined) return compileNot(ctx, node, pointer, instancePath);
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
  const rest = without(ctx, schema, ["$ref"]);
  const inlinedTarget = inlineRefs(ctx, target.node, target.pointer);
  if (ctx.legacyRefs) return inlinedTarget;
  return mergeSchemas(ctx, rest, inlinedTarget, pointer);
}

function compileAlternatives(ctx: CompileContext, node: JsonSchemaObject, groups: readonly ("anyOf" | "oneOf")[], pointer: string, instancePath: string): Expr | null {
  for (const g of groups) {
    const v = node[g];
    if (!Array.isArray(v) || v.length === 0) throw new SchemaError("SCHEMA_INVALID", `${g} must be a non-empty array`, { keyword: g, pointer });
  }
  if (groups.includes("oneOf")) {
    const exclusive = branchesExclusive(ctx, without(ctx, node, ["oneOf"]), node.oneOf as unknown[], pointer);
    const note = exclusive ? "branches proven pairwise disjoint: exact as anyOf" : "exactly-one-branch is checked after decoding";
    ctx.report.verdict(node, "oneOf", exclusive, note, pointer);
  }
  const rest = without(ctx, node, groups);
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
  if ("enum" in node) return compileEnum(ctx, node, types, pointer);
  if (types === undefined && !hasAssertions(node, [])) return ctx.anyValue();
  const has = (t: string): boolean => types === undefined || types.has(t);
  const parts: (Expr | null)[] = [];
  if (has("null")) parts.push(lit("null"));
  if (has("boolean")) parts.push(union([lit("true"), lit("false")]));
  if (has("number")) parts.push(compileNumber(ctx, node, pointer));
  else if (has("integer")) parts.push(compileInteger(ctx, node, pointer));
  parts.push(compileStrings(ctx, node, pointer, has("string")));
  const sub = (schema: unknown, ptr: string, ipath: string): Expr | null => compileNode(ctx, schema, ptr, ipath);
  if (has("object")) parts.push(compileObject(ctx, node, pointer, instancePath, sub));
  if (has("array")) parts.push(compileArray(ctx, node, pointer, instancePath, sub));
  return union(parts);
}

/**
 * The string part, minus the strings of a `not: {enum: [strings]}` (the string token's exclusion
 * list, exact; a format's grammar has none, and then the `not` is checked after decoding).
 */
function compileStrings(ctx: CompileContext, node: JsonSchemaObject, pointer: string, admitted: boolean): Expr | null {
  const expr = admitted ? compileString(ctx, node, pointer) : null;
  const excluded = stringExclusion(node.not);
  if (excluded === undefined) return expr;
  const narrowed = expr === null ? null : excludeStrings(expr, excluded);
  const exact = narrowed !== undefined;
  ctx.report.verdict(node, "not", exact, exact ? "excluded from the string token" : "a format's strings cannot exclude values; checked after decoding", pointer);
  return exact ? narrowed : expr;
}

/** anyOf/oneOf alternatives a schema multiplies out to. */
function branchCount(schema: JsonSchema): number {
  if (typeof schema === "boolean") return 1;
  return (["anyOf", "oneOf"] as const).reduce((n, g) => {
    const branches = schema[g];
    return n * (Array.isArray(branches) ? Math.max(1, branches.length) : 1);
  }, 1);
}

/**
 * `not` by its positive rewriting (negate.ts) conjoined with the siblings. Without an exact one
 * (or when it would multiply the alternatives past the limit) the siblings alone are compiled and
 * the `not` is checked after decoding.
 */
function compileNot(ctx: CompileContext, node: JsonSchemaObject, pointer: string, instancePath: string): Expr | null {
  const rest = without(ctx, node, ["not"]);
  const negation = negate(ctx, node.not, pointer);
  if (negation === undefined || branchCount(rest) * branchCount(negation.schema) > LIMITS.maxBranches) {
    ctx.report.verdict(node, "not", false, "no exact positive form; checked after decoding", pointer);
    return compileNode(ctx, rest, pointer, instancePath);
  }
  for (const n of [node, ...negation.consumed]) ctx.report.verdict(n, "not", true, "rewritten as a positive schema", pointer);
  // Alone, the rewriting compiles as it is (a `$ref` in it stays a rule, so recursion works).
  if (!hasAssertions(rest, [])) return compileNode(ctx, negation.schema, pointer, instancePath);
  return compileNode(ctx, mergeSchemas(ctx, rest, inlineRefs(ctx, negation.schema, pointer), pointer), pointer, instancePath);
}
