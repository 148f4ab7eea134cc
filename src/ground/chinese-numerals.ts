/**
 * Chinese numerals to numbers: positional forms (十二 = 12, 一百零五 = 105, 两千三百万 = 23,000,000,
 * financial 壹佰 = 100) and digit-by-digit forms (二〇二六 = 2026). Used both to normalize text
 * (三台 and 3台 compare equal) and to read numbers out of text. Knows nothing about spans.
 */

const DIGITS: Readonly<Record<string, number>> = {
  零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9,
  壹: 1, 贰: 2, 貳: 2, 叁: 3, 參: 3, 肆: 4, 伍: 5, 陆: 6, 陸: 6, 柒: 7, 捌: 8, 玖: 9,
};
const SMALL_UNITS: Readonly<Record<string, number>> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const BIG_UNITS: Readonly<Record<string, number>> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 };

/** Matches maximal runs of Chinese numeral characters (global; reset `lastIndex` before use). */
export const CHINESE_NUMERAL_RUN = /[零〇一二两兩三四五六七八九壹贰貳叁參肆伍陆陸柒捌玖十拾百佰千仟万萬亿億]+/g;

export function isChineseNumeralChar(ch: string): boolean {
  return ch in DIGITS || ch in SMALL_UNITS || ch in BIG_UNITS;
}

export interface ChineseNumber {
  readonly value: number;
  /** The Arabic digits the run stands for: "2026" for 二〇二六 (leading zeros kept), "105" for
   *  一百零五. */
  readonly digits: string;
}

/**
 * Parses a whole run of numeral characters, or returns undefined when it is not a number on its
 * own: runs without any digit (万, 百 alone read as words: 万达, 百度), except those starting
 * with 十 (十 = 10, 十五 = 15).
 */
export function parseChineseNumeral(run: string): ChineseNumber | undefined {
  if (run.length === 0) return undefined;
  let hasDigit = false;
  let hasUnit = false;
  for (const ch of run) {
    if (!isChineseNumeralChar(ch)) return undefined;
    if (ch in DIGITS) hasDigit = true;
    else hasUnit = true;
  }
  if (!hasDigit && SMALL_UNITS[run.charAt(0)] !== 10) return undefined;
  if (!hasUnit) {
    let digits = "";
    for (const ch of run) digits += String(DIGITS[ch]);
    return { value: Number(digits), digits };
  }
  // Three levels: 亿 (yi), 万 (wan), and the part below 万 (rest); 一亿二千万 = 1e8 + 2000 * 1e4.
  let yi = 0;
  let wan = 0;
  let rest = 0;
  let current = 0;
  for (const ch of run) {
    const digit = DIGITS[ch];
    const smallUnit = SMALL_UNITS[ch];
    if (digit !== undefined) current = digit;
    else if (smallUnit !== undefined) {
      rest += (current || 1) * smallUnit;
      current = 0;
    } else if (BIG_UNITS[ch] === 1e4) {
      wan += (rest + current || 1) * 1e4;
      rest = current = 0;
    } else {
      // 万亿: everything so far is multiplied.
      yi = (yi + wan + rest + current || 1) * 1e8;
      wan = rest = current = 0;
    }
  }
  const value = yi + wan + rest + current;
  return { value, digits: String(value) };
}
