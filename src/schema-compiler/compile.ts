/**
 * The compiler's dispatcher: one subschema in, one grammar expression out (null = the subschema
 * accepts nothing). It handles `$ref` (rules, so recursion works), `allOf` (merge), `not` (its
 * positive rewriting, negate.ts), `anyOf` / `oneOf` (alternatives, siblings distributed into each
 * branch; a oneOf is exact when its branches are proven disjoint or rewritten so, one-of.ts), `enum`/`const`,
 * and `type`, handing each type to its module (strings, numbers, objects, arrays).
 */

import { SchemaError } from "../errors.js";
import { lit, type Expr } from "../grammar/index.js";
import { childPointer, isAnnotationKeyword, isRecord, KEYWORDS, normalizeNode, REFUSED, SchemaNode, type JsonSchema, type JsonSchemaObject, type JsonType } from "../schema/index.js";
import { mapDefined } from "../util/index.js";
import { compileArray } from "./arrays.js";
import { dependentSchemasApart, type SchemaDependencies } from "./dependencies.js";
import { discriminatedConditionals } from "./discriminated.js";
import { LIMITS, type CompileContext } from "./context.js";
import { CONDITIONAL, conditionalsApart, conditionalSchema, REWRITTEN } from "./conditional.js";
import { union } from "./format.js";
import { mergeSchemas } from "./merge.js";
import { excludesOtherTypes, excludeStrings, negate, recordConsumed, stringExclusion } from "./negate.js";
import { asksNonInteger } from "./non-integer.js";
import { exactOneOfBranches } from "./one-of.js";
import { asksSomeEntry } from "./some-entry.js";
import { DisjointnessProver } from "./exclusive.js";
import { compileInteger, compileNumber } from "./numbers.js";
import { compileObject } from "./objects.js";
import { compileString, formatStringToken } from "./strings.js";
import { compileEnum } from "./values.js";

export function compileNode(ctx: CompileContext, schema: unknown, pointer: string, instancePath: string): Expr | null {
  ctx.tick(pointer);
  if (schema === true) return ctx.anyValue();
  if (schema === false) return ctx.unsat("the schema is false", "false", pointer);
  if (!isRecord(schema)) throw new SchemaError("SCHEMA_INVALID", "a schema must be an object or a boolean", { pointer });
  for (const k of REFUSED) {
    if (k in schema) throw new SchemaError("SCHEMA_UNSUPPORTED", `${k} is not supported (${KEYWORDS[k].note})`, { keyword: k, pointer });
  }
  ctx.depth++;
  const inlineBefore = ctx.inlineDepth;
  try {
    return ctx.reuse(schema, pointer, instancePath, () => compileSchemaObject(ctx, schema, pointer, instancePath));
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

/** A schema's non-empty list of branches (allOf/anyOf/oneOf). */
function branchesOf(node: SchemaNode, keyword: "allOf" | "anyOf" | "oneOf"): readonly unknown[] {
  const branches = node.get(keyword);
  if (branches === undefined || branches.length === 0) throw new SchemaError("SCHEMA_INVALID", `${keyword} must be a non-empty array`, { keyword, pointer: node.pointer });
  return branches;
}

function compileSchemaObject(ctx: CompileContext, raw: JsonSchemaObject, pointer: string, instancePath: string): Expr | null {
  const written = new SchemaNode(raw, pointer);
  if (written.has("$ref")) {
    const ref = written.get("$ref");
    if (ref === undefined) throw new SchemaError("SCHEMA_INVALID", "$ref must be a string", { keyword: "$ref", pointer });
    if (ctx.legacyRefs || !hasAssertions(raw, ["$ref"])) {
      const target = ctx.resolver.resolve(ref, raw, pointer);
      const hint = target.pointer.split("/").pop() || "root";
      return ctx.refRule(target.pointer, hint, () => compileNode(ctx, target.node, target.pointer, instancePath));
    }
    return compileNode(ctx, inlineRefs(ctx, raw, pointer), pointer, instancePath);
  }
  const normalized = normalizeNode(raw);
  if (normalized !== raw) {
    ctx.resolver.inheritBase(normalized, raw);
    ctx.report.derive(normalized, raw);
  }
  const node = normalized === raw ? written : new SchemaNode(normalized, pointer);
  if (node.has("allOf")) {
    // One branch that asserts anything and nothing beside it: that branch, as written (a `$ref`
    // stays a rule, so a recursive one needs no merging).
    const allOfBranches = branchesOf(node, "allOf");
    const asserting = allOfBranches.flatMap((b, i) => (b === true || (isRecord(b) && !hasAssertions(b, [])) ? [] : [i]));
    if (asserting.length === 1 && !hasAssertions(without(ctx, normalized, ["allOf"]), [])) {
      const i = asserting[0]!;
      return compileNode(ctx, allOfBranches[i], childPointer(pointer, "allOf", i), instancePath);
    }
    const branches = allOfBranches.map((b) => inlineRefs(ctx, b, pointer));
    const rest = inlineRefs(ctx, without(ctx, normalized, ["allOf"]), pointer);
    const parts = discriminatedConditionals(ctx, ownPropertiesFirst(raw, "allOf") ? [rest, ...branches] : [...branches, rest], pointer);
    const [first, ...others] = conditionalsApart(ctx, parts, pointer);
    let merged: JsonSchema = first!;
    for (const b of others) merged = mergeSchemas(ctx, merged, b, pointer);
    if (merged === false) return null;
    return compileNode(ctx, merged, pointer, instancePath);
  }
  if (CONDITIONAL.some((k) => node.has(k))) return compileConditional(ctx, node, instancePath);
  // Past the branch budget (or a size limit) the entries stay, and the object compiler reports them checked after decoding.
  const dependencies = dependentSchemasApart(normalized, !ctx.legacyRefs);
  if (dependencies !== undefined && branchCount(dependencies.rest) * 2 ** dependencies.alternatives.length <= LIMITS.maxBranches) {
    return unlessTooLarge(ctx, () => compileSchemaDependencies(ctx, node, dependencies, instancePath), () => compileWithoutDependencyRewriting(ctx, node, instancePath));
  }
  return compileWithoutDependencyRewriting(ctx, node, instancePath);
}

/** `attempt` (a rewriting), or when it compiles past a size limit, `before` from the grammar and report as they were. */
function unlessTooLarge(ctx: CompileContext, attempt: () => Expr | null, before: () => Expr | null): Expr | null {
  const restore = ctx.checkpoint();
  try {
    return attempt();
  } catch (err) {
    if (!(err instanceof SchemaError) || err.code !== "SCHEMA_TOO_LARGE") throw err;
    restore();
    return before();
  }
}

function compileWithoutDependencyRewriting(ctx: CompileContext, node: SchemaNode, instancePath: string): Expr | null {
  // An enum decides its `not` per value (values.ts); a string exclusion goes to the string token
  // (one of patterns only where the node admits strings only: other types fail it, compileNot says so).
  const exclusion = stringExclusion(node.get("not"));
  const toStringToken = exclusion !== undefined && (!excludesOtherTypes(exclusion) || onlyStrings(node.get("type")));
  // So does "not integer" among numbers (numbers.ts spells the non-integers), and "some entry" of objects (some-entry.ts).
  if (node.has("not") && !node.has("enum") && !toStringToken && !asksNonInteger(node) && !asksSomeEntry(node)) return compileNot(ctx, node, instancePath);
  const groups = (["anyOf", "oneOf"] as const).filter((k) => node.has(k));
  if (groups.length > 0) return compileAlternatives(ctx, node, groups, instancePath);
  return compileTyped(ctx, node, instancePath);
}

/** Replaces a top-level `$ref` by its target merged with the siblings (bounded nesting). */
function inlineRefs(ctx: CompileContext, schema: unknown, pointer: string): JsonSchema {
  if (typeof schema === "boolean") return schema;
  if (!isRecord(schema)) throw new SchemaError("SCHEMA_INVALID", "a schema must be an object or a boolean", { pointer });
  const ref = new SchemaNode(schema, pointer).peek("$ref");
  if (ref === undefined) return schema;
  if (++ctx.inlineDepth > LIMITS.maxInlineDepth) {
    throw new SchemaError("SCHEMA_UNSUPPORTED", "a recursive $ref inside allOf (or beside other keywords) cannot be merged", { keyword: "$ref", pointer });
  }
  const target = ctx.resolver.resolve(ref, schema, pointer);
  const rest = without(ctx, schema, ["$ref"]);
  const inlinedTarget = inlineRefs(ctx, target.node, target.pointer);
  if (ctx.legacyRefs) return inlinedTarget;
  return mergeInOrder(ctx, schema, "$ref", rest, inlinedTarget, pointer);
}

/**
 * The key order where the schema does not decide it (README, "Property order", as llguidance
 * documents it): a schema's own `properties` (then its `required` names not among them) and the
 * properties its in-place subschemas (`allOf` branches, a `$ref` target, an `anyOf`/`oneOf`
 * branch) bring merge left to right in the order the keywords are written. True when `raw`
 * writes its own `properties`/`required` before `keyword` (or has none).
 */
function ownPropertiesFirst(raw: JsonSchemaObject, keyword: string): boolean {
  const keys = Object.keys(raw);
  const own = keys.findIndex((k) => k === "properties" || k === "required");
  return own === -1 || own < keys.indexOf(keyword);
}

/** `rest` (the siblings of `keyword` in `raw`) merged with what `keyword` brings, in written order. */
function mergeInOrder(ctx: CompileContext, raw: JsonSchemaObject, keyword: string, rest: JsonSchema, brought: JsonSchema, pointer: string): JsonSchema {
  return ownPropertiesFirst(raw, keyword) ? mergeSchemas(ctx, rest, brought, pointer) : mergeSchemas(ctx, brought, rest, pointer);
}

function compileAlternatives(ctx: CompileContext, node: SchemaNode, groups: readonly ("anyOf" | "oneOf")[], instancePath: string): Expr | null {
  const pointer = node.pointer;
  // A oneOf's branches, made pairwise disjoint where that is exact (one-of.ts), become alternatives.
  const oneOf = groups.includes("oneOf") ? exactOneOfBranches(ctx, node.raw, without(ctx, node.raw, ["oneOf"]), branchesOf(node, "oneOf"), pointer) : undefined;
  const lists = (oneOfBranches: readonly unknown[] | undefined): (readonly unknown[])[] => groups.map((g) => (g === "oneOf" ? oneOfBranches! : branchesOf(node, g)));
  const rewriting = oneOf?.rewriting;
  if (rewriting === undefined) return compileCombinations(ctx, node, groups, lists(oneOf?.branches), instancePath);
  return unlessTooLarge(
    ctx,
    () => {
      rewriting.recordExact();
      return compileCombinations(ctx, node, groups, lists(oneOf!.branches), instancePath);
    },
    () => {
      rewriting.recordAsWritten();
      return compileCombinations(ctx, node, groups, lists(branchesOf(node, "oneOf")), instancePath);
    },
  );
}

/** Each combination of one branch per group, the siblings merged into each, as alternatives. */
function compileCombinations(ctx: CompileContext, node: SchemaNode, groups: readonly ("anyOf" | "oneOf")[], lists: readonly (readonly unknown[])[], instancePath: string): Expr | null {
  const pointer = node.pointer;
  const rest = without(ctx, node.raw, groups);
  const distribute = hasAssertions(rest, []) && !(groups.length === 1 && typeImpliedByEach(ctx, rest, lists[0]!, pointer));
  // Each combination of one branch per group, with the siblings merged in when there are any.
  let combos: { schema: unknown; pointer: string }[] = [{ schema: undefined, pointer }];
  groups.forEach((g, n) => {
    const branches = lists[n]!;
    if (combos.length * branches.length > LIMITS.maxBranches) {
      throw new SchemaError("SCHEMA_TOO_LARGE", `${groups.join(" and ")} multiply out to more than ${LIMITS.maxBranches} branches`, { keyword: g, pointer });
    }
    combos = combos.flatMap((c) =>
      branches.map((b, i) => ({
        schema: c.schema === undefined ? b : mergeSchemas(ctx, inlineRefs(ctx, c.schema, pointer), inlineRefs(ctx, b, pointer), pointer),
        pointer: groups.length === 1 ? childPointer(pointer, g, i) : pointer,
      })),
    );
  });
  const parts = combos.map((c) => {
    if (!distribute) return compileNode(ctx, c.schema, c.pointer, instancePath);
    const merged = mergeInOrder(ctx, node.raw, groups[0]!, rest, inlineRefs(ctx, c.schema, c.pointer), pointer);
    return compileNode(ctx, merged, pointer, instancePath);
  });
  // When every branch is empty, the last branch's reason (ctx.lastUnsat) explains it.
  return union(parts);
}

/**
 * Whether `rest` (the siblings of one anyOf/oneOf) asserts nothing but a `type` that every branch
 * already implies (the values it admits are all of those types): the branches then compile as
 * written, without merging the siblings into them (which a recursive `$ref` branch would need).
 */
function typeImpliedByEach(ctx: CompileContext, rest: JsonSchemaObject, branches: readonly unknown[], pointer: string): boolean {
  const types = new SchemaNode(rest, pointer).peek("type");
  if (types === undefined || hasAssertions(rest, ["type"])) return false;
  const prover = new DisjointnessProver(ctx, pointer);
  return branches.every((b) => {
    const known = prover.beside([b]);
    return [...known.types].every((t) => types.has(t) || (t === "number" && known.integral && types.has("integer")));
  });
}

function compileTyped(ctx: CompileContext, node: SchemaNode, instancePath: string): Expr | null {
  const types = node.get("type");
  if (node.has("enum")) return compileEnum(ctx, node, types);
  if (types === undefined && !hasAssertions(node.raw, [])) return ctx.anyValue();
  const has = (t: JsonType): boolean => types === undefined || types.has(t);
  const parts: (Expr | null)[] = [];
  if (has("null")) parts.push(lit("null"));
  if (has("boolean")) parts.push(union([lit("true"), lit("false")]));
  if (has("number")) parts.push(compileNumber(ctx, node));
  else if (has("integer")) parts.push(compileInteger(ctx, node));
  parts.push(compileStrings(ctx, node, has("string")));
  const sub = (schema: unknown, ptr: string, ipath: string): Expr | null => compileNode(ctx, schema, ptr, ipath);
  if (has("object")) parts.push(compileObject(ctx, node, instancePath, sub));
  if (has("array")) parts.push(compileArray(ctx, node, instancePath, sub));
  return union(parts);
}

const onlyStrings = (types: ReadonlySet<JsonType> | undefined): boolean => types !== undefined && types.size === 1 && types.has("string");

/**
 * The string part, minus what a `not` of strings or patterns excludes (the string token's
 * exclusion lists, exact; a format's grammar has none, and then the `not` is checked after decoding).
 */
function compileStrings(ctx: CompileContext, node: SchemaNode, admitted: boolean): Expr | null {
  const expr = admitted ? compileString(ctx, node) : null;
  const excluded = stringExclusion(node.get("not"));
  if (excluded === undefined) return expr;
  // A format's rule takes no exclusions; the same strings as one string token do.
  const narrowed = expr === null ? null : excludeStrings(expr, excluded) ?? mapDefined(formatStringToken(node), (token) => excludeStrings(token, excluded));
  const exact = narrowed !== undefined;
  ctx.report.verdict(node.raw, "not", exact, exact ? "excluded from the string token" : "a format without a pattern form cannot exclude values; checked after decoding", node.pointer);
  return exact ? narrowed : expr;
}

/**
 * `if`/`then`/`else` by their positive rewriting (conditional.ts) conjoined with the siblings.
 * Without one (no exact `not if`, or too many alternatives) the siblings alone are compiled and
 * the three keywords are checked after decoding.
 */
function compileConditional(ctx: CompileContext, node: SchemaNode, instancePath: string): Expr | null {
  const pointer = node.pointer;
  const rest = without(ctx, node.raw, CONDITIONAL);
  // Before draft 7 the keywords are not the grammar's to apply: left to the validator as before.
  const conditional = ctx.conditionals ? conditionalSchema(ctx, node.get("if"), node.get("then"), node.get("else"), pointer) : undefined;
  const exact = conditional !== undefined && branchCount(rest) * conditional.alternatives <= LIMITS.maxBranches;
  for (const k of CONDITIONAL) {
    if (node.has(k)) ctx.report.verdict(node.raw, k, exact, exact ? REWRITTEN : ctx.conditionals ? "no exact positive form of not-if; checked after decoding" : "not a keyword before draft 7; left to the validator", pointer);
  }
  if (!exact) return compileNode(ctx, rest, pointer, instancePath);
  recordConsumed(ctx, conditional.consumed, pointer);
  if (conditional.schema === true) return compileNode(ctx, rest, pointer, instancePath);
  const combined: JsonSchemaObject = { allOf: [rest, conditional.schema] };
  ctx.resolver.inheritBase(combined, node.raw);
  ctx.report.derive(combined, node.raw);
  return compileNode(ctx, combined, pointer, instancePath);
}

/** Dependent schemas that are not presence rules, each as "present and satisfying it, or absent" (dependencies.ts), conjoined with the rest. */
function compileSchemaDependencies(ctx: CompileContext, node: SchemaNode, dependencies: SchemaDependencies, instancePath: string): Expr | null {
  const pointer = node.pointer;
  for (const k of dependencies.keywords) ctx.report.verdict(node.raw, k, true, "dependent schemas rewritten as alternatives: the name written and the schema met, or the name absent", pointer);
  const rest = dependencies.rest;
  ctx.resolver.inheritBase(rest, node.raw);
  ctx.report.derive(rest, node.raw);
  const combined: JsonSchemaObject = { allOf: [rest, ...dependencies.alternatives] };
  ctx.resolver.inheritBase(combined, node.raw);
  ctx.report.derive(combined, node.raw);
  return compileNode(ctx, combined, pointer, instancePath);
}

/** anyOf/oneOf alternatives a schema multiplies out to. */
function branchCount(schema: JsonSchema): number {
  if (typeof schema === "boolean") return 1;
  const node = new SchemaNode(schema, "");
  return (["anyOf", "oneOf"] as const).reduce((n, g) => n * Math.max(1, node.peek(g)?.length ?? 1), 1);
}

/**
 * `not` by its positive rewriting (negate.ts) conjoined with the siblings. Without an exact one
 * (or when it would multiply the alternatives past the limit) the siblings alone are compiled and
 * the `not` is checked after decoding.
 */
function compileNot(ctx: CompileContext, node: SchemaNode, instancePath: string): Expr | null {
  const pointer = node.pointer;
  const rest = without(ctx, node.raw, ["not"]);
  const negation = negate(ctx, node.get("not"), pointer);
  if (negation === undefined || branchCount(rest) * branchCount(negation.schema) > LIMITS.maxBranches) {
    ctx.report.verdict(node.raw, "not", false, "no exact positive form; checked after decoding", pointer);
    return compileNode(ctx, rest, pointer, instancePath);
  }
  recordConsumed(ctx, [{ node: node.raw, keyword: "not" }, ...negation.consumed], pointer);
  // Alone, the rewriting compiles as it is (a `$ref` in it stays a rule, so recursion works).
  if (!hasAssertions(rest, [])) return compileNode(ctx, negation.schema, pointer, instancePath);
  return compileNode(ctx, mergeSchemas(ctx, rest, inlineRefs(ctx, negation.schema, pointer), pointer), pointer, instancePath);
}
