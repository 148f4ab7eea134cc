/**
 * Thompson construction from grammar expressions to the byte NFA. References and JSON strings
 * are not expanded here: the caller resolves them to finished DFAs that are embedded as
 * fragments, to calls of other rules, or to null for an empty language, which propagates: a sequence with an empty part
 * is empty, an alternative drops it, a repeat with min 0 becomes the empty string).
 */
import { repeatCopies, type Expr } from "../../grammar/index.js";
import { addCodePointSet } from "./code-point-set.js";
import type { ByteDfa } from "./dfa.js";
import type { Fragment, Nfa } from "./nfa.js";
import { encodeText } from "./utf8.js";

export type Leaf = Extract<Expr, { kind: "ref" } | { kind: "jsonString" }>;

/** Resolves a leaf to its automaton, or to a rule id to call (nfa.ts `calls`); null when its
 *  language is empty. `copies`: how many times the leaf is repeated in the NFA (bounded repeats
 *  copy their item), which is what an inlined automaton would cost. */
export type ResolveLeaf = (leaf: Leaf, copies: number) => ByteDfa | number | null;

export function addExpr(nfa: Nfa, expr: Expr, resolve: ResolveLeaf, copies = 1): Fragment | null {
  switch (expr.kind) {
    case "lit":
      return nfa.bytes(encodeText(expr.text));
    case "chars":
      return expr.ranges.length === 0 ? null : addCodePointSet(nfa, expr.ranges);
    case "seq": {
      let frag: Fragment | null = null;
      for (const item of expr.items) {
        const next = addExpr(nfa, item, resolve, copies);
        if (next === null) return null;
        if (frag === null) frag = next;
        else {
          nfa.addEps(frag.end, next.start);
          frag = { start: frag.start, end: next.end };
        }
      }
      return frag ?? nfa.empty();
    }
    case "alt": {
      const start = nfa.addState();
      const end = nfa.addState();
      let any = false;
      for (const item of expr.items) {
        const f = addExpr(nfa, item, resolve, copies);
        if (f === null) continue;
        any = true;
        nfa.addEps(start, f.start);
        nfa.addEps(f.end, end);
      }
      return any ? { start, end } : null;
    }
    case "repeat":
      return addRepeat(nfa, expr.item, expr.min, expr.max, resolve, copies * repeatCopies(expr.min, expr.max));
    case "ref":
    case "jsonString": {
      const target = resolve(expr, copies);
      if (target === null) return null;
      return typeof target === "number" ? nfa.call(target) : nfa.embed(target);
    }
  }
}

/**
 * item{min,max}: min mandatory copies, then the optional ones nested as (x(x(x)?)?)? so that the
 * subset construction sees at most one live copy at a time (x?x?x? would make it track many).
 */
function addRepeat(nfa: Nfa, item: Expr, min: number, max: number, resolve: ResolveLeaf, copies: number): Fragment | null {
  if (max < min) return null;
  const start = nfa.addState();
  let cur = start;
  for (let i = 0; i < min; i++) {
    const f = addExpr(nfa, item, resolve, copies);
    if (f === null) return null;
    nfa.addEps(cur, f.start);
    cur = f.end;
  }
  if (max === Infinity) {
    const f = addExpr(nfa, item, resolve, copies);
    const end = nfa.addState();
    nfa.addEps(cur, end);
    if (f !== null) {
      nfa.addEps(cur, f.start);
      nfa.addEps(f.end, cur);
    }
    return { start, end };
  }
  const end = nfa.addState();
  for (let i = min; i < max; i++) {
    nfa.addEps(cur, end);
    const f = addExpr(nfa, item, resolve, copies);
    if (f === null) break;
    nfa.addEps(cur, f.start);
    cur = f.end;
  }
  nfa.addEps(cur, end);
  return { start, end };
}
