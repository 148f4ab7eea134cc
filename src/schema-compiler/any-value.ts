/**
 * The rules of "any JSON value" nested at most `depth` containers deep (CompileContext.anyValue):
 * json.gbnf's recursive `value` imported once per level, each level's containers holding values
 * of the level below and level 0 holding scalars only; non-recursive rules, which the automaton
 * calls level by level and shares across schemas (a recursive import could not be). Every level
 * is the same for every schema, and nearly every schema asks for all of them (in JSON Schema mode
 * an object's additional values are any value), so each level's rules are renamed once per
 * process; a compile only adds them to its grammar.
 */
import { alt, importRules, loadGrammarFile, renameRefs, type Expr } from "../grammar/index.js";

export type NamedRule = readonly [string, Expr];

/** Level k's rules, `any-value-k` last, by k (built on first use). */
const levels: (readonly NamedRule[])[] = [];

/** The name of the rule of any value at most `depth` containers deep. */
export const anyValueName = (depth: number): string => `any-value-${depth}`;

/** The rules of levels 0 to `depth`, lowest level first (the rules of `json-number`, which level
 *  0 refers to, are the caller's: CompileContext.library). */
export function anyValueLevels(depth: number): readonly (readonly NamedRule[])[] {
  while (levels.length <= depth) levels.push(levelRules(levels.length));
  return levels.slice(0, depth + 1);
}

function levelRules(depth: number): readonly NamedRule[] {
  const g = loadGrammarFile("json");
  const valueBody = g.rules.get("value")!;
  if (depth === 0) {
    const scalars = valueBody.kind === "alt" ? valueBody.items.filter((e) => !(e.kind === "ref" && (e.name === "object" || e.name === "array"))) : [valueBody];
    return [[anyValueName(0), renameRefs(alt(...scalars), (n) => (n === "string" ? "string" : `json-${n}`))]];
  }
  const inner = anyValueName(depth - 1);
  const prefix = `json-${depth}-`;
  const overrides = new Map([["ws", "ws"], ["string", "string"], ["value", inner], ["number", "json-number"]]);
  const imported = new Map<string, Expr>();
  importRules(imported, { start: "object", rules: g.rules }, prefix, overrides);
  return [...imported, [anyValueName(depth), renameRefs(valueBody, (n) => overrides.get(n) ?? prefix + n)]];
}
