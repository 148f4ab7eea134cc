/**
 * Integer ranges as digit grammars (the classic range-to-regex construction): the canonical
 * decimal forms (no leading zeros, no "-0", no "+") of exactly the integers in [lo, hi], either
 * end possibly unbounded. Works on bigint so bounds beyond 2^53 stay exact.
 */

import { alt, chars, lit, repeat, seq, type Expr } from "../grammar/index.js";
import { cat, union } from "./format.js";

export const DIGIT = chars([0x30, 0x39]);
/** One digit from a to b (0 <= a <= b <= 9). */
export const digitRange = (a: number, b: number): Expr => (a === b ? lit(String(a)) : chars([0x30 + a, 0x30 + b]));
const anyDigits = (n: number): Expr | null => (n === 0 ? null : repeat(DIGIT, n, n));

/** Digit strings of equal length from `lo` to `hi` (lexicographic = numeric order). */
function sameLength(lo: string, hi: string): Expr {
  if (lo === hi) return lit(lo);
  const n = lo.length;
  const a = Number(lo[0]);
  const b = Number(hi[0]);
  const restLo = lo.slice(1);
  const restHi = hi.slice(1);
  if (a === b) return cat(lit(lo.charAt(0)), sameLength(restLo, restHi));
  const loFull = /^0*$/.test(restLo); // lo's tail is the smallest tail
  const hiFull = /^9*$/.test(restHi); // hi's tail is the largest tail
  const parts: (Expr | null)[] = [];
  const midA = loFull ? a : a + 1;
  const midB = hiFull ? b : b - 1;
  if (!loFull) parts.push(cat(lit(lo.charAt(0)), sameLength(restLo, "9".repeat(n - 1))));
  if (midA <= midB) parts.push(cat(digitRange(midA, midB), anyDigits(n - 1)));
  if (!hiFull) parts.push(cat(lit(hi.charAt(0)), sameLength("0".repeat(n - 1), restHi)));
  return union(parts)!;
}

/** Canonical non-negative integers in [lo, hi]; hi undefined = unbounded (shared with number-range.ts). */
export function naturalRange(lo: bigint, hi: bigint | undefined): Expr | null {
  if (hi !== undefined && lo > hi) return null;
  const loS = lo.toString();
  const hiS = hi?.toString();
  if (hiS !== undefined && hiS.length === loS.length) return sameLength(loS, hiS);
  // lo's length, then every length strictly between as one repeat (one branch per length would
  // make the automaton quadratic in the bound's length), then hi's length.
  const maxBetween = hiS === undefined ? Infinity : hiS.length - 1;
  return union([
    sameLength(loS, "9".repeat(loS.length)),
    loS.length < maxBetween ? seq(chars([0x31, 0x39]), repeat(DIGIT, loS.length, maxBetween - 1)) : null,
    hiS === undefined ? null : sameLength(`1${"0".repeat(hiS.length - 1)}`, hiS),
  ]);
}

/** Canonical decimal integers in [lo, hi] (undefined = unbounded on that side). */
export function integerRange(lo: bigint | undefined, hi: bigint | undefined): Expr | null {
  if (lo !== undefined && hi !== undefined && lo > hi) return null;
  const parts: (Expr | null)[] = [];
  if (lo === undefined || lo < 0n) {
    // Negative part: -x for x in [max(1, -hi), -lo].
    const absLo = hi === undefined || hi >= 0n ? 1n : -hi;
    const absHi = lo === undefined ? undefined : -lo;
    const neg = naturalRange(absLo, absHi);
    if (neg !== null) parts.push(cat(lit("-"), neg));
  }
  if (hi === undefined || hi >= 0n) parts.push(naturalRange(lo === undefined || lo < 0n ? 0n : lo, hi));
  const [negative, natural] = parts;
  return parts.length === 2 && negative && natural ? alt(natural, negative) : union(parts);
}
