/**
 * A grammar expression over a string's decoded characters rewritten over the characters of its
 * JSON form, for text grammars (llama.cpp GBNF) that have no JSON-string node. Each character is
 * written in canonical JSON form, as the automaton builder writes it (automaton/json-escape.ts):
 * `\"`, `\\`, \b \f \n \r \t, other control characters as \u00XX with lowercase hex, everything
 * else raw. Canonical escaping maps one character to one fixed text, so the rewrite is exact.
 */
import { alt, chars, lit, type Expr } from "../grammar/index.js";
import { negate, normalize, type Ranges } from "./charset.js";

const SHORT: Readonly<Record<number, string>> = { 0x08: "\\b", 0x09: "\\t", 0x0a: "\\n", 0x0c: "\\f", 0x0d: "\\r", 0x22: '\\"', 0x5c: "\\\\" };
/** Characters written as an escape sequence. */
const ESCAPED: Ranges = [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c]];
const RAW: Ranges = negate(ESCAPED);

/** The canonical JSON text of one escaped character. */
const escapeOf = (cp: number): string => SHORT[cp] ?? `\\u${cp.toString(16).padStart(4, "0")}`;

/** Every escape sequence, as one expression: `\` then a short escape or u00XX. */
const ANY_ESCAPE: Expr = {
  kind: "seq",
  items: [lit("\\"), alt(chars([0x22, 0x22], [0x5c, 0x5c], [0x62, 0x62], [0x66, 0x66], [0x6e, 0x6e], [0x72, 0x72], [0x74, 0x74]), { kind: "seq", items: [lit("u00"), alt({ kind: "seq", items: [lit("0"), chars([0x30, 0x37], [0x62, 0x62], [0x65, 0x66])] }, { kind: "seq", items: [lit("1"), chars([0x30, 0x39], [0x61, 0x66])] })] })],
};

/** One character of `set`, in JSON form. */
export function jsonChars(set: Ranges): Expr {
  const raw = intersect(set, RAW);
  const escaped = intersect(set, ESCAPED);
  const escapedCount = escaped.reduce((n, [a, b]) => n + b - a + 1, 0);
  const escapes: Expr[] = escapedCount === 34 ? [ANY_ESCAPE] : escaped.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => lit(escapeOf(a + i))));
  const items = [...(raw.length > 0 ? [chars(...raw)] : []), ...escapes];
  return items.length === 1 ? items[0]! : alt(...items);
}

/** `e` (over decoded characters) over JSON-form characters. */
export function jsonEncode(e: Expr): Expr {
  switch (e.kind) {
    case "lit":
      return lit(JSON.stringify(e.text).slice(1, -1));
    case "chars":
      return jsonChars(e.ranges.map(([a, b]) => [a, b]));
    case "seq":
    case "alt":
      return { kind: e.kind, items: e.items.map(jsonEncode) };
    case "repeat":
      return { ...e, item: jsonEncode(e.item) };
    case "ref":
    case "jsonString":
      throw new Error(`jsonEncode: a pattern expression has no ${e.kind}`);
  }
}

function intersect(a: Ranges, b: Ranges): Ranges {
  const out: Ranges = [];
  for (const [x, y] of a) for (const [u, v] of b) if (Math.max(x, u) <= Math.min(y, v)) out.push([Math.max(x, u), Math.min(y, v)]);
  return normalize(out);
}
