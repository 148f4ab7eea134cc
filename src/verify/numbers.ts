/**
 * Numbers and amounts in text and values: 1299, 1,299.00, ¥1,299, 1299元, 3万 (= 30000), and
 * Chinese numerals (三, 十二, 一百零五) and English number words (twelve). Values compare
 * numerically. Digits glued to a preceding letter (A4, SF1234, G92) belong to a code, not a number. A number entity records both
 * its digits-only span and the span widened over an adjacent currency mark, so an amount value
 * (¥1,299.00) is shown with its symbol while a bare quantity is not.
 */
import { CHINESE_NUMERAL_RUN, parseChineseNumeral } from "./chinese-numerals.js";
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
}

const ARABIC = /(?<![A-Za-z\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d]|[.,]\d)(\s*[万萬亿億])?/g;
const CURRENCY_BEFORE = /(?:[¥￥$€£]|rmb|cny|usd|hk\$|us\$)\s*$/i;
const CURRENCY_AFTER = /^\s*(?:元|块|圆|人民币|rmb|cny|usd|dollars?|yuan)/i;
const MULTIPLIER: Readonly<Record<string, number>> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 };
/** A lone numeral character (一, 三) is read as a number only before a measure word or unit:
 *  一 is everywhere in ordinary words (统一, 一起), 三台 is a quantity. */
const MEASURE_WORDS = "个台件位张本次天年月日号元块只条份箱瓶人名辆套间层点分秒周岁斤克米折楼室期项盒包双把支枚台部";

function currencySpan(text: string, start: number, end: number): { outerStart: number; outerEnd: number } {
  const before = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - 6), start));
  const after = CURRENCY_AFTER.exec(text.slice(end, end + 8));
  return { outerStart: before ? start - before[0].length : start, outerEnd: after ? end + after[0].length : end };
}

/** Finds numbers in `text` (already width-folded), skipping `taken` ranges (dates, phones). */
export function findNumbers(text: string, taken: readonly { start: number; end: number }[]): NumberEntity[] {
  const out: NumberEntity[] = [];
  const free = (s: number, e: number): boolean => !taken.some((t) => t.start < e && s < t.end);
  ARABIC.lastIndex = 0;
  for (let m = ARABIC.exec(text); m; m = ARABIC.exec(text)) {
    const start = m.index;
    const end = start + m[1].length + (m[2]?.length ?? 0);
    if (!free(start, end)) continue;
    const raw = text.slice(start, end);
    const base = Number(raw.replace(/,/g, ""));
    const widened = currencySpan(text, start, end);
    out.push({ start, end, ...widened, value: base, raw });
    // 3万 is also 30000: both readings are candidates, the wider span for the multiplied one.
    if (m[3]) {
      const mEnd = start + m[0].length;
      out.push({ start, end: mEnd, ...currencySpan(text, start, mEnd), value: base * MULTIPLIER[m[3].trim()], raw: m[0] });
    }
  }
  CHINESE_NUMERAL_RUN.lastIndex = 0;
  for (let m = CHINESE_NUMERAL_RUN.exec(text); m; m = CHINESE_NUMERAL_RUN.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    if (m[0].length === 1 && !MEASURE_WORDS.includes(text[end] ?? "") && m[0] !== "两" && m[0] !== "十") continue;
    const n = parseChineseNumeral(m[0]);
    if (n) out.push({ start, end, ...currencySpan(text, start, end), value: n.value, raw: m[0] });
  }
  ENGLISH_NUMBER_PHRASE.lastIndex = 0;
  for (let m = ENGLISH_NUMBER_PHRASE.exec(text); m; m = ENGLISH_NUMBER_PHRASE.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    const value = parseEnglishNumber(m[0]);
    if (value !== undefined && free(start, end)) out.push({ start, end, ...currencySpan(text, start, end), value, raw: m[0] });
  }
  return out;
}

/**
 * Reads a whole value as a number or amount: optional currency mark, thousands separators,
 * decimals, a 万/亿 multiplier, Chinese numerals or English number words. Returns undefined for anything else
 * (3台 is not a number value; it is compared as text, where 三台 normalizes to 3台).
 */
export function parseNumberValue(value: string): { value: number; currency: boolean } | undefined {
  const v = value.trim();
  const m = /^(?:([¥￥$€£]|rmb|cny|usd|hk\$|us\$)\s*)?([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*([万萬亿億])?\s*(元|块|圆|rmb|cny|usd|dollars?|yuan)?$/i.exec(v);
  if (m) {
    const base = Number(m[2].replace(/,/g, ""));
    return { value: m[3] ? base * MULTIPLIER[m[3]] : base, currency: Boolean(m[1] || m[4]) };
  }
  const cn = /^(.+?)(元|块)?$/.exec(v);
  const n = cn ? parseChineseNumeral(cn[1]) : undefined;
  if (n) return { value: n.value, currency: Boolean(cn?.[2]) };
  const en = parseEnglishNumber(v);
  return en === undefined ? undefined : { value: en, currency: false };
}
