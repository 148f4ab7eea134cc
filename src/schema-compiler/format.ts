/**
 * Output format pieces: the whitespace allowed between JSON tokens and the punctuation built on
 * it. Compact (extraction's default): no whitespace at all, so a small model cannot loop on it.
 * Flexible (conformance runs, JSON Schema semantics): any JSON whitespace in every gap. It is
 * unbounded on purpose: a bounded gap is a counter, and a counter in every gap multiplied the
 * automaton (a 32-step bound made most real-world schemas exceed the state limit), while the
 * decode loop's token budget already stops a model that would loop on whitespace.
 */

import { alt, chars, lit, repeat, seq, type Expr } from "../grammar/index.js";

/** The whitespace expression for one gap, or null when the format allows none. */
export function gapExpr(format: "compact" | "flexible"): Expr | null {
  if (format === "compact") return null;
  return repeat(chars([0x09, 0x0a], [0x0d, 0x0d], [0x20, 0x20]), 0, Infinity);
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
  return items.length === 1 ? items[0]! : seq(...items);
}

/** Alternatives that drop empty languages (null); null when nothing is left. */
export function union(parts: readonly (Expr | null)[]): Expr | null {
  const items = parts.filter((p): p is Expr => p !== null);
  return items.length === 0 ? null : items.length === 1 ? items[0]! : alt(...items);
}
