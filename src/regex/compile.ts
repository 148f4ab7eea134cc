/**
 * Regex AST -> grammar expressions over code points, with JSON Schema `pattern` semantics: an
 * unanchored search, i.e. the text matches when some substring does. A top-level alternative
 * starting with `^` is anchored at the start, one ending with `$` at the end; any other anchor
 * position is rejected. The results are plain `Expr`s (no refs, no jsonString), so the automaton
 * builder compiles them like any other expression. Not a matcher.
 */
import { chars, type Expr } from "../grammar/index.js";
import { ANY } from "./charset.js";
import { parseRegex, type RegexNode } from "./parse.js";
import { PatternError } from "./pattern-error.js";

/**
 * The texts in which `pattern` finds a match, split by how a match ends:
 * - `prefix`: alternatives not anchored at the end; a text matches when some prefix of it is in
 *   this language (the automaton builder appends "any text" after the first match, which keeps
 *   the subset construction from tracking every way the match could continue);
 * - `whole`: alternatives ending in `$`; a text matches when it is in this language.
 * Either is null when no alternative is of that kind.
 */
export interface PatternParts {
  readonly prefix: Expr | null;
  readonly whole: Expr | null;
}

export function patternParts(pattern: string): PatternParts {
  const root = parseRegex(pattern);
  const prefix: Expr[] = [];
  const whole: Expr[] = [];
  for (const alternative of root.type === "alt" ? root.items : [root]) {
    const items = alternative.type === "seq" ? [...alternative.items] : [alternative];
    const first = items[0];
    const anchoredStart = first?.type === "anchor" && first.at === "start";
    if (anchoredStart) items.shift();
    const last = items[items.length - 1];
    const anchoredEnd = last?.type === "anchor" && last.at === "end";
    if (anchoredEnd) items.pop();
    const body: Expr = { kind: "seq", items: [...(anchoredStart ? [] : [anyText]), ...items.map((n) => toExpr(pattern, n))] };
    (anchoredEnd ? whole : prefix).push(body);
  }
  const union = (xs: Expr[]): Expr | null => (xs.length === 0 ? null : { kind: "alt", items: xs });
  return { prefix: union(prefix), whole: union(whole) };
}

/** Matches any text (`[^]*`). */
export const anyText: Expr = { kind: "repeat", item: chars(...ANY), min: 0, max: Infinity };

function toExpr(pattern: string, node: RegexNode): Expr {
  switch (node.type) {
    case "set":
      return { kind: "chars", ranges: node.ranges };
    case "seq":
      return { kind: "seq", items: node.items.map((n) => toExpr(pattern, n)) };
    case "alt":
      return { kind: "alt", items: node.items.map((n) => toExpr(pattern, n)) };
    case "repeat":
      return { kind: "repeat", item: toExpr(pattern, node.item), min: node.min, max: node.max };
    case "anchor":
      throw new PatternError(
        "PATTERN_UNSUPPORTED",
        pattern,
        node.position,
        `'${node.at === "start" ? "^" : "$"}' anchor inside the pattern (only at the start or end of a top-level alternative)`,
      );
  }
}
