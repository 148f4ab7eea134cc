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

/** Per code point: its folded form with separators removed. Texts reuse few distinct code
 *  points, and NFKC plus the Unicode property test are the expensive part of normalizing. */
const foldCache = new Map<number, string>();

function foldKeep(cp: number): string {
  let f = foldCache.get(cp);
  if (f === undefined) {
    f = "";
    for (const ch of foldCodePoint(String.fromCodePoint(cp))) if (!isSeparator(ch)) f += ch;
    foldCache.set(cp, f);
  }
  return f;
}

export function normalizeWithMap(text: string): NormalizedText {
  const parts: string[] = [];
  // NFKC can expand a code point (㎏ -> kg), so the map may outgrow the text; grow on demand.
  let starts = new Int32Array(text.length + 8);
  let ends = new Int32Array(text.length + 8);
  let n = 0;
  const emit = (s: string, start: number, end: number): void => {
    if (n + s.length > starts.length) {
      const size = 2 * (n + s.length);
      const ns = new Int32Array(size);
      const ne = new Int32Array(size);
      ns.set(starts);
      ne.set(ends);
      starts = ns;
      ends = ne;
    }
    parts.push(s);
    for (let k = 0; k < s.length; k++, n++) {
      starts[n] = start;
      ends[n] = end;
    }
  };
  // Numeral runs are found on the original text, before separators are dropped, so that 一、二
  // stays two numbers instead of becoming 12.
  const runs = new Map<number, { end: number; digits: string }>();
  CHINESE_NUMERAL_RUN.lastIndex = 0;
  for (let m = CHINESE_NUMERAL_RUN.exec(text); m; m = CHINESE_NUMERAL_RUN.exec(text)) {
    const num = parseChineseNumeral(m[0]);
    if (num) runs.set(m.index, { end: m.index + m[0].length, digits: num.digits });
  }
  let i = 0;
  while (i < text.length) {
    const run = runs.size > 0 ? runs.get(i) : undefined;
    if (run) {
      // Every digit maps to the whole run: 十二 has no sub-span that means "2".
      emit(run.digits, i, run.end);
      i = run.end;
      continue;
    }
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    const f = foldKeep(cp);
    if (f.length > 0) emit(f, i, i + width);
    i += width;
  }
  return { text: parts.join(""), starts: starts.slice(0, n), ends: ends.slice(0, n) };
}

/** The normalized form of a value (same rules as the text, so the two compare directly). */
export function normalizeValue(value: string): string {
  return normalizeWithMap(value).text;
}
