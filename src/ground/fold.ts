/**
 * Character folding shared by every normalized comparison: full-width to half-width (NFKC, so
 * ｆｕｌｌ, ①, ² fold too), lower case, and which characters count as separators (whitespace,
 * punctuation) that normalized comparison ignores.
 */

import { isWordCodePoint } from "../util/index.js";

const SEPARATOR = /^[\p{P}\p{Z}\s+~^`|]$/u;

/** Folds one code point; may return several characters (NFKC expansion) or the same one. */
export function foldCodePoint(cp: string): string {
  const code = cp.codePointAt(0) ?? 0;
  // ASCII and CJK ideographs are already canonical: skip the costly normalize() call for them.
  if (code < 0x80) return cp.toLowerCase();
  if (code >= 0x4e00 && code <= 0x9fff) return cp;
  return cp.normalize("NFKC").toLowerCase();
}

export function isSeparator(ch: string): boolean {
  return SEPARATOR.test(ch);
}

/** Full-width ASCII variants (U+FF01..U+FF5E) and the ideographic space to ASCII, one UTF-16
 *  unit in, one out: offsets into the result are offsets into the input. */
export function foldWidth(text: string): string {
  return text.replace(/[\uff01-\uff5e\u3000]/g, (c) =>
    c === "\u3000" ? " " : String.fromCharCode(c.charCodeAt(0) - 0xfee0),
  );
}

/** ASCII letter or digit after width folding: the characters that form words in Latin script,
 *  where a match must not start or end in the middle of a word (util/word-chars.ts). */
export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && isWordCodePoint(ch.charCodeAt(0));
}
