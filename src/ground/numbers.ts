/**
 * Numbers and amounts in text and values: 1299, 1,299.00, ¥1,299, 1299元, 3万 (= 30000), $1.5M,
 * 2.3k, 1.5 million, 15% and 百分之十五 (= 15 percent, also 0.15), and Chinese numerals (三,
 * 十二, 一百零五) and English number words (twelve). Values compare numerically. Digits glued to
 * a preceding letter (A4, SF1234, G92) belong to a code, not a number. A number entity records
 * both its digits-only span and the span widened over an adjacent currency mark (with the
 * currencies the mark can stand for, currency.ts), so an amount value (¥1,299.00) is shown with
 * its symbol while a bare quantity is not. A suffix (万, M, million) or a percent sign adds a
 * second reading over the wider span; the plain number stays a reading too.
 */
import { CHINESE_NUMERAL_RUN, parseChineseNumeral } from "./chinese-numerals.js";
import { CURRENCY_AFTER, CURRENCY_AFTER_SOURCE, CURRENCY_BEFORE, CURRENCY_BEFORE_SOURCE, currenciesOf } from "./currency.js";
import { ENGLISH_NUMBER_PHRASE, parseEnglishNumber } from "./english-numerals.js";

export interface NumberEntity {
  readonly start: number;
  readonly end: number;
  /** The span including a currency mark next to the number, when there is one. */
  readonly outerStart: number;
  readonly outerEnd: number;
  readonly value: number;
  /** The text of the number as written (without currency marks). */
  readonly raw: string;
  /** Currencies the adjacent mark can stand for; absent without a mark. */
  readonly currencies?: readonly string[];
  /** Where the currency mark itself is, when there is one. */
  readonly mark?: { readonly start: number; readonly end: number };
  /** Read through a suffix (K, M, B, thousand, million, 万, 亿). */
  readonly scaled?: true;
  /** Written as a percentage: `value` is the number of percent (15 for 15%). A second entity
   *  with `fraction` holds the value as a fraction (0.15). */
  readonly percent?: true;
  readonly fraction?: true;
}

/** Suffixes that multiply the number before them. K/M/B are taken in upper case only (k too):
 *  5m is five metres far more often than five million. */
const SUFFIX = String.raw`\s*[万萬亿億]|\s*(?:thousand|million|billion|trillion)(?![A-Za-z])|(?:[kKMB]|bn|mn)(?![A-Za-z])`;
const PERCENT = String.raw`\s*(?:%|percent(?![A-Za-z])|per\s+cent(?![A-Za-z]))`;
const ARABIC = new RegExp(String.raw`(?<![A-Za-z\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d]|[.,]\d)(${SUFFIX})?(${PERCENT})?`, "g");
const MULTIPLIER: Readonly<Record<string, number>> = {
  万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8, k: 1e3, m: 1e6, b: 1e9, bn: 1e9, mn: 1e6,
  thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12,
};
const PERCENT_BEFORE = "百分之";
/** A lone numeral character (一, 三) is read as a number only before a measure word or unit:
 *  一 is everywhere in ordinary words (统一, 一起), 三台 is a quantity. */
const MEASURE_WORDS = "个台件位张本次天年月日号元块只条份箱瓶人名辆套间层点分秒周岁斤克米折楼室期项盒包双把支枚台部";

export function multiplierOf(suffix: string): number {
  return MULTIPLIER[suffix.trim().toLowerCase().replace(/\s+/g, "")] ?? 1;
}

type Widened = Pick<NumberEntity, "outerStart" | "outerEnd" | "currencies" | "mark">;

function currencySpan(text: string, start: number, end: number): Widened {
  const before = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - 6), start));
  const after = before ? null : CURRENCY_AFTER.exec(text.slice(end, end + 10));
  if (before) {
    const s = start - before[0].length;
    return { outerStart: s, outerEnd: end, currencies: currenciesOf(before[0]), mark: { start: s, end: s + before[0].trimEnd().length } };
  }
  if (after) {
    const e = end + after[0].length;
    return { outerStart: start, outerEnd: e, currencies: currenciesOf(after[0]), mark: { start: e - after[0].trimStart().length, end: e } };
  }
  return { outerStart: start, outerEnd: end };
}

/** Finds numbers in `text` (already width-folded), skipping `taken` ranges (dates, phones). */
export function findNumbers(text: string, taken: readonly { start: number; end: number }[]): NumberEntity[] {
  const out: NumberEntity[] = [];
  const scaledRanges: { start: number; end: number }[] = [];
  const free = (s: number, e: number): boolean => !taken.some((t) => t.start < e && s < t.end);
  const percentReadings = (start: number, end: number, value: number, raw: string): void => {
    out.push({ start, end, outerStart: start, outerEnd: end, value, raw, percent: true });
    out.push({ start, end, outerStart: start, outerEnd: end, value: value / 100, raw, fraction: true });
  };
  ARABIC.lastIndex = 0;
  for (let m = ARABIC.exec(text); m; m = ARABIC.exec(text)) {
    const start = m.index;
    const end = start + m[1]!.length + (m[2]?.length ?? 0);
    if (!free(start, end)) continue;
    const raw = text.slice(start, end);
    const base = Number(raw.replace(/,/g, ""));
    out.push({ start, end, ...currencySpan(text, start, end), value: base, raw });
    let value = base;
    let mEnd = end;
    if (m[3]) {
      // 3万 and $1.5M are also 30000 and 1500000: the multiplied reading spans the suffix.
      mEnd += m[3].length;
      value = base * multiplierOf(m[3]);
      out.push({ start, end: mEnd, ...currencySpan(text, start, mEnd), value, raw: text.slice(start, mEnd), scaled: true });
      scaledRanges.push({ start, end: mEnd });
    }
    if (m[4]) percentReadings(start, mEnd + m[4].length, value, text.slice(start, mEnd + m[4].length));
    if (text.endsWith(PERCENT_BEFORE, start)) percentReadings(start - PERCENT_BEFORE.length, mEnd, value, text.slice(start - PERCENT_BEFORE.length, mEnd));
  }
  CHINESE_NUMERAL_RUN.lastIndex = 0;
  for (let m = CHINESE_NUMERAL_RUN.exec(text); m; m = CHINESE_NUMERAL_RUN.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    const isPercent = text.endsWith(PERCENT_BEFORE, start);
    if (m[0].length === 1 && !isPercent && !MEASURE_WORDS.includes(text[end] ?? "") && m[0] !== "两" && m[0] !== "十") continue;
    const n = parseChineseNumeral(m[0]);
    if (!n) continue;
    out.push({ start, end, ...currencySpan(text, start, end), value: n.value, raw: m[0] });
    if (isPercent) percentReadings(start - PERCENT_BEFORE.length, end, n.value, text.slice(start - PERCENT_BEFORE.length, end));
  }
  ENGLISH_NUMBER_PHRASE.lastIndex = 0;
  // "million" in "1.5 million" is part of the scaled number, not a number of its own.
  const wordsFree = (s: number, e: number): boolean => free(s, e) && !scaledRanges.some((t) => t.start < e && s < t.end);
  for (let m = ENGLISH_NUMBER_PHRASE.exec(text); m; m = ENGLISH_NUMBER_PHRASE.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    const value = parseEnglishNumber(m[0]);
    if (value !== undefined && wordsFree(start, end)) out.push({ start, end, ...currencySpan(text, start, end), value, raw: m[0] });
  }
  return out;
}

export interface NumberValue {
  readonly value: number;
  /** Currencies the value's mark stands for; undefined without a mark. */
  readonly currencies?: readonly string[];
  /** The value is a percentage (15%): it matches percentages only. */
  readonly percent: boolean;
}

const VALUE_ARABIC = new RegExp(
  String.raw`^(?:(${CURRENCY_BEFORE_SOURCE})\s*)?([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(${SUFFIX})?(${PERCENT})?\s*(${CURRENCY_AFTER_SOURCE})?$`,
  "i",
);

/**
 * Reads a whole value as a number or amount: optional currency mark, thousands separators,
 * decimals, a multiplier suffix (万, 亿, K, M, B, million), a percent sign, Chinese numerals or
 * English number words. Returns undefined for anything else (3台 is not a number value; it is
 * compared as text, where 三台 normalizes to 3台).
 */
export function parseNumberValue(value: string): NumberValue | undefined {
  const v = value.trim();
  const m = VALUE_ARABIC.exec(v);
  if (m) {
    const base = Number(m[2]!.replace(/,/g, ""));
    const mark = m[1] ?? m[5];
    return { value: m[3] ? base * multiplierOf(m[3]) : base, currencies: mark ? currenciesOf(mark) : undefined, percent: Boolean(m[4]) };
  }
  const pct = v.startsWith(PERCENT_BEFORE) ? parseChineseNumeral(v.slice(PERCENT_BEFORE.length)) : undefined;
  if (pct) return { value: pct.value, percent: true };
  const cn = /^(.+?)(元|块)?$/.exec(v);
  const n = cn ? parseChineseNumeral(cn[1]!) : undefined;
  if (n) return { value: n.value, currencies: cn?.[2] ? ["CNY"] : undefined, percent: false };
  const en = parseEnglishNumber(v);
  return en === undefined ? undefined : { value: en, percent: false };
}
