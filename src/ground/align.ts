/**
 * Aligns one extracted scalar to the source text, in tiers:
 *  1. exact: every verbatim occurrence of the string;
 *  2. normalized: equal after normalization (normalize.ts), or the same date, phone number or
 *     number/amount read from the text (dates.ts, phones.ts, numbers.ts);
 *  3. fuzzy: only when tiers 1-2 found nothing, only for strings whose normalized form has at
 *     least `minFuzzyLength` (default 4, never below 3) characters, similarity >=
 *     `fuzzyThreshold` (default 0.8), whole units left out or short filler words added, never a
 *     unit replaced (fuzzy.ts).
 * Numbers (JSON numbers) are matched only against numbers read from the text, never as
 * substrings, so 3 does not match the 3 inside 2023 or 138-1234-5678.
 *
 * Short values: a match may not begin or end inside a Latin word or digit group (the value "Li"
 * does not match "Lisa", "12" does not match "2012"); CJK has no word boundaries, so one- and
 * two-character CJK values match wherever they occur. Values of 1-2 normalized characters are
 * never fuzzy-matched, whatever the options (one edit would already be half the value).
 */
import { currenciesAgree, parseCurrencyValue } from "./currency.js";
import { dateScore, parseDateReadings, readingsFor, type DatePolicy } from "./dates.js";
import { isWordChar } from "./fold.js";
import { fuzzyFind, toUnits } from "./fuzzy.js";
import { normalizeWithMap } from "./normalize.js";
import { parseNumberValue, type NumberEntity, type NumberValue } from "./numbers.js";
import { canonicalPhone, parsePhoneValue } from "./phones.js";
import type { PreparedText } from "./prepared.js";
import type { Span } from "./types.js";

export interface AlignOptions {
  /** How all-numeric dates read, resolved for this text (dates.ts, `datePolicy`). */
  readonly datePolicy: DatePolicy;
  /** Read suffixed numbers (K, M, B, million, 万, 亿) as their multiplied value too. */
  readonly numberSuffixes: boolean;
  /** Currency of amounts written without a mark (ISO code), or false to ignore which currency
   *  an amount is in. */
  readonly currency: string | false;
  readonly fuzzy: boolean;
  readonly fuzzyThreshold: number;
  readonly minFuzzyLength: number;
  /** Work left for the fuzzy tier, shared by the values of one grounding (see FuzzyBudget). */
  readonly fuzzyBudget?: FuzzyBudget;
}

/**
 * The fuzzy tier costs (value units x text units) per value: many values over a long document
 * would stall the event loop for seconds. `cells` is what is left; a value whose fuzzy search
 * would cost more is not searched and `skipped` counts it.
 */
export interface FuzzyBudget {
  cells: number;
  skipped: number;
}

/** Spans reported per value at most (the best ones), and candidates collected per tier. */
export const MAX_SPANS = 32;
const MAX_CANDIDATES = 8 * MAX_SPANS;

const NORMALIZED_SCORE = 0.9;

type Candidate = Omit<Span, "text">;

function exactSpans(value: string, p: PreparedText, out: Candidate[]): void {
  const { text } = p;
  const needsStart = isWordChar(value[0]);
  const needsEnd = isWordChar(value[value.length - 1]);
  const limit = out.length + MAX_CANDIDATES;
  for (let s = text.indexOf(value); s >= 0 && out.length < limit; s = text.indexOf(value, s + 1)) {
    const e = s + value.length;
    if ((needsStart && isWordChar(text[s - 1])) || (needsEnd && isWordChar(text[e]))) continue;
    out.push({ start: s, end: e, match: "exact", score: 1 });
  }
}

function normalizedSpans(nv: string, p: PreparedText, out: Candidate[]): void {
  const { text: N, starts, ends } = p.normalized;
  const needsStart = isWordChar(nv[0]);
  const needsEnd = isWordChar(nv[nv.length - 1]);
  const limit = out.length + MAX_CANDIDATES;
  for (let i = N.indexOf(nv); i >= 0 && out.length < limit; i = N.indexOf(nv, i + 1)) {
    const j = i + nv.length;
    // Neighbours count only when they touch in the original text (no separator between them):
    // "john smith" may match "smith", "johnsmith" may not; digits of one numeral run (十二) touch.
    if (needsStart && i > 0 && isWordChar(N[i - 1]) && starts[i]! <= ends[i - 1]!) continue;
    if (needsEnd && j < N.length && isWordChar(N[j]) && starts[j]! <= ends[j - 1]!) continue;
    out.push({ start: starts[i]!, end: ends[j - 1]!, match: "normalized", score: NORMALIZED_SCORE });
  }
}

/** Whether a text number may support a value: same kind (a percentage supports only
 *  percentages) and, when currencies are compared, a currency both can be in. */
function numberAgrees(e: NumberEntity, want: NumberValue, o: AlignOptions): boolean {
  if (want.percent && !e.percent) return false;
  if (e.scaled && !o.numberSuffixes) return false;
  if (o.currency === false || !want.currencies) return true;
  return currenciesAgree(want.currencies, e.currencies ?? [o.currency]);
}

/** Numbers in the text equal to the value; exact when the original text there reads `literal`. */
function numberSpans(want: NumberValue, literal: string, p: PreparedText, o: AlignOptions, out: Candidate[]): void {
  const n = want.value;
  const tol = 1e-9 * Math.max(1, Math.abs(n));
  const limit = out.length + MAX_CANDIDATES;
  for (const e of p.numbers) {
    if (out.length >= limit) break;
    if (Math.abs(e.value - n) > tol || !numberAgrees(e, want, o)) continue;
    const start = want.currencies ? e.outerStart : e.start;
    const end = want.currencies ? e.outerEnd : e.end;
    const exact = p.text.slice(start, end) === literal;
    out.push({ start, end, match: exact ? "exact" : "normalized", score: exact ? 1 : NORMALIZED_SCORE });
  }
}

/** A currency value (USD, 美元, €) is supported by a mark of that currency on an amount. */
function currencySpans(codes: readonly string[], p: PreparedText, out: Candidate[]): void {
  for (const e of p.numbers) {
    if (e.mark && e.currencies && currenciesAgree(codes, e.currencies)) {
      out.push({ start: e.mark.start, end: e.mark.end, match: "normalized", score: NORMALIZED_SCORE });
    }
  }
}

function phoneSpans(digits: string, p: PreparedText, out: Candidate[]): void {
  for (const e of p.phones) if (e.digits === digits) out.push({ start: e.start, end: e.end, match: "normalized", score: NORMALIZED_SCORE });
}

/** Dates in the text equal to the value. The policy is the text's convention: under "auto" an
 *  ambiguous value (12/08/2026, written by the model) may be meant either way. */
function dateSpans(value: string, p: PreparedText, policy: DatePolicy, out: Candidate[]): void {
  const wants = parseDateReadings(value, policy.lenient ? { order: "any", lenient: true } : policy);
  if (wants.length === 0) return;
  for (const e of p.dates) {
    const score = Math.max(0, ...readingsFor(e, policy).flatMap((r) => wants.map((w) => dateScore(w, r))));
    if (score > 0) out.push({ start: e.start, end: e.end, match: "normalized", score: score * NORMALIZED_SCORE });
  }
}

/** Best first (score, then position), at most MAX_SPANS; a candidate overlapping a better one is
 *  the same support seen by a weaker tier and is dropped. */
function rank(cands: Candidate[], text: string): Span[] {
  cands.sort((a, b) => b.score - a.score || a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  for (const c of cands) {
    if (kept.length === MAX_SPANS) break;
    if (c.end <= c.start || kept.some((k) => c.start < k.end && k.start < c.end)) continue;
    kept.push({ ...c, text: text.slice(c.start, c.end) });
  }
  return kept;
}

/**
 * Whether a fuzzy hit can exist at all: a hit's score is 2 * matched / (value chars + window
 * chars) with the window at least the matched units, so it needs matched >= t * chars / (2 - t),
 * and only value units the text contains can match.
 */
function fuzzyPossible(units: readonly string[], inText: ReadonlyMap<string, number>, threshold: number): boolean {
  let chars = 0;
  let present = 0;
  for (const u of units) {
    chars += u.length;
    if (inText.has(u)) present += u.length;
  }
  return present >= (threshold * chars) / (2 - threshold);
}

/** All spans supporting `value` in the prepared text, best first; [] when it has no support. */
export function alignValue(value: string | number, p: PreparedText, o: AlignOptions): Span[] {
  const cands: Candidate[] = [];
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return [];
    numberSpans({ value, percent: false }, String(value), p, o, cands);
    const phone = Number.isInteger(value) && value > 0 ? canonicalPhone(String(value)) : undefined;
    if (phone) phoneSpans(phone, p, cands);
    return rank(cands, p.text);
  }
  const v = value.trim();
  if (v.length === 0) return [];
  exactSpans(v, p, cands);
  const num = parseNumberValue(v);
  const nvMap = normalizeWithMap(v);
  const nv = nvMap.text;
  // Normalizing drops the percent sign: 15% would match any 15. Percentages go by number only.
  if (nv.length > 0 && !num?.percent) normalizedSpans(nv, p, cands);
  dateSpans(v, p, o.datePolicy, cands);
  const phone = parsePhoneValue(v);
  if (phone) phoneSpans(phone, p, cands);
  if (num) numberSpans(num, v, p, o, cands);
  const currency = o.currency === false ? undefined : parseCurrencyValue(v);
  if (currency) currencySpans(currency, p, cands);
  if (cands.length === 0 && o.fuzzy && nv.length >= Math.max(3, o.minFuzzyLength)) {
    const { starts, ends } = p.normalized;
    const units = toUnits(nvMap);
    if (!fuzzyPossible(units.texts, p.units.idOf, o.fuzzyThreshold)) return rank(cands, p.text);
    const cells = units.texts.length * p.units.texts.length;
    if (o.fuzzyBudget && cells > o.fuzzyBudget.cells) {
      o.fuzzyBudget.skipped++;
      return rank(cands, p.text);
    }
    if (o.fuzzyBudget) o.fuzzyBudget.cells -= cells;
    for (const h of fuzzyFind(units, p.units, o.fuzzyThreshold)) {
      cands.push({ start: starts[h.start]!, end: ends[h.end - 1]!, match: "fuzzy", score: h.score });
    }
  }
  return rank(cands, p.text);
}
