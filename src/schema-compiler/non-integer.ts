/**
 * Numbers that are not integers: `{type: "number", not: {type: "integer"}}`, the form negate.ts
 * gives "not integer" among numbers. No keyword says it positively, so the number compiler
 * spells it itself: an optional minus, an integer part, a point and a fraction ending in a
 * non-zero digit, at most MAX_DIGITS digits in all, no exponent. Every such text is a
 * non-integer: a decimal of at most 15 significant digits survives the round trip through a
 * double (DBL_DIG), so it does not become the integer next to it, as 1.00000000000000001 would
 * (JSON.parse makes that 1). The restriction is one of spelling: every non-integer written with at
 * most 15 digits (its trailing zeros dropped) is there; longer spellings (0.30000000000000004) and
 * exponents are refused, as for bounded numbers.
 */

import { chars, lit, optional, repeat, type Expr } from "../grammar/index.js";
import { isRecord, keywordsWhere, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";

/** Digits a non-integer may be written with (integer part and fraction together). */
export const MAX_DIGITS = 15;

const digit = (): Expr => chars([0x30, 0x39]);
const nonZero = (): Expr => chars([0x31, 0x39]);

/** Whether `node` asks for numbers that are not integers: type number and `not: {type: "integer"}` (nothing else in the `not`). */
export function asksNonInteger(node: SchemaNode): boolean {
  const not = node.get("not");
  const types = node.get("type");
  return isRecord(not) && Object.keys(not).length === 1 && not.type === "integer" && types !== undefined && types.size === 1 && types.has("number");
}

/** Keywords that narrow numbers (bounds, multipleOf): not intersected with the non-integers here. */
const NUMBER_KEYWORDS = keywordsWhere((s) => s.instance === "number");

/**
 * The non-integers `node` asks for (asksNonInteger); beside bounds or multipleOf, the numbers
 * `plain` compiles, with the `not` checked after decoding.
 */
export function compileNonInteger(ctx: CompileContext, node: SchemaNode, plain: () => Expr | null): Expr | null {
  const narrowed = NUMBER_KEYWORDS.some((k) => node.has(k));
  const note = narrowed ? "not integer beside bounds or multipleOf: checked after decoding" : `not integer: numbers written with a fraction ending in a non-zero digit, at most ${MAX_DIGITS} digits, no exponent`;
  ctx.report.verdict(node.raw, "not", !narrowed, note, node.pointer);
  return narrowed ? plain() : nonIntegerExpr();
}

/** The non-integers as written above. */
export function nonIntegerExpr(): Expr {
  const withIntegerDigits = (k: number): Expr => {
    const integerPart = k === 1 ? digit() : cat(nonZero(), repeat(digit(), k - 1, k - 1));
    return cat(integerPart, lit("."), repeat(digit(), 0, MAX_DIGITS - k - 1), nonZero());
  };
  const parts = Array.from({ length: MAX_DIGITS - 1 }, (_, i) => withIntegerDigits(i + 1));
  return cat(optional(lit("-")), union(parts)!);
}
