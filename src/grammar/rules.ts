/**
 * Rule-set utilities: import the rules of one grammar into another under a name prefix (how the
 * schema compiler pulls in grammars/*.gbnf pieces without name clashes), and rewrite references.
 */

import type { Expr, Grammar } from "./ir.js";

/** Rewrites every `ref` in `e` through `rename`. */
export function renameRefs(e: Expr, rename: (name: string) => string): Expr {
  switch (e.kind) {
    case "ref":
      return { kind: "ref", name: rename(e.name) };
    case "seq":
    case "alt":
      return { kind: e.kind, items: e.items.map((i) => renameRefs(i, rename)) };
    case "repeat":
      return { ...e, item: renameRefs(e.item, rename) };
    default:
      return e;
  }
}

/**
 * Copies the rules of `source` into `target` as `prefix + name`, except rules listed in
 * `overrides`, whose references are redirected to the given target rule names (e.g. a library's
 * `ws` rule replaced by the configured whitespace). Existing target rules are left alone, so
 * importing the same piece twice is harmless. Returns the target name of `source`'s start rule.
 */
export function importRules(
  target: Map<string, Expr>,
  source: Grammar,
  prefix: string,
  overrides: ReadonlyMap<string, string> = new Map(),
): string {
  const rename = (n: string): string => overrides.get(n) ?? prefix + n;
  for (const [name, body] of renamedRules(source.rules, prefix, overrides, rename)) if (!target.has(name)) target.set(name, body);
  return rename(source.start);
}

/** Renamed copies of a library grammar's rules, per (grammar, prefix, overrides): every schema
 *  compile imports the same ones (the "any value" levels alone are ~80 rules), and expressions are
 *  immutable, so they are renamed once. */
const renamedCache = new WeakMap<ReadonlyMap<string, Expr>, Map<string, readonly (readonly [string, Expr])[]>>();

function renamedRules(
  rules: ReadonlyMap<string, Expr>,
  prefix: string,
  overrides: ReadonlyMap<string, string>,
  rename: (name: string) => string,
): readonly (readonly [string, Expr])[] {
  let byRenaming = renamedCache.get(rules);
  if (byRenaming === undefined) renamedCache.set(rules, (byRenaming = new Map()));
  const key = `${prefix}\u0000${[...overrides].join("\u0000")}`;
  let renamed = byRenaming.get(key);
  if (renamed === undefined) {
    renamed = [...rules].filter(([name]) => !overrides.has(name)).map(([name, body]) => [rename(name), renameRefs(body, rename)] as const);
    byRenaming.set(key, renamed);
  }
  return renamed;
}

/**
 * The rules `grammar.start` can reach, in their original order. A compile imports whole library
 * grammars (json.gbnf once per any-value level) and keeps `$ref` rules of branches it dropped;
 * every later pass (automaton analysis, serialization, printing) costs per rule, so the unused
 * ones are dropped once here.
 */
export function reachableRules(grammar: Grammar): Map<string, Expr> {
  const reached = new Set<string>([grammar.start]);
  const pending = [grammar.start];
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case "ref":
        if (!reached.has(e.name)) {
          reached.add(e.name);
          pending.push(e.name);
        }
        return;
      case "seq":
      case "alt":
        for (const item of e.items) visit(item);
        return;
      case "repeat":
        visit(e.item);
        return;
      default:
        return;
    }
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const body = grammar.rules.get(name);
    if (body !== undefined) visit(body);
  }
  const kept = new Map<string, Expr>();
  for (const [name, body] of grammar.rules) if (reached.has(name)) kept.set(name, body);
  return kept;
}
