/**
 * `if`/`then`/`else` as alternatives the grammar can enforce: an instance is valid when it
 * satisfies `if` and `then`, or `not if` and `else`. With `not if` in an exact positive form
 * (negate.ts: a discriminating `const`, a `required` name, a type, a bound ...) that is
 * `anyOf: [{allOf: [if, then]}, {allOf: [not-if, else]}]`, exact as it stands. A missing
 * branch is `true`, which simplifies: without `then` the condition is `if or else` (no negation
 * needed), without `else` it is `then or not-if`, and without `if` (or without both branches)
 * the keywords say nothing.
 */

import { isRecord, keywordsWhere, type JsonSchema } from "../schema/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { negate, recordConsumed, type Consumed } from "./negate.js";

export interface Conditional {
  /** What the three keywords ask of the instance, as one positive schema (`true`: nothing). */
  readonly schema: JsonSchema;
  /** Keyword occurrences the negation of `if` took apart (exact in this use). */
  readonly consumed: readonly Consumed[];
  /** An upper estimate of the alternatives the schema multiplies out to once merged. */
  readonly alternatives: number;
}

/** Alternatives a schema multiplies out to when its allOf parts merge (anyOf/oneOf add up
 *  inside a list and multiply across lists and allOf parts); `$ref` targets count as one. */
function alternativesOf(schema: unknown, depth = 0): number {
  if (!isRecord(schema) || depth > LIMITS.maxInlineDepth) return 1;
  const sum = (list: unknown): number => (Array.isArray(list) ? Math.max(1, list.reduce((n: number, s) => n + alternativesOf(s, depth + 1), 0)) : 1);
  const product = Array.isArray(schema.allOf) ? schema.allOf.reduce((n: number, s) => n * alternativesOf(s, depth + 1), 1) : 1;
  return product * sum(schema.anyOf) * sum(schema.oneOf);
}

/** `if`/`then`/`else` as one positive schema; undefined when `not if` has no exact positive form. */
export function conditionalSchema(ctx: CompileContext, ifSchema: unknown, thenSchema: unknown, elseSchema: unknown, pointer: string): Conditional | undefined {
  if (ifSchema === undefined || (thenSchema === undefined && elseSchema === undefined)) return { schema: true, consumed: [], alternatives: 1 };
  const condition = ifSchema as JsonSchema;
  const built = (schema: JsonSchema, consumed: readonly Consumed[]): Conditional => ({ schema, consumed, alternatives: alternativesOf(schema) });
  if (thenSchema === undefined) return built({ anyOf: [condition, elseSchema as JsonSchema] }, []);
  const negation = negate(ctx, ifSchema, pointer);
  if (negation === undefined) return undefined;
  const otherwise: JsonSchema = elseSchema === undefined ? negation.schema : { allOf: [negation.schema, elseSchema as JsonSchema] };
  return built({ anyOf: [{ allOf: [condition, thenSchema as JsonSchema] }, otherwise] }, negation.consumed);
}

/** `if`, `then`, `else`. */
export const CONDITIONAL = keywordsWhere((s) => s.family === "conditional");

export const hasConditional = (schema: unknown): boolean => isRecord(schema) && CONDITIONAL.some((k) => k in schema);

/**
 * allOf parts of which several have `if`/`then`/`else`: one merged node holds only one of each
 * keyword, so every part after the first with one carries its rewriting instead (as an allOf
 * of its own, merged in turn). A part without an exact rewriting stays as it is (the merge then
 * keeps the first and reports the second).
 */
export function conditionalsApart(ctx: CompileContext, parts: readonly JsonSchema[], pointer: string): readonly JsonSchema[] {
  // Most allOfs have at most one part with a conditional: nothing to rewrite, and no need to
  // count alternatives (this runs for every allOf the oneOf and negation rewritings compile again).
  if (!ctx.conditionals || !severalConditionals(parts)) return parts;
  // Alternatives the merged parts multiply out to, and the share the rewritings add: each
  // alternative compiles the whole merged object again (its properties count against
  // maxSchemaProperties), so rewritings stop well before the branch limit.
  let product = parts.reduce((n: number, p) => n * alternativesOf(p) * (hasConditional(p) ? 2 : 1), 1);
  let added = 1;
  let first = true;
  return parts.map((part) => {
    if (!isRecord(part) || !hasConditional(part)) return part;
    if (first) {
      first = false;
      added *= 2;
      return part;
    }
    const conditional = conditionalSchema(ctx, part.if, part.then, part.else, pointer);
    if (conditional === undefined) return part;
    const factor = conditional.alternatives / 2;
    if (product * factor > LIMITS.maxBranches || added * conditional.alternatives > MAX_REWRITTEN_ALTERNATIVES) return part;
    product *= factor;
    added *= conditional.alternatives;
    for (const k of CONDITIONAL) if (k in part) ctx.report.verdict(part, k, true, REWRITTEN, pointer);
    recordConsumed(ctx, conditional.consumed, pointer);
    const rest: { [k: string]: unknown } = { ...part };
    for (const k of CONDITIONAL) delete rest[k];
    const out = { allOf: [rest, conditional.schema] };
    ctx.resolver.inheritBase(out, part);
    ctx.resolver.inheritBase(rest, part);
    ctx.report.derive(rest, part);
    return out;
  });
}

function severalConditionals(parts: readonly JsonSchema[]): boolean {
  let seen = 0;
  for (const part of parts) if (hasConditional(part) && ++seen === 2) return true;
  return false;
}

/** Alternatives the rewritten conditionals of one allOf may multiply out to together. */
const MAX_REWRITTEN_ALTERNATIVES = 16;

export const REWRITTEN = "rewritten as alternatives: (if and then) or (not if and else)";
