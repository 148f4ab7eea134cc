/**
 * Currency marks written next to amounts ($, US$, ¥, €, 元, 美元, USD, dollars ...) and the ISO
 * codes each can stand for, so grounding can tell $99.99 from €99.99. A mark may stand for
 * several currencies ($ for any dollar, ¥ for yuan or yen); two amounts agree when their sets
 * share a code. Knows nothing about numbers.
 */

const DOLLARS = ["USD", "HKD", "CAD", "AUD", "SGD", "TWD", "NZD"];

/** Marks before an amount, longest first (US$ before $). Matched case-insensitively. */
const BEFORE: readonly (readonly [string, readonly string[]])[] = [
  ["us$", ["USD"]], ["hk$", ["HKD"]], ["nt$", ["TWD"]], ["ca$", ["CAD"]], ["au$", ["AUD"]],
  ["c$", ["CAD"]], ["a$", ["AUD"]], ["s$", ["SGD"]], ["$", DOLLARS], ["¥", ["CNY", "JPY"]], ["￥", ["CNY", "JPY"]],
  ["€", ["EUR"]], ["£", ["GBP"]], ["₹", ["INR"]], ["₩", ["KRW"]], ["rmb", ["CNY"]],
];
/** Marks after an amount, longest first (美元 before 元). */
const AFTER: readonly (readonly [string, readonly string[]])[] = [
  ["人民币", ["CNY"]], ["美元", ["USD"]], ["美金", ["USD"]], ["港元", ["HKD"]], ["港币", ["HKD"]], ["日元", ["JPY"]],
  ["欧元", ["EUR"]], ["英镑", ["GBP"]], ["韩元", ["KRW"]], ["元", ["CNY"]], ["块", ["CNY"]], ["圆", ["CNY"]],
  ["dollars", DOLLARS], ["dollar", DOLLARS], ["euros", ["EUR"]], ["euro", ["EUR"]], ["pounds", ["GBP"]],
  ["yuan", ["CNY"]], ["yen", ["JPY"]], ["rmb", ["CNY"]],
];
/** ISO codes, accepted on either side. */
const CODES = ["USD", "CNY", "EUR", "GBP", "JPY", "HKD", "CAD", "AUD", "SGD", "TWD", "NZD", "INR", "KRW", "CHF"];

const escape = (s: string): string => s.replace(/[$]/g, "\\$");
const isLatin = (m: string): boolean => /^[a-z]/.test(m);
/** The marks as regex alternatives; a Latin mark must be a whole word on its `side` (rmb, not
 *  the end of "farmrmb"), CJK marks and symbols need no boundary. */
const alternatives = (marks: readonly (readonly [string, readonly string[]])[], side: "before" | "after"): string => {
  const all = [...marks.map(([m]) => m), ...CODES.map((c) => c.toLowerCase())];
  const latin = all.filter(isLatin).map(escape).join("|");
  const other = all.filter((m) => !isLatin(m)).map(escape).join("|");
  return side === "before" ? `(?<![A-Za-z])(?:${latin})|${other}` : `(?:${latin})(?![A-Za-z])|${other}`;
};

/** The mark just before an amount (the text up to the amount ends with it). */
export const CURRENCY_BEFORE = new RegExp(`(?:${alternatives(BEFORE, "before")})\\s*$`, "i");
/** The mark just after an amount. */
export const CURRENCY_AFTER = new RegExp(`^\\s*(?:${alternatives(AFTER, "after")})`, "i");
/** Source text of the marks for building value patterns. */
export const CURRENCY_BEFORE_SOURCE = alternatives(BEFORE, "before");
export const CURRENCY_AFTER_SOURCE = alternatives(AFTER, "after");

/** The currencies a mark (as matched by the patterns above, spaces allowed) can stand for. */
export function currenciesOf(mark: string): readonly string[] {
  const m = mark.trim().toLowerCase();
  const code = CODES.find((c) => c.toLowerCase() === m);
  if (code) return [code];
  return BEFORE.find(([k]) => k === m)?.[1] ?? AFTER.find(([k]) => k === m)?.[1] ?? [];
}

/** A value that is only a currency (USD, 美元, $): the codes it names; undefined otherwise. */
export function parseCurrencyValue(value: string): readonly string[] | undefined {
  const codes = currenciesOf(value);
  return codes.length > 0 ? codes : undefined;
}

export function currenciesAgree(a: readonly string[], b: readonly string[]): boolean {
  return a.some((c) => b.includes(c));
}

/** Default currency of amounts written without a mark, by the text's language. */
export function defaultCurrency(language: "zh" | "en"): string {
  return language === "zh" ? "CNY" : "USD";
}
