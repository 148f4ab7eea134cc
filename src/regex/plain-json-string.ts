/**
 * A `jsonString` IR node as plain grammar rules (literals, character classes, repeats, rule
 * references) for text grammars without a JSON-string node, such as llama.cpp's GBNF. Exact for
 * length bounds, a pattern (when its length bounds are implied or a rewrite, see length-bound.ts)
 * and excluded names (a trie of the names, each node allowing every other continuation). What
 * plain rules cannot say is widened, never narrowed, and described in `approximations`:
 * a pattern under length bounds it does not imply (the bounds are dropped), exclusions next to a
 * pattern, excluded patterns and a pattern's look-arounds (dropped), and a verbatim field's
 * source (any text of its characters, up to its length). The wider grammar accepts everything
 * the exact one does.
 */
import { alt, lit, never, ref, repeat, seq, type Expr } from "../grammar/index.js";
import { ANY, negate, normalize } from "./charset.js";
import { anyText, patternLanguage } from "./compile.js";
import { jsonChars, jsonEncode } from "./json-encode.js";
import { boundLength } from "./length-bound.js";

export type JsonStringSpec = Extract<Expr, { kind: "jsonString" }>;

export interface PlainJsonString {
  /** The string token, quotes included. */
  readonly expr: Expr;
  /** Helper rules `expr` refers to (the exclusion trie's nodes; shared rules are the namer's). */
  readonly rules: ReadonlyMap<string, Expr>;
  /** What the plain form accepts beyond the node's language; empty when exact. */
  readonly approximations: readonly string[];
}

/** How helper rules are named: `fresh` gives an unused name; `shared` the name of one rule per
 *  hint, defined once (the canonical JSON character all unconstrained strings use). */
export interface RuleNames {
  fresh(hint: string): string;
  shared(hint: string, body: () => Expr): string;
}

export function plainJsonString(spec: JsonStringSpec, names: RuleNames): PlainJsonString {
  const { minLength: min, maxLength: max } = spec;
  const rules = new Map<string, Expr>();
  const approximations: string[] = [];
  const quoted = (content: Expr): PlainJsonString => ({ expr: seq(lit('"'), content, lit('"')), rules, approximations });
  const bounds = `length ${min}..${max === Infinity ? "unbounded" : max}`;
  if (spec.excludePatterns !== undefined) approximations.push(`excluded patterns ${spec.excludePatterns.map((p) => JSON.stringify(p)).join(", ")} not enforced`);
  if (spec.substringOf !== undefined) {
    approximations.push(`verbatim text (substring of the source) widened to any text of the source's characters, ${bounds}`);
    const own = normalize([...spec.substringOf].map((ch) => [ch.codePointAt(0)!, ch.codePointAt(0)!]));
    const [lo, hi] = [Math.max(min, 1), Math.min(max, [...spec.substringOf].length)];
    return quoted(lo > hi ? never() : repeat(jsonChars(own), lo, hi));
  }
  if (spec.pattern !== undefined) {
    if (spec.exclude !== undefined) approximations.push(`excluded names ${spec.exclude.map((n) => JSON.stringify(n)).join(", ")} not enforced next to pattern ${JSON.stringify(spec.pattern)}`);
    const { content, looksDropped } = patternContent(spec.pattern);
    if (looksDropped) approximations.push(`look-arounds of pattern ${JSON.stringify(spec.pattern)} not enforced`);
    const bounded = boundLength(content, min, max);
    if (bounded === null) approximations.push(`${bounds} not enforced on pattern ${JSON.stringify(spec.pattern)}`);
    return quoted(jsonEncode(bounded ?? content));
  }
  const anyChar = ref(names.shared("json-char", () => jsonChars(ANY)));
  if (spec.exclude === undefined) return quoted(repeat(anyChar, min, max));
  return quoted(excludedNames(spec.exclude, min, max, anyChar, rules, names));
}

/** The texts `pattern` finds a match in (search semantics), over decoded characters; plain rules
 *  cannot intersect, so look-arounds are dropped (`looksDropped`: the content is then wider). */
function patternContent(pattern: string): { content: Expr; looksDropped: boolean } {
  const { branches } = patternLanguage(pattern);
  const content = alt(...branches.flatMap(({ search: { prefix, whole } }) => [...(prefix ? [seq(prefix, anyText)] : []), ...(whole ? [whole] : [])]));
  return { content, looksDropped: branches.some((b) => b.require.length > 0 || b.forbid.length > 0) };
}

/** Texts of length [min, max] other than `names`: one rule per trie node of the names. */
function excludedNames(excluded: readonly string[], min: number, max: number, anyChar: Expr, rules: Map<string, Expr>, names: RuleNames): Expr {
  const tail = (depth: number): Expr[] => (max === depth ? [] : [repeat(anyChar, Math.max(0, min - depth), max - depth)]);
  const node = (prefix: string, depth: number): Expr => {
    const words = excluded.filter((n) => n.startsWith(prefix));
    const next = new Map<number, string>();
    for (const w of words) if (w.length > prefix.length) next.set(w.codePointAt(prefix.length)!, String.fromCodePoint(w.codePointAt(prefix.length)!));
    const items: Expr[] = [];
    if (depth >= min && depth <= max && !excluded.includes(prefix)) items.push(seq());
    if (depth + 1 <= max) {
      for (const [, ch] of next) items.push(seq(jsonEncode(lit(ch)), descend(prefix + ch, depth + 1)));
      const others = negate([...next.keys()].map((cp) => [cp, cp]));
      if (next.size === 0) items.push(seq(anyChar, ...tail(depth + 1)));
      else if (others.length > 0) items.push(seq(jsonChars(others), ...tail(depth + 1)));
    }
    return items.length === 0 ? never() : alt(...items);
  };
  const descend = (prefix: string, depth: number): Expr => {
    const name = names.fresh("excluded");
    rules.set(name, node(prefix, depth));
    return ref(name);
  };
  return node("", 0);
}
