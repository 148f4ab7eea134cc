/**
 * `if`/`then`/`else` as alternatives the grammar can enforce: an instance is valid when it
 * satisfies `if` and `then`, or `not if` and `else`. With `not if` in an exact positive form
 * (negate.ts: a discriminating `const`, a `required` name, a type, a bound ...) that is
 * `anyOf: [{allOf: [if, then]}, {allOf: [not-if, else]}]`, exact as it stands. A missing
 * branch is `true`, which simplifies: without `then` the condition is `if or else` (no negation
 * needed), without `else` it is `then or not-if`, and without `if` (or without both branches)
 * the keywords say nothing.
 */

import { isRecord, type JsonSchema } from "../schema/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { negate } from "./negate.js";

export interface Conditional {
  /** What the three keywords ask of the instance, as one positive schema (`true`: nothing). */
  readonly schema: JsonSchema;
  /** Nodes whose own `not` the negation of `if` took apart (exact in this use). */
  readonly consumed: readonly object[];
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
  const built = (schema: JsonSchema, consumed: readonly object[]): Conditional => ({ schema, consumed, alternatives: alternativesOf(schema) });
  if (thenSchema === undefined) return built({ anyOf: [condition, elseSchema as JsonSchema] }, []);
  const negation = negate(ctx, ifSchema, pointer);
  if (negation === undefined) return undefined;
  const otherwise: JsonSchema = elseSchema === undefined ? negation.schema : { allOf: [negation.schema, elseSchema as JsonSchema] };
  return built({ anyOf: [{ allOf: [condition, thenSchema as JsonSchema] }, otherwise] }, negation.consumed);
}
