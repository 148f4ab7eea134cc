/**
 * Dates written in text and in values: 2026年3月15日, 二〇二六年三月十五日, 3月15日, 2026-03-15,
 * 2026/3/15, 15/03/2026 (day-first or month-first), 26/03/15 (two-digit year: year-, day- or
 * month-first), March 15, 2026, 15 March 2026, Mar. 15. A date without a year matches any year.
 * How an all-numeric date is read is the `DateOrder` (see `datePolicy`). Knows nothing about
 * other entities.
 */
import { parseChineseNumeral } from "./chinese-numerals.js";

/**
 * How to read the all-numeric forms nn/nn/yyyy and nn/nn/nn: day first (15/03/2026), month
 * first (03/15/2026, US), year first (26/03/15; a four-digit year at the end is then read day
 * first), any reading, or "auto": a date that has one valid reading (03/15/2026) is read that
 * way; the others follow the order the text's unambiguous dates show, else the language's
 * (English: mdy, Chinese: ymd).
 */
export type DateOrder = "auto" | "dmy" | "mdy" | "ymd" | "any";
export const DATE_ORDERS: readonly DateOrder[] = ["auto", "dmy", "mdy", "ymd", "any"];
type FixedOrder = "dmy" | "mdy" | "ymd";

/** A DateOrder resolved for one text: the order of ambiguous dates, and whether a date with a
 *  single valid reading keeps it whatever the order ("auto"). */
export interface DatePolicy {
  readonly order: FixedOrder | "any";
  readonly lenient: boolean;
}

export interface DateParts {
  readonly year?: number;
  readonly month: number;
  readonly day: number;
}

export interface DateEntity {
  readonly start: number;
  readonly end: number;
  /** Every reading of the text (two for an ambiguous nn/nn/yyyy). */
  readonly readings: readonly { readonly parts: DateParts; readonly order?: FixedOrder }[];
}

const MONTHS = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const CN_NUM = "[〇零一二三四五六七八九十两]";
const CN_DATE = new RegExp(
  `(?:(\\d{4}|${CN_NUM}{4})\\s*年\\s*)?(\\d{1,2}|${CN_NUM}{1,2})\\s*月\\s*(\\d{1,2}|${CN_NUM}{1,3})\\s*[日号號]`,
  "g",
);
const YMD = /(?<![\d.])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d])/g;
const NN_YYYY = /(?<![\d/.-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?![\d])/g;
const NN_NN_YY = /(?<![\d/.-])(\d{1,2})\/(\d{1,2})\/(\d{2})(?![\d/])/g;
const EN_MDY = new RegExp(`\\b(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?`, "gi");
const EN_DMY = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTHS})\\b\\.?(?:,?\\s+(\\d{4})\\b)?`, "gi");

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  if (/^\d+$/.test(s)) return Number(s);
  return parseChineseNumeral(s)?.value;
}

function monthOf(name: string): number {
  return "janfebmaraprmayjunjulaugsepoctnovdec".indexOf(name.slice(0, 3).toLowerCase()) / 3 + 1;
}

function valid(p: DateParts): boolean {
  return p.month >= 1 && p.month <= 12 && p.day >= 1 && p.day <= 31 && (p.year === undefined || (p.year >= 1000 && p.year <= 9999));
}

/** Finds every date in `text` (already width-folded). Overlapping finds keep the earliest,
 *  longest one: 2026年3月15日 is one date, not also 3月15日. */
export function findDates(text: string): DateEntity[] {
  const found: DateEntity[] = [];
  const add = (start: number, end: number, readings: DateEntity["readings"]): void => {
    const ok = readings.filter((r) => valid(r.parts));
    if (ok.length > 0) found.push({ start, end, readings: ok });
  };
  const scan = (re: RegExp, read: (m: RegExpExecArray) => DateEntity["readings"]): void => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) add(m.index, m.index + m[0].length, read(m));
  };
  scan(CN_DATE, (m) => {
    const month = num(m[2]);
    const day = num(m[3]);
    if (month === undefined || day === undefined) return [];
    return [{ parts: { year: num(m[1]), month, day } }];
  });
  scan(YMD, (m) => [{ parts: { year: Number(m[1]), month: Number(m[3]), day: Number(m[4]) } }]);
  scan(NN_YYYY, (m) => {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const year = Number(m[4]);
    return [
      { parts: { year, month: b, day: a }, order: "dmy" as const },
      { parts: { year, month: a, day: b }, order: "mdy" as const },
    ];
  });
  scan(NN_NN_YY, (m) => {
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return [
      { parts: { year: 2000 + a, month: b, day: c }, order: "ymd" as const },
      { parts: { year: 2000 + c, month: b, day: a }, order: "dmy" as const },
      { parts: { year: 2000 + c, month: a, day: b }, order: "mdy" as const },
    ];
  });
  scan(EN_MDY, (m) => [{ parts: { year: m[3] ? Number(m[3]) : undefined, month: monthOf(m[1]!), day: Number(m[2]) } }]);
  scan(EN_DMY, (m) => [{ parts: { year: m[3] ? Number(m[3]) : undefined, month: monthOf(m[2]!), day: Number(m[1]) } }]);
  found.sort((x, y) => x.start - y.start || y.end - x.end);
  const kept: DateEntity[] = [];
  for (const d of found) {
    const last = kept.at(-1);
    if (last === undefined || d.start >= last.end) kept.push(d);
  }
  return kept;
}

/** Reads a value as a date when the whole (trimmed) value is one date; ISO date-times
 *  (2026-03-15T10:00) are read by their date part. Every reading the policy allows. */
export function parseDateReadings(value: string, policy: DatePolicy): DateParts[] {
  const v = value.trim().replace(/^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/, "$1");
  const ds = findDates(v);
  const d = ds.length === 1 ? ds[0] : undefined;
  if (d === undefined || d.start !== 0 || d.end !== v.length) return [];
  return readingsFor(d, policy);
}

/** The first reading of a date value (see parseDateReadings). */
export function parseDateValue(value: string, policy: DatePolicy): DateParts | undefined {
  return parseDateReadings(value, policy)[0];
}

/** The readings of a found date under a policy ("ymd" reads a yyyy-last date day first). */
export function readingsFor(d: DateEntity, policy: DatePolicy): DateParts[] {
  if (policy.order === "any" || d.readings.length === 1 && (policy.lenient || d.readings[0]!.order === undefined)) return d.readings.map((r) => r.parts);
  const order = policy.order === "ymd" && !d.readings.some((r) => r.order === "ymd") ? "dmy" : policy.order;
  return d.readings.filter((r) => r.order === undefined || r.order === order).map((r) => r.parts);
}

/**
 * Resolves a DateOrder for a text: "auto" takes the order that the text's unambiguous numeric
 * dates (15/03/2026 is day first) all agree on, else the language's default.
 */
export function datePolicy(order: DateOrder, dates: readonly DateEntity[], language: "zh" | "en"): DatePolicy {
  if (order !== "auto") return { order, lenient: false };
  const shown = new Set<FixedOrder>();
  for (const d of dates) {
    const order = d.readings.length === 1 ? d.readings[0]!.order : undefined;
    if (order !== undefined) shown.add(order);
  }
  const [only] = shown;
  return { order: shown.size === 1 ? only! : language === "en" ? "mdy" : "ymd", lenient: true };
}

/** 1 when equal, 0.8 when equal except that one side has no year, 0 otherwise. */
export function dateScore(a: DateParts, b: DateParts): number {
  if (a.month !== b.month || a.day !== b.day) return 0;
  if (a.year === b.year) return 1;
  return a.year === undefined || b.year === undefined ? 0.8 : 0;
}
