/**
 * Number ranges as digit grammars: exactly the JSON number spellings without exponent
 * (`-?(0|[1-9][0-9]*)(.[0-9]+)?`, so trailing zeros such as 1.50 and the zero spellings -0, 0.0
 * included) whose value lies in a range, either end possibly open or unbounded.
 *
 * Values are compared exactly, as decimals (the JSON Schema meaning). A bound is a JS number and
 * stands for its shortest round-trip decimal, `String(x)`: maximum 0.1 means 0.1, not the double's
 * binary expansion 0.1000000000000000055... ajv compares doubles after JSON.parse; the two agree on
 * every text of at most 15 significant digits (two such decimals never round to the same double,
 * and no shorter decimal than `String(x)` rounds to x). They can differ only on a longer text within
 * half an ulp of the bound: maximum 0.1 refuses 0.10000000000000001 (ajv accepts: it parses to 0.1),
 * exclusiveMinimum 0.1 accepts 0.10000000000000000001 (ajv refuses).
 */

import { chars, empty, lit, repeat, seq, type Expr } from "../grammar/index.js";
import { cat, union } from "./format.js";
import { DIGIT, digitRange, naturalRange } from "./integer-range.js";
import { decimalDigits } from "../util/index.js";

/** One end of a range: a finite JS number, and whether that value itself is in the range. */
export interface NumberBound {
  readonly value: number;
  readonly inclusive: boolean;
}

/** A non-negative decimal: integer digits without leading zeros ("0" for zero), fraction digits
 *  without trailing zeros, and whether the value itself is allowed. */
interface Magnitude {
  readonly int: string;
  readonly frac: string;
  readonly inclusive: boolean;
}

/** Fraction digits a bound still constrains: the text read so far equals the bound's digits. */
interface Tight {
  readonly digits: string;
  readonly inclusive: boolean;
}

const ZERO: Magnitude = { int: "0", frac: "", inclusive: true };
const NONZERO = chars([0x31, 0x39]);
const anyDigits = (min: number): Expr => repeat(DIGIT, min, Infinity);
const zeros = (min: number): Expr => repeat(lit("0"), min, Infinity);
/** `text` followed by `rest`, or null when `rest` is the empty language. */
const prefixed = (text: string, rest: Expr | null): Expr | null => (rest === null ? null : cat(lit(text), rest));

/** |x| as exact decimal digits of its shortest round-trip form (util/decimal.ts). */
function magnitudeOf(x: number, inclusive: boolean): Magnitude {
  return { ...decimalDigits(x), inclusive };
}

function compareMagnitudes(a: Magnitude, b: Magnitude): number {
  if (a.int.length !== b.int.length) return a.int.length - b.int.length;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  const n = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(n, "0");
  const fb = b.frac.padEnd(n, "0");
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

const isZero = (m: Magnitude): boolean => m.int === "0" && m.frac === "";
const tight = (m: Magnitude): Tight => ({ digits: m.frac, inclusive: m.inclusive });

/** Whether the fraction may stop after i digits (its value is then the digits read so far). */
function endsHere(i: number, lo: Tight | undefined, hi: Tight | undefined): boolean {
  const aboveLo = lo === undefined || (i >= lo.digits.length && lo.inclusive);
  const belowHi = hi === undefined || i < hi.digits.length || hi.inclusive;
  return aboveLo && belowHi;
}

/**
 * Fraction digits from position i on (at least one when i = 0) with 0.lo <= 0.F <= 0.hi; a bound
 * is undefined once the digits read differ from it (then any tail keeps that side satisfied).
 * Linear in the bounds' lengths: each position has one state tied to lo and one tied to hi.
 */
function fractionDigits(i: number, lo: Tight | undefined, hi: Tight | undefined): Expr | null {
  const min = i === 0 ? 1 : 0;
  // Equal to an inclusive lo so far and past its last digit: every tail is >= lo.
  const low = lo !== undefined && lo.inclusive && i >= lo.digits.length ? undefined : lo;
  // Equal to hi so far and past its last digit: only zeros keep the value <= hi.
  if (hi !== undefined && i >= hi.digits.length) return low === undefined && hi.inclusive ? zeros(min) : null;
  if (hi === undefined && low === undefined) return anyDigits(min);
  // Equal to an exclusive lo and past its last digit: some nonzero digit must follow.
  if (hi === undefined && low !== undefined && i >= low.digits.length) return seq(zeros(0), NONZERO, anyDigits(0));
  const l = low === undefined ? -1 : Number(low.digits[i] ?? "0");
  const h = hi === undefined ? 10 : Number(hi.digits[i]);
  if (l === h) return prefixed(String(l), fractionDigits(i + 1, low, hi));
  return union([
    i > 0 && endsHere(i, low, hi) ? empty() : null,
    l >= 0 ? prefixed(String(l), fractionDigits(i + 1, low, undefined)) : null,
    l + 1 <= h - 1 ? cat(digitRange(l + 1, h - 1), anyDigits(0)) : null,
    h <= 9 ? prefixed(String(h), fractionDigits(i + 1, undefined, hi)) : null,
  ]);
}

/** The optional fraction (none, or "." and digits) of the values 0.F in [0.lo, 0.hi]. */
function fraction(lo: Tight | undefined, hi: Tight | undefined): Expr | null {
  return union([endsHere(0, lo, hi) ? empty() : null, prefixed(".", fractionDigits(0, lo, hi))]);
}

/** Unsigned spellings of the values in [lo, hi] (hi undefined = unbounded). */
function magnitudeRange(lo: Magnitude, hi: Magnitude | undefined): Expr | null {
  if (hi !== undefined) {
    const c = compareMagnitudes(lo, hi);
    if (c > 0 || (c === 0 && !(lo.inclusive && hi.inclusive))) return null;
    if (lo.int === hi.int) return prefixed(lo.int, fraction(tight(lo), tight(hi)));
  }
  // lo's integer part with a fraction above lo's, the integers strictly between with any
  // fraction, hi's integer part with a fraction below hi's.
  const between = naturalRange(BigInt(lo.int) + 1n, hi === undefined ? undefined : BigInt(hi.int) - 1n);
  return union([
    prefixed(lo.int, fraction(tight(lo), undefined)),
    between === null ? null : cat(between, fraction(undefined, undefined)),
    hi === undefined ? null : prefixed(hi.int, fraction(undefined, tight(hi))),
  ]);
}

/**
 * JSON number spellings without exponent whose value is in [lo, hi] (undefined = unbounded), with
 * at most `maxIntDigits` integer digits (extraction mode's finite numbers). Null when none is.
 */
export function numberRange(lo: NumberBound | undefined, hi: NumberBound | undefined, maxIntDigits = Infinity): Expr | null {
  const cap = Number.isFinite(maxIntDigits) ? { int: `1${"0".repeat(maxIntDigits)}`, frac: "", inclusive: false } : undefined;
  const clip = (m: Magnitude | undefined): Magnitude | undefined => (cap === undefined || (m !== undefined && compareMagnitudes(m, cap) < 0) ? m : cap);
  const low = lo === undefined ? undefined : magnitudeOf(lo.value, lo.inclusive);
  const high = hi === undefined ? undefined : magnitudeOf(hi.value, hi.inclusive);
  const lowNegative = lo !== undefined && lo.value < 0;
  const highNegative = hi !== undefined && hi.value < 0;
  // Without "-": values in [max(lo, 0), hi].
  const plain = highNegative ? null : magnitudeRange(low === undefined || lowNegative ? ZERO : low, clip(high));
  // With "-" (-0 and -0.0 are zero): magnitudes m with -m in range, i.e. in [max(-hi, 0), -lo].
  const lowPositive = low !== undefined && !lowNegative && !isZero(low);
  const highNonPositive = high !== undefined && (highNegative || isZero(high));
  const minus = lowPositive ? null : magnitudeRange(highNonPositive ? high : ZERO, clip(low));
  return union([plain, prefixed("-", minus)]);
}
