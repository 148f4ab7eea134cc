/**
 * `multipleOf` as a digit grammar, intersected with the range bounds. A divisor m is an exact
 * decimal M / 10^k (its shortest round-trip form, as number-range.ts reads bounds), so a value x
 * is a multiple of m exactly when X = x * 10^k is an integer divisible by M: the JSON Schema
 * meaning, decided on the text. For an integer schema only integers count, i.e. multiples of
 * M / gcd(M, 10^k) with k = 0.
 *
 * When M = 2^a * 5^b, divisibility by M depends only on X's last t = max(a, b, k) digits (M
 * divides 10^t), which also hold the k fraction digits: X = Q * 10^t + T, and the grammar is the
 * range of Q (integer-range.ts) followed by the tails T that are multiples of M, a digit tree
 * with the decimal point inserted k digits from the end. Other divisors (3, 7, 12 ...) need the
 * remainder of the whole digit string: their multiples are listed one by one when a bounded range
 * holds few of them. Otherwise, for an integral divisor (k = 0) up to MAX_RESIDUE_MODULUS, the
 * range is cut into blocks "prefix P, then n free digits" (the classic range-to-regex split) and
 * the free digits are rules that carry the remainder left to make up, "n digits whose value is t
 * mod M": at most 14 * M rules (MAX_REMAINDER_RULES), shared by every block and every use of M in
 * the schema. Fractional divisors with other prime factors (0.3, 1.5) over a wide range are left
 * to the check after decoding (the caller reports it).
 *
 * Texts are written without exponent and with |X| < 10^15: at most 15 significant digits, which
 * a double round-trips, so the decoded value is the text's value, and the validator decides
 * `multipleOf` on the same decimals (src/validate; ajv's float test `x / m` would refuse 0.07
 * for 0.01, 7.000000000000001 in floating point). An integral value may be spelled with
 * a zero fraction (4.0) when `zeroFraction` allows it, with at most FRACTION_ZEROS zeros after
 * its last nonzero digit, so a model cannot pad a number forever.
 */

import { chars, empty, lit, optional, ref, repeat, type Expr } from "../grammar/index.js";
import { cat, union } from "./format.js";
import { naturalRange } from "./integer-range.js";
import { exactDecimal } from "../util/index.js";
import type { NumberBound } from "./number-range.js";

/** Largest |value * 10^k| the grammar writes (15 digits: what a double round-trips). */
export const MAX_SCALED = 10n ** 15n - 1n;
/** Zeros allowed after a value's last significant fraction digit (2.50, 2.0). */
export const FRACTION_ZEROS = 16;
/** Most tails (multiples of M below 10^t) one digit tree may hold. */
const MAX_TAILS = 10_000;
/** Most values a bounded range may list for a divisor with other prime factors than 2 and 5. */
const MAX_LISTED = 256;
/** Largest integral divisor written through remainder rules (at most 14 rules per remainder). */
const MAX_RESIDUE_MODULUS = 100n;
/**
 * Most remainder rules one range may need. Each is built as a small automaton of its own, so
 * compile time grows with them, up to about 1 ms each on a first compile (over any range 7 needs
 * about 100, 13 about 180, 31 about 430: refused, it took 240 ms).
 */
const MAX_REMAINDER_RULES = 200;

export interface MultipleOfSpec {
  readonly multipleOf: number;
  readonly lo?: NumberBound;
  readonly hi?: NumberBound;
  /** Only integral values (type integer). */
  readonly integer: boolean;
  /** An integral value may also be written with a zero fraction (4.0). */
  readonly zeroFraction: boolean;
}

/** `.0`, `.00`, ... : the zero fraction an integral value may be written with. */
export const zeroFractionExpr = (): Expr => optional(cat(lit("."), repeat(lit("0"), 1, FRACTION_ZEROS)));

/**
 * The JSON number texts whose value is a multiple of `multipleOf` within the bounds; null when
 * there is none, undefined when the grammar cannot state the set (the caller validates after).
 * Remainder rules, where they are needed, go into `rules` (named after the divisor, so uses of one
 * divisor share them).
 */
export function multipleOfExpr(spec: MultipleOfSpec, rules: Map<string, Expr>): Expr | null | undefined {
  const divisor = exactDecimal(spec.multipleOf);
  let M = divisor.digits;
  let k = divisor.scale;
  if (spec.integer) {
    M /= gcd(M, 10n ** BigInt(k));
    k = 0;
  }
  const lo = spec.lo === undefined ? -MAX_SCALED : max(scaledBound(spec.lo, k, true), -MAX_SCALED);
  const hi = spec.hi === undefined ? MAX_SCALED : min(scaledBound(spec.hi, k, false), MAX_SCALED);
  if (lo > hi) return null;
  const writer = new MultipleWriter(M, k, spec.zeroFraction, rules);
  const { twos, fives, rest } = factorTwosAndFives(M);
  const remainders = k === 0 && M <= MAX_RESIDUE_MODULUS;
  if (rest === 1n) {
    const t = Math.max(twos, fives, k);
    const tails = 10n ** BigInt(t) / M;
    // Many tails (16: 625, 32: 3,125) make a larger automaton than the remainder rules.
    if (tails <= BigInt(MAX_TAILS) && !(remainders && tails > BigInt(MAX_LISTED))) return writer.signed(lo, hi, (a, b) => writer.byTails(a, b, t));
  }
  const count = floorDiv(hi, M) - ceilDiv(lo, M) + 1n;
  if (count <= BigInt(MAX_LISTED)) return writer.signed(lo, hi, (a, b) => writer.listed(multiplesIn(a, b, M)));
  if (remainders && writer.remainderRules(lo, hi) <= MAX_REMAINDER_RULES) return writer.signed(lo, hi, (a, b) => writer.byRemainders(a, b));
  return undefined;
}

/** Builds the texts of multiples of M (scaled by 10^k) in ranges of X. */
class MultipleWriter {
  constructor(
    private readonly M: bigint,
    private readonly k: number,
    private readonly zeroFraction: boolean,
    private readonly rules: Map<string, Expr>,
  ) {}

  /** Texts of the multiples X in [lo, hi]: magnitudes with and without "-" (no "-0"). */
  signed(lo: bigint, hi: bigint, magnitudes: (a: bigint, b: bigint) => Expr | null): Expr | null {
    const ranges = magnitudeRanges(lo, hi);
    const positive = ranges.positive ? magnitudes(...ranges.positive) : null;
    const negative = ranges.negative ? magnitudes(...ranges.negative) : null;
    return union([positive, negative === null ? null : cat(lit("-"), negative)]);
  }

  /** Texts of the given non-negative multiples, one by one (a digit tree over them). */
  listed(values: readonly bigint[]): Expr | null {
    return this.tree(values, (int) => int.toString());
  }

  /** Texts of the multiples in [a, b] (0 <= a) when M divides 10^t: a range of Q, then tails. */
  byTails(a: bigint, b: bigint, t: number): Expr | null {
    if (a > b) return null;
    const unit = 10n ** BigInt(t);
    // Values below 10^t have no Q: listed (at most 10^t / M of them).
    const small = this.listed(multiplesIn(a, min(b, unit - 1n), this.M));
    const from = max(a, unit);
    if (from > b) return small;
    const [qa, ta, qb, tb] = [from / unit, from % unit, b / unit, b % unit];
    if (qa === qb) return union([small, followedBy(lit(qa.toString()), this.tails(ta, tb, t))]);
    return union([
      small,
      followedBy(lit(qa.toString()), this.tails(ta, unit - 1n, t)),
      followedBy(naturalRange(qa + 1n, qb - 1n), this.tails(0n, unit - 1n, t)),
      followedBy(lit(qb.toString()), this.tails(0n, tb, t)),
    ]);
  }

  /**
   * Texts of the multiples in [a, b] (0 <= a, k = 0) for any M: [a, b] as blocks of the values
   * P * 10^n + (n free digits), each block's free digits the rule for the remainder
   * -P * 10^n mod M (see `freeDigits`); blocks with the same prefix share its digits.
   */
  byRemainders(a: bigint, b: bigint): Expr | null {
    const byPrefix = new Map<string, (Expr | null)[]>();
    for (const { prefix, n, remainder } of this.blocks(a, b)) {
      const list = byPrefix.get(prefix) ?? [];
      list.push(this.freeDigits(n, remainder));
      byPrefix.set(prefix, list);
    }
    const plain = this.zeroFraction ? zeroFractionExpr() : empty();
    const tree = digitTree(new Map([...byPrefix].map(([prefix, parts]) => [prefix, union(parts)])));
    return followedBy(tree, plain);
  }

  /** The remainder rules byRemainders would build for [lo, hi] (both signs), counted without building them. */
  remainderRules(lo: bigint, hi: bigint): number {
    const reached = new Set<string>();
    const reach = (n: number, t: bigint): void => {
      const name = this.ruleName(n, t);
      if (n < 2 || !this.reachable(n, t) || reached.has(name)) return;
      reached.add(name);
      for (let d = 0n; d <= 9n; d++) reach(n - 1, mod(t - d * 10n ** BigInt(n - 1), this.M));
    };
    const { positive, negative } = magnitudeRanges(lo, hi);
    for (const range of [positive, negative]) if (range) for (const { n, remainder } of this.blocks(...range)) reach(n, remainder);
    return reached.size;
  }

  /**
   * [a, b] (0 <= a) as blocks of the values P * 10^n + (n free digits): each the largest aligned
   * block at its start inside [a, b], with the remainder mod M its free digits must have.
   */
  private *blocks(a: bigint, b: bigint): Generator<{ prefix: string; n: number; remainder: bigint }> {
    let x = a;
    if (x === 0n && x <= b) {
      yield { prefix: "0", n: 0, remainder: 0n }; // free digits never follow a leading 0
      x = 1n;
    }
    while (x <= b) {
      let unit = 1n;
      let n = 0;
      while (x % (unit * 10n) === 0n && x + unit * 10n - 1n <= b) [unit, n] = [unit * 10n, n + 1];
      const prefix = x / unit;
      yield { prefix: prefix.toString(), n, remainder: mod(-prefix * unit, this.M) };
      x += unit;
    }
  }

  /** Whether some n digits have value t mod M (fewer than M values have n digits). */
  private reachable(n: number, t: bigint): boolean {
    const values = 10n ** BigInt(n);
    return values >= this.M || t < values;
  }

  private ruleName(n: number, t: bigint): string {
    return `multiple-of-${this.M}-${n}-${t}`;
  }

  /**
   * n digits (leading zeros allowed) whose value is t mod M, or null when no such digits exist
   * (fewer than M values have n digits). From two digits on it is a rule, named by M, n and t, that
   * reads one digit and leaves the remainder of the rest to the rule for n - 1 digits.
   */
  private freeDigits(n: number, t: bigint): Expr | null {
    if (!this.reachable(n, t)) return null;
    if (n === 0) return empty();
    const place = 10n ** BigInt(n - 1);
    const name = this.ruleName(n, t);
    if (n >= 2 && this.rules.has(name)) return ref(name);
    const digitsByRest = new Map<bigint, number[]>();
    for (let d = 0; d <= 9; d++) {
      const rest = mod(t - BigInt(d) * place, this.M);
      digitsByRest.set(rest, [...(digitsByRest.get(rest) ?? []), 0x30 + d]);
    }
    const body = union([...digitsByRest].map(([rest, codes]) => followedBy(charClass(codes), this.freeDigits(n - 1, rest))));
    if (n < 2 || body === null) return body;
    this.rules.set(name, body);
    return ref(name);
  }

  /** The t-digit tails in [from, to] that are multiples of M, with the decimal point in place. */
  private tails(from: bigint, to: bigint, t: number): Expr | null {
    const intDigits = t - this.k;
    return this.tree(multiplesIn(from, to, this.M), (int) => (intDigits === 0 ? "" : int.toString().padStart(intDigits, "0")));
  }

  /** Values X as their integer digits (`intText` of X / 10^k) and fraction, as a digit tree. */
  private tree(values: readonly bigint[], intText: (int: bigint) => string): Expr | null {
    const unit = 10n ** BigInt(this.k);
    const fractions = new Map<string, string[]>();
    for (const x of values) {
      const int = intText(x / unit);
      const list = fractions.get(int) ?? [];
      list.push((x % unit).toString().padStart(this.k, "0"));
      fractions.set(int, list);
    }
    return digitTree(new Map([...fractions].map(([int, fs]) => [int, this.fraction(fs)])));
  }

  /** After the integer digits: the fractions of k digits in `fs` (trailing zeros optional, up
   *  to FRACTION_ZEROS more). */
  private fraction(fs: readonly string[]): Expr | null {
    const zeros = repeat(lit("0"), 0, FRACTION_ZEROS);
    const significant = new Map<string, Expr>();
    let integral = false;
    for (const f of fs) {
      const g = f.replace(/0+$/, "");
      if (g === "") integral = true;
      else significant.set(g, zeros);
    }
    const plain = this.zeroFraction ? zeroFractionExpr() : empty();
    const tree = digitTree(significant);
    return union([integral ? plain : null, tree === null ? null : cat(lit("."), tree)]);
  }
}

/**
 * The union of `s · e` over the entries (s a digit string, e its continuation), as a tree: strings
 * share their common prefixes, and digits leading to the same subtree share one character class
 * (the tails of 0.01 are `[0-9][0-9]`, not a hundred branches).
 */
function digitTree(entries: ReadonlyMap<string, Expr | null>): Expr | null {
  const parts: (Expr | null)[] = [entries.get("") ?? null];
  const byFirst = new Map<number, Map<string, Expr | null>>();
  for (const [s, e] of entries) {
    if (s === "") continue;
    const code = s.charCodeAt(0);
    const sub = byFirst.get(code) ?? new Map<string, Expr | null>();
    sub.set(s.slice(1), e);
    byFirst.set(code, sub);
  }
  const bySubtree = new Map<string, { codes: number[]; expr: Expr }>();
  for (const [code, sub] of byFirst) {
    const expr = digitTree(sub);
    if (expr === null) continue;
    const key = JSON.stringify(expr);
    const group = bySubtree.get(key) ?? { codes: [], expr };
    group.codes.push(code);
    bySubtree.set(key, group);
  }
  for (const { codes, expr } of bySubtree.values()) parts.push(cat(charClass(codes), expr));
  return union(parts);
}

/** `head` then `rest`; null (no text) when either has none. Unlike `cat`, whose null parts are
 *  left out, a null here is an empty set: a Q whose tails in range hold no multiple has no text. */
function followedBy(head: Expr | null, rest: Expr | null): Expr | null {
  return head === null || rest === null ? null : cat(head, rest);
}

/** One character from a set of code points (a literal when there is one). */
function charClass(codes: number[]): Expr {
  if (codes.length === 1) return lit(String.fromCharCode(codes[0]!));
  const sorted = [...codes].sort((x, y) => x - y);
  const ranges: [number, number][] = [];
  for (const c of sorted) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  return chars(...ranges);
}

/** The magnitudes of [lo, hi]'s non-negative and negative values (no "-0"), where there are any. */
function magnitudeRanges(lo: bigint, hi: bigint): { positive?: [bigint, bigint]; negative?: [bigint, bigint] } {
  return { ...(hi >= 0n ? { positive: [max(lo, 0n), hi] } : {}), ...(lo < 0n ? { negative: [max(-hi, 1n), -lo] } : {}) };
}

/** Multiples of M in [a, b] (a >= 0). */
function multiplesIn(a: bigint, b: bigint, M: bigint): bigint[] {
  const out: bigint[] = [];
  for (let x = ceilDiv(a, M) * M; x <= b; x += M) out.push(x);
  return out;
}

/** A bound on x as a bound on the integer X = x * 10^k: the least X above a lower bound, the
 *  greatest below an upper bound (exact decimals, exclusive bounds excluded). */
function scaledBound(bound: NumberBound, k: number, lower: boolean): bigint {
  const d = exactDecimal(bound.value);
  const num = (d.negative ? -d.digits : d.digits) * 10n ** BigInt(Math.max(0, k - d.scale));
  const den = 10n ** BigInt(Math.max(0, d.scale - k));
  const exact = num % den === 0n;
  if (lower) return exact && !bound.inclusive ? num / den + 1n : ceilDiv(num, den);
  return exact && !bound.inclusive ? num / den - 1n : floorDiv(num, den);
}

function factorTwosAndFives(n: bigint): { twos: number; fives: number; rest: bigint } {
  let twos = 0;
  let fives = 0;
  while (n % 2n === 0n) [n, twos] = [n / 2n, twos + 1];
  while (n % 5n === 0n) [n, fives] = [n / 5n, fives + 1];
  return { twos, fives, rest: n };
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
/** Floor and ceiling of a / b for b > 0 (bigint division truncates toward zero). */
const floorDiv = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n ? a / b - 1n : a / b);
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);
/** a mod b in [0, b) for b > 0. */
const mod = (a: bigint, b: bigint): bigint => ((a % b) + b) % b;
