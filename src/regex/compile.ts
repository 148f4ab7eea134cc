/**
 * Regex AST -> grammar expression over code points, with JSON Schema `pattern` semantics: an
 * unanchored search, i.e. the text matches when some substring does. A top-level alternative
 * starting with `^` is anchored at the start, one ending with `$` at the end; any other anchor
 * position is rejected. The result is a plain `Expr` (no refs, no jsonString), so the automaton
 * builder compiles it like any other expression. Not a matcher.
 */
import { chars, type Expr } from "../grammar/ir.js";
import { ANY } from "./charset.js";
import { parseRegex, type RegexNode } from "./parse.js";
import { PatternError } from "./pattern-error.js";

/** The set of texts in which `pattern` finds a match (ECMAScript semantics, u flag). */
export function patternToExpr(pattern: string): Expr {
  const root = parseRegex(pattern);
  const alternatives = root.type === "alt" ? root.items : [root];
  return { kind: "alt", items: alternatives.map((a) => searchExpr(pattern, a)) };
}

/** Matches any text (`[^]*`). */
export const anyText: Expr = { kind: "repeat", item: chars(...ANY), min: 0, max: Infinity };

function searchExpr(pattern: string, alternative: RegexNode): Expr {
  const items = alternative.type === "seq" ? [...alternative.items] : [alternative];
  const first = items[0];
  const anchoredStart = first?.type === "anchor" && first.at === "start";
  if (anchoredStart) items.shift();
  const last = items[items.length - 1];
  const anchoredEnd = last?.type === "anchor" && last.at === "end";
  if (anchoredEnd) items.pop();
  const body = items.map((n) => toExpr(pattern, n));
  return {
    kind: "seq",
    items: [...(anchoredStart ? [] : [anyText]), ...body, ...(anchoredEnd ? [] : [anyText])],
  };
}

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
