/**
 * Numeric subschemas. `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` are exact:
 * integers as a digit grammar of the integer range (integer-range.ts), numbers as a digit grammar
 * of the decimal range (number-range.ts, which says which decimal a bound stands for). A bounded
 * number is written without exponent (100, not 1e2) unless its bounds only fix the sign (each end
 * 0 or absent): scaling by 10^k keeps the sign and zero, so the exponent stays allowed there.
 * Extraction mode keeps json.gbnf's finite numbers (at most 16 integer digits) for bounded ones
 * too. `multipleOf` is a digit grammar intersected with the bounds where multiple-of.ts can state
 * it, and is checked after decoding otherwise.
 *
 * From draft 6 on, an integer is any number with a zero fractional part: 2.0 is one (ajv agrees
 * in every draft, since JSON.parse makes it 2). Integers may then be written with a zero fraction
 * of at most FRACTION_ZEROS zeros; drafts 3 and 4 (an integer has no fraction) keep them bare.
 */

import { SchemaError } from "../errors.js";
import { optional, type Expr } from "../grammar/index.js";
import { keywordsWhere, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { integerRange } from "./integer-range.js";
import { reportUse } from "./keyword-uses.js";
import { FRACTION_ZEROS, multipleOfExpr, zeroFractionExpr } from "./multiple-of.js";
import { compileNonInteger, asksNonInteger } from "./non-integer.js";
import { numberRange, type NumberBound } from "./number-range.js";

interface Bounds {
  readonly min?: number;
  readonly exclusiveMin?: number;
  readonly max?: number;
  readonly exclusiveMax?: number;
}

/** The bounds of a normalized node (exclusive bounds are numbers there). */
function readBounds(node: SchemaNode): Bounds {
  const m = node.get("multipleOf");
  if (m !== undefined && m <= 0) throw new SchemaError("SCHEMA_INVALID", "multipleOf must be greater than 0", { keyword: "multipleOf", pointer: node.pointer });
  const exclusive = (k: "exclusiveMinimum" | "exclusiveMaximum"): number | undefined => {
    const v = node.get(k);
    if (typeof v === "boolean") throw new SchemaError("SCHEMA_INVALID", `${k} must be a number`, { keyword: k, pointer: node.pointer });
    return v;
  };
  return { min: node.get("minimum"), exclusiveMin: exclusive("exclusiveMinimum"), max: node.get("maximum"), exclusiveMax: exclusive("exclusiveMaximum") };
}

/** Integer digits of extraction mode's finite numbers (finite-integer in grammars/json.gbnf). */
const FINITE_INT_DIGITS = 16;
const BOUND_KEYWORDS = keywordsWhere((s) => s.instance === "number" && s.bound !== undefined);

const greatest = (xs: readonly (bigint | undefined)[]): bigint | undefined =>
  xs.reduce<bigint | undefined>((acc, v) => (v === undefined ? acc : acc === undefined || v > acc ? v : acc), undefined);
const least = (xs: readonly (bigint | undefined)[]): bigint | undefined =>
  xs.reduce<bigint | undefined>((acc, v) => (v === undefined ? acc : acc === undefined || v < acc ? v : acc), undefined);

export function compileInteger(ctx: CompileContext, node: SchemaNode): Expr | null {
  const pointer = node.pointer;
  const b = readBounds(node);
  const multiple = compileMultipleOf(ctx, node, b, true);
  if (multiple !== undefined) return multiple;
  const lo = greatest([b.min !== undefined ? BigInt(Math.ceil(b.min)) : undefined, b.exclusiveMin !== undefined ? BigInt(Math.floor(b.exclusiveMin)) + 1n : undefined]);
  const hi = least([b.max !== undefined ? BigInt(Math.floor(b.max)) : undefined, b.exclusiveMax !== undefined ? BigInt(Math.ceil(b.exclusiveMax)) - 1n : undefined]);
  const fraction = ctx.zeroFractionIntegers ? zeroFractionExpr() : null;
  if (lo === undefined && hi === undefined) return cat(ctx.library("json", "integer"), fraction);
  const cap = ctx.extraction ? 10n ** BigInt(FINITE_INT_DIGITS) - 1n : undefined;
  const from = greatest([lo, cap === undefined ? undefined : -cap]);
  const to = least([hi, cap]);
  const expr = integerRange(from, to);
  return expr === null ? ctx.unsat(`no integer in [${from ?? "-inf"}, ${to ?? "inf"}]`, "minimum", pointer) : cat(expr, fraction);
}

/** One side's bound from its inclusive and exclusive keywords: the tighter (exclusive on a tie). */
function tighter(inclusive: number | undefined, exclusive: number | undefined, lower: boolean): NumberBound | undefined {
  if (exclusive === undefined) return inclusive === undefined ? undefined : { value: inclusive, inclusive: true };
  if (inclusive === undefined) return { value: exclusive, inclusive: false };
  const inclusiveWins = lower ? inclusive > exclusive : inclusive < exclusive;
  return inclusiveWins ? { value: inclusive, inclusive: true } : { value: exclusive, inclusive: false };
}

export function compileNumber(ctx: CompileContext, node: SchemaNode): Expr | null {
  if (asksNonInteger(node)) return compileNonInteger(ctx, node, () => compileNumberRange(ctx, node));
  return compileNumberRange(ctx, node);
}

function compileNumberRange(ctx: CompileContext, node: SchemaNode): Expr | null {
  const pointer = node.pointer;
  const b = readBounds(node);
  const multiple = compileMultipleOf(ctx, node, b, false);
  if (multiple !== undefined) return multiple;
  const lo = tighter(b.min, b.exclusiveMin, true);
  const hi = tighter(b.max, b.exclusiveMax, false);
  if (lo === undefined && hi === undefined) return ctx.library("json", "number");
  const signOnly = (lo?.value ?? 0) === 0 && (hi?.value ?? 0) === 0;
  const note = signOnly ? undefined : "exact for numbers written without exponent; exponent spellings (1e2) are refused";
  for (const k of BOUND_KEYWORDS) if (node.has(k)) ctx.report.set(pointer, k, "enforced", note);
  const range = numberRange(lo, hi, ctx.extraction ? FINITE_INT_DIGITS : Infinity);
  if (range === null) return ctx.unsat(`no number between ${lo?.value ?? "-inf"} and ${hi?.value ?? "inf"}`, "minimum", pointer);
  return signOnly ? cat(range, optional(ctx.library("json", "exponent"))) : range;
}

/**
 * The multiples of `multipleOf` within the bounds (multiple-of.ts), or undefined without one:
 * then the caller compiles the bounds alone, and `multipleOf` (when present) is checked after
 * decoding.
 */
function compileMultipleOf(ctx: CompileContext, node: SchemaNode, b: Bounds, integer: boolean): Expr | null | undefined {
  const m = node.get("multipleOf");
  if (m === undefined) return undefined;
  const pointer = node.pointer;
  const spec = { multipleOf: m, lo: tighter(b.min, b.exclusiveMin, true), hi: tighter(b.max, b.exclusiveMax, false), integer, zeroFraction: !integer || ctx.zeroFractionIntegers };
  const expr = multipleOfExpr(spec, ctx.rules);
  if (expr === undefined) {
    reportUse(ctx, pointer, "multipleOf", false, "a fractional divisor with prime factors other than 2 and 5 (or an integral one past the remainder rules' bounds) over a wide range; checked after decoding");
    return undefined;
  }
  reportUse(ctx, pointer, "multipleOf", true, `exact decimal multiples written without exponent, at most 15 significant digits and ${FRACTION_ZEROS} trailing zeros`);
  for (const k of BOUND_KEYWORDS) if (node.has(k)) ctx.report.set(pointer, k, "enforced", "intersected with multipleOf");
  if (expr === null) return ctx.unsat(`no multiple of ${m} in range`, "multipleOf", pointer);
  return expr;
}
