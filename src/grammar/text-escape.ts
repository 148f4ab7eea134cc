/**
 * Escaping shared by the grammar printers and the GBNF parser: how a literal string and a
 * character class are written as text. One place, so printing and parsing cannot drift apart.
 */

const hex = (cp: number, width: number): string => cp.toString(16).toUpperCase().padStart(width, "0");

/** Escape one code point for a `"..."` literal (or, with `inClass`, for a `[...]` class). */
export function escapeCodePoint(cp: number, inClass: boolean): string {
  switch (cp) {
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x5c:
      return "\\\\";
  }
  if (cp === 0x22 && !inClass) return '\\"';
  if (inClass && (cp === 0x5d || cp === 0x5e || cp === 0x2d || cp === 0x5b)) return `\\x${hex(cp, 2)}`;
  // Control characters, DEL, and code points that are invisible or unpaired are written as escapes
  // so the text survives copy/paste; everything else is written raw (GBNF files are UTF-8).
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if ((cp >= 0x80 && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff)) return `\\u${hex(cp, 4)}`;
  if (cp >= 0xe0000) return `\\U${hex(cp, 8)}`;
  return String.fromCodePoint(cp);
}

export function quoteLiteral(text: string): string {
  let out = '"';
  for (const ch of text) out += escapeCodePoint(ch.codePointAt(0)!, false);
  return `${out}"`;
}

export function formatClass(ranges: readonly (readonly [number, number])[]): string {
  let out = "[";
  for (const [lo, hi] of ranges) {
    out += escapeCodePoint(lo, true);
    if (hi > lo) out += (hi > lo + 1 ? "-" : "") + escapeCodePoint(hi, true);
  }
  return `${out}]`;
}
