/**
 * Numeric subschemas. `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` are exact:
 * integers as a digit grammar of the integer range (integer-range.ts), numbers as a digit grammar
 * of the decimal range (number-range.ts, which says which decimal a bound stands for). A bounded
 * number is written without exponent (100, not 1e2) unless its bounds only fix the sign (each end
 * 0 or absent): scaling by 10^k keeps the sign and zero, so the exponent stays allowed there.
 * Extraction mode keeps json.gbnf's finite numbers (at most 16 integer digits) for bounded ones
 * too. `multipleOf` is always checked after decoding.
 */

import { SchemaError } from "../errors.js";
import { optional, type Expr } from "../grammar/index.js";
import { keywordsWhere, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { integerRange } from "./integer-range.js";
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
  const lo = greatest([b.min !== undefined ? BigInt(Math.ceil(b.min)) : undefined, b.exclusiveMin !== undefined ? BigInt(Math.floor(b.exclusiveMin)) + 1n : undefined]);
  const hi = least([b.max !== undefined ? BigInt(Math.floor(b.max)) : undefined, b.exclusiveMax !== undefined ? BigInt(Math.ceil(b.exclusiveMax)) - 1n : undefined]);
  if (lo === undefined && hi === undefined) return ctx.library("json", "integer");
  const cap = ctx.extraction ? 10n ** BigInt(FINITE_INT_DIGITS) - 1n : undefined;
  const from = greatest([lo, cap === undefined ? undefined : -cap]);
  const to = least([hi, cap]);
  const expr = integerRange(from, to);
  return expr ?? ctx.unsat(`no integer in [${from ?? "-inf"}, ${to ?? "inf"}]`, "minimum", pointer);
}

/** One side's bound from its inclusive and exclusive keywords: the tighter (exclusive on a tie). */
function tighter(inclusive: number | undefined, exclusive: number | undefined, lower: boolean): NumberBound | undefined {
  if (exclusive === undefined) return inclusive === undefined ? undefined : { value: inclusive, inclusive: true };
  if (inclusive === undefined) return { value: exclusive, inclusive: false };
  const inclusiveWins = lower ? inclusive > exclusive : inclusive < exclusive;
  return inclusiveWins ? { value: inclusive, inclusive: true } : { value: exclusive, inclusive: false };
}

export function compileNumber(ctx: CompileContext, node: SchemaNode): Expr | null {
  const pointer = node.pointer;
  const b = readBounds(node);
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
