/**
 * A grammar rule as an ECMAScript regex source (Unicode mode) of the same language over code
 * points, for rules that are regular as written: no recursion, no JSON-string node. The schema
 * compiler uses it to put a format's grammar (grammars/*.gbnf) and a pattern or length bounds on
 * one string, as one pattern the automaton builder intersects (a look-ahead, compile.ts).
 */
import type { Expr } from "../grammar/index.js";

/** Longest source of one rule; past it the rule is not worth a regex (null). */
const MAX_SOURCE = 200_000;

/** ECMAScript SyntaxCharacter and `/`, escaped anywhere; `-` is escaped inside a class only
 *  (Unicode mode refuses `\-` outside one). */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");

function escapeChar(cp: number, inClass: boolean): string {
  const ch = String.fromCodePoint(cp);
  if (SYNTAX.has(ch) || (inClass && ch === "-")) return `\\${ch}`;
  return cp < 0x20 || cp > 0x7e ? `\\u{${cp.toString(16)}}` : ch;
}

/** The regex of rule `start` (anchored at neither end), or null when it is recursive, holds a
 *  JSON-string node, names an undefined rule or a rule's source grows past MAX_SOURCE. */
export function regexOfRule(rules: ReadonlyMap<string, Expr>, start: string): string | null {
  const expanding = new Set<string>();
  const done = new Map<string, string>();
  const visit = (e: Expr): string | null => {
    switch (e.kind) {
      case "lit":
        return [...e.text].map((c) => escapeChar(c.codePointAt(0)!, false)).join("");
      case "chars":
        return e.ranges.length === 0 ? "[]" : `[${e.ranges.map(([a, b]) => (a === b ? escapeChar(a, true) : `${escapeChar(a, true)}-${escapeChar(b, true)}`)).join("")}]`;
      case "seq": {
        const items = e.items.map(visit);
        return items.some((i) => i === null) ? null : items.map((i) => `(?:${i})`).join("");
      }
      case "alt": {
        if (e.items.length === 0) return "[]";
        const items = e.items.map(visit);
        return items.some((i) => i === null) ? null : `(?:${items.join("|")})`;
      }
      case "repeat": {
        const item = visit(e.item);
        if (item === null) return null;
        const count = e.max === Infinity ? `{${e.min},}` : `{${e.min},${e.max}}`;
        return `(?:${item})${count}`;
      }
      case "ref":
        return visitRule(e.name);
      case "jsonString":
        return null;
    }
  };
  const visitRule = (name: string): string | null => {
    const known = done.get(name);
    if (known !== undefined) return known;
    const body = rules.get(name);
    if (body === undefined || expanding.has(name)) return null;
    expanding.add(name);
    const source = visit(body);
    expanding.delete(name);
    if (source === null || source.length > MAX_SOURCE) return null;
    done.set(name, source);
    return source;
  };
  return visitRule(start);
}
