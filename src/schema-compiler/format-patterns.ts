/**
 * A string format's grammar rule (grammars/*.gbnf) as an anchored regex over the string's
 * content, so that the string token can intersect it with length bounds (json-string.ts cuts a
 * pattern to minLength/maxLength exactly; a library rule cannot be cut). The regex is printed
 * from the same rule, references inlined, so both spell one language. The format rules are
 * regular (no rule refers back to itself); a recursive one is a bug in the grammar file.
 */

import { PocketExtractError } from "../errors.js";
import { loadGrammarFile, type Expr, type Grammar } from "../grammar/index.js";

const cache = new Map<string, string>();

/** `^(?:...)$` for rule `name` of grammars/`file`.gbnf. */
export function formatPattern(file: string, name: string): string {
  const key = `${file}\u0000${name}`;
  let pattern = cache.get(key);
  if (pattern === undefined) {
    pattern = `^(?:${toRegex(loadGrammarFile(file), { kind: "ref", name }, new Set())})$`;
    cache.set(key, pattern);
  }
  return pattern;
}

function toRegex(g: Grammar, e: Expr, open: ReadonlySet<string>): string {
  switch (e.kind) {
    case "lit":
      return Array.from(e.text, (ch) => escapeChar(ch.codePointAt(0)!)).join("");
    case "chars":
      return `[${e.ranges.map(([lo, hi]) => (lo === hi ? escapeChar(lo) : `${escapeChar(lo)}-${escapeChar(hi)}`)).join("")}]`;
    case "seq":
      return e.items.map((i) => toRegex(g, i, open)).join("");
    case "alt":
      return e.items.length === 0 ? "[]" : `(?:${e.items.map((i) => toRegex(g, i, open)).join("|")})`;
    case "repeat": {
      const item = toRegex(g, e.item, open);
      return `${isAtom(e.item) ? item : `(?:${item})`}{${e.min},${e.max === Infinity ? "" : e.max}}`;
    }
    case "ref": {
      const body = g.rules.get(e.name);
      if (body === undefined || open.has(e.name)) throw new PocketExtractError("GRAMMAR_SYNTAX", `format rule ${e.name} is missing or recursive`);
      // A group, so that a referenced alternative stays whole inside a sequence.
      return `(?:${toRegex(g, body, new Set([...open, e.name]))})`;
    }
    default:
      throw new PocketExtractError("GRAMMAR_SYNTAX", `a format rule holds a ${e.kind}`);
  }
}

/** Prints as one regex atom (a repeat applies to it whole). */
const isAtom = (e: Expr): boolean => e.kind === "chars" || e.kind === "alt" || e.kind === "ref" || (e.kind === "lit" && [...e.text].length === 1);

/** Letters and digits as they are, every other character as an escape (no regex syntax leaks from a literal or a class). */
function escapeChar(cp: number): string {
  if (/^[A-Za-z0-9]$/.test(String.fromCodePoint(cp))) return String.fromCodePoint(cp);
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\u{${cp.toString(16)}}`;
}
