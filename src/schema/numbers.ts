/**
 * Numeric subschemas. Integers: `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` are
 * exact (a digit grammar of the range). Numbers: the grammar enforces only the sign (a lower
 * bound >= 0 forbids "-", so the non-canonical "-0" is refused too); the bounds themselves are
 * checked after decoding. `multipleOf` is always checked after decoding.
 */

import { SchemaError } from "../errors.js";
import { alt, chars, lit, optional, repeat, seq, type Expr } from "../grammar/ir.js";
import type { CompileContext } from "./context.js";
import { integerRange } from "./integer-range.js";
import type { JsonSchemaObject } from "./types.js";

interface Bounds {
  readonly min?: number;
  readonly exclusiveMin?: number;
  readonly max?: number;
  readonly exclusiveMax?: number;
}

function readBounds(node: JsonSchemaObject, pointer: string): Bounds {
  const get = (k: string): number | undefined => {
    const v = node[k];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v)) throw new SchemaError("SCHEMA_INVALID", `${k} must be a number`, { keyword: k, pointer });
    return v;
  };
  const m = get("multipleOf");
  if (m !== undefined && m <= 0) throw new SchemaError("SCHEMA_INVALID", "multipleOf must be greater than 0", { keyword: "multipleOf", pointer });
  return { min: get("minimum"), exclusiveMin: get("exclusiveMinimum"), max: get("maximum"), exclusiveMax: get("exclusiveMaximum") };
}

const toBig = (x: number): bigint => BigInt(x);

export function compileInteger(ctx: CompileContext, node: JsonSchemaObject, pointer: string): Expr | null {
  const b = readBounds(node, pointer);
  const los = [b.min !== undefined ? toBig(Math.ceil(b.min)) : undefined, b.exclusiveMin !== undefined ? toBig(Math.floor(b.exclusiveMin)) + 1n : undefined];
  const his = [b.max !== undefined ? toBig(Math.floor(b.max)) : undefined, b.exclusiveMax !== undefined ? toBig(Math.ceil(b.exclusiveMax)) - 1n : undefined];
  const lo = los.reduce<bigint | undefined>((acc, v) => (v === undefined ? acc : acc === undefined || v > acc ? v : acc), undefined);
  const hi = his.reduce<bigint | undefined>((acc, v) => (v === undefined ? acc : acc === undefined || v < acc ? v : acc), undefined);
  if (lo === undefined && hi === undefined) return ctx.library("json", "integer");
  const expr = integerRange(lo, hi);
  return expr ?? ctx.unsat(`no integer in [${lo ?? "-inf"}, ${hi ?? "inf"}]`, "minimum", pointer);
}

export function compileNumber(ctx: CompileContext, node: JsonSchemaObject, pointer: string): Expr | null {
  const b = readBounds(node, pointer);
  const lower = Math.max(b.min ?? -Infinity, b.exclusiveMin ?? -Infinity);
  const upper = Math.min(b.max ?? Infinity, b.exclusiveMax ?? Infinity);
  const strict = (b.exclusiveMin !== undefined && b.exclusiveMin >= lower) || (b.exclusiveMax !== undefined && b.exclusiveMax <= upper);
  if (lower > upper || (lower === upper && strict)) return ctx.unsat(`no number between ${lower} and ${upper}`, "minimum", pointer);
  // "minimum: 0" alone is exactly "no minus sign": the grammar then enforces it completely.
  const nonNegativeOnly = b.min === 0 && upper === Infinity && b.exclusiveMin === undefined;
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    if (!(k in node)) continue;
    if (nonNegativeOnly) ctx.report.set(pointer, k, "enforced", "no minus sign");
    else ctx.report.set(pointer, k, "validatedAfter", lower >= 0 ? "sign enforced by the grammar; bound checked after decoding" : "checked after decoding");
  }
  if (lower < 0) return ctx.library("json", "number");
  // No minus sign: an integer part without "-", then the library's fraction and exponent.
  const moreDigits = ctx.options.mode === "extraction" ? 15 : Infinity; // finite doubles, as in json.gbnf
  const intPart = alt(lit("0"), seq(chars([0x31, 0x39]), repeat(chars([0x30, 0x39]), 0, moreDigits)));
  return seq(intPart, optional(ctx.library("json", "fraction")), optional(ctx.library("json", "exponent")));
}
