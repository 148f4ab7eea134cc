/**
 * The normalized view of a text with an offset map back to the original. Normalization folds
 * width and case (fold.ts), drops separators (whitespace, punctuation), and rewrites runs of
 * Chinese numerals as Arabic digits (三台 -> 3台, 二〇二六 -> 2026). Each normalized character
 * records the original UTF-16 range it came from, so a match in the normalized text maps back to
 * an exact span of the original: [starts[i], ends[j - 1]).
 */
import { CHINESE_NUMERAL_RUN, parseChineseNumeral } from "./chinese-numerals.js";
import { foldCodePoint, isSeparator } from "./fold.js";

export interface NormalizedText {
  readonly text: string;
  /** Original start offset of each normalized UTF-16 unit. */
  readonly starts: Int32Array;
  /** Original end offset (exclusive) of each normalized UTF-16 unit. */
  readonly ends: Int32Array;
}

export function normalizeWithMap(text: string): NormalizedText {
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const emit = (s: string, start: number, end: number): void => {
    for (let k = 0; k < s.length; k++) {
      out.push(s[k]);
      starts.push(start);
      ends.push(end);
    }
  };
  // Numeral runs are found on the original text, before separators are dropped, so that 一、二
  // stays two numbers instead of becoming 12.
  const runs = new Map<number, { end: number; digits: string }>();
  CHINESE_NUMERAL_RUN.lastIndex = 0;
  for (let m = CHINESE_NUMERAL_RUN.exec(text); m; m = CHINESE_NUMERAL_RUN.exec(text)) {
    const n = parseChineseNumeral(m[0]);
    if (n) runs.set(m.index, { end: m.index + m[0].length, digits: n.digits });
  }
  let i = 0;
  while (i < text.length) {
    const run = runs.get(i);
    if (run) {
      // Every digit maps to the whole run: 十二 has no sub-span that means "2".
      emit(run.digits, i, run.end);
      i = run.end;
      continue;
    }
    const cp = String.fromCodePoint(text.codePointAt(i) ?? 0);
    const folded = foldCodePoint(cp);
    for (const ch of folded) if (!isSeparator(ch)) emit(ch, i, i + cp.length);
    i += cp.length;
  }
  return { text: out.join(""), starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/** The normalized form of a value (same rules as the text, so the two compare directly). */
export function normalizeValue(value: string): string {
  return normalizeWithMap(value).text;
}
