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
  for (const [name, body] of source.rules) {
    if (overrides.has(name) || target.has(rename(name))) continue;
    target.set(rename(name), renameRefs(body, rename));
  }
  return rename(source.start);
}
