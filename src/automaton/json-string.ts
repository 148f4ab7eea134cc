/**
 * The automaton of a `jsonString` IR node: content language (pattern search, or any text), minus
 * the excluded names and patterns, cut to the length bounds in code points, then JSON-encoded
 * with quotes. The regex DFAs are minimized before the products so those stay small; the
 * products themselves are minimized once, at the end.
 */
import type { Expr } from "../grammar/ir.js";
import { anyText, patternToExpr } from "../regex/index.js";
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { compileExpr } from "./compile-expr.js";
import { finish } from "./finish.js";
import { encodeJsonString } from "./json-escape.js";
import { boundLength } from "./length.js";
import { product } from "./product.js";

export type JsonStringSpec = Extract<Expr, { kind: "jsonString" }>;

/** Stable identity of a spec, for memoizing identical strings within one build. */
export function jsonStringKey(spec: JsonStringSpec): string {
  return JSON.stringify([spec.minLength, spec.maxLength === Infinity ? null : spec.maxLength, spec.pattern ?? null, spec.exclude ?? [], spec.excludePatterns ?? []]);
}

export function buildJsonString(spec: JsonStringSpec, budget: Budget): ByteDfa | null {
  const what = `string ${jsonStringKey(spec)}`;
  const { minLength: min, maxLength: max } = spec;
  if (min > max) return null;
  let content = compileExpr(spec.pattern === undefined ? anyText : patternToExpr(spec.pattern), budget, what);
  const excluded: Expr[] = [
    ...(spec.exclude ?? []).map((text): Expr => ({ kind: "lit", text })),
    ...(spec.excludePatterns ?? []).map(patternToExpr),
  ];
  if (content !== null && excluded.length > 0) {
    const ex = compileExpr({ kind: "alt", items: excluded }, budget, what);
    if (ex !== null) content = product(content, ex, "difference", budget, what);
  }
  if (content === null) return null;
  if (min > 0 || max !== Infinity) content = boundLength(content, min, max, budget, what);
  return finish(encodeJsonString(content, budget, what));
}
