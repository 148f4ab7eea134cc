/**
 * One expression -> finished DFA (NFA, subset construction, trim, minimize). Leaves (refs,
 * JSON strings) are resolved by the caller; expressions from regexes have none.
 */
import type { Expr } from "../../grammar/index.js";
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { determinize } from "./determinize.js";
import { addExpr, type ResolveLeaf } from "./expr-nfa.js";
import { finish } from "./finish.js";
import { Nfa } from "./nfa.js";

const noLeaves: ResolveLeaf = (leaf) => {
  throw new Error(`unexpected ${leaf.kind} in a self-contained expression`);
};

export interface CompileOptions {
  readonly resolve?: ResolveLeaf;
  /** Stop at the first match: see determinize(). */
  readonly stopAtAccept?: boolean;
}

export function compileExpr(expr: Expr, budget: Budget, what: string, options: CompileOptions = {}): ByteDfa | null {
  const resolve = options.resolve ?? noLeaves;
  // A lone leaf resolved to an automaton is already finished.
  if (expr.kind === "ref" || expr.kind === "jsonString") {
    const target = resolve(expr, 1);
    if (typeof target !== "number") return target;
  }
  const nfa = new Nfa(budget, what);
  const frag = addExpr(nfa, expr, resolve);
  if (frag === null) return null;
  return finish(determinize(nfa, frag, budget, what, options.stopAtAccept));
}
