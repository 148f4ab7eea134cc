/**
 * Output format pieces: the whitespace allowed between JSON tokens and the punctuation built on
 * it. Compact: no whitespace at all. Flexible: each gap is an optional line break (\n or \r\n)
 * followed by up to FLEXIBLE_INDENT spaces or tabs: bounded, because unbounded whitespace lets a
 * small model loop, yet enough for pretty-printed JSON with 2-space indentation up to 16 levels.
 */

import { alt, chars, lit, optional, repeat, seq, type Expr } from "../grammar/ir.js";

export const FLEXIBLE_INDENT = 32;

/** The whitespace expression for one gap, or null when the format allows none. */
export function gapExpr(format: "compact" | "flexible"): Expr | null {
  if (format === "compact") return null;
  return seq(optional(alt(lit("\n"), lit("\r\n"))), repeat(chars([0x09, 0x09], [0x20, 0x20]), 0, FLEXIBLE_INDENT));
}

/**
 * Concatenation that skips null gaps and merges adjacent literals, so compact grammars print as
 * `"{\"a\":"` rather than a chain of one-character pieces.
 */
export function cat(...parts: (Expr | null)[]): Expr {
  const items: Expr[] = [];
  for (const p of parts) {
    if (p === null) continue;
    const flat = p.kind === "seq" ? p.items : [p];
    for (const item of flat) {
      const last = items[items.length - 1];
      if (item.kind === "lit" && last?.kind === "lit") items[items.length - 1] = lit(last.text + item.text);
      else items.push(item);
    }
  }
  return items.length === 1 ? items[0] : seq(...items);
}

/** Alternatives that drop empty languages (null); null when nothing is left. */
export function union(parts: readonly (Expr | null)[]): Expr | null {
  const items = parts.filter((p): p is Expr => p !== null);
  return items.length === 0 ? null : items.length === 1 ? items[0] : alt(...items);
}
