/**
 * Grammar IR -> one minimal, trimmed byte DFA. Each rule becomes a DFA (memoized per rule and
 * remaining recursion depth) that its referrers embed; identical JSON string specs share one DFA.
 * Recursion is unrolled: a reference entering a recursion head (rule-graph.ts) spends one unit of
 * depth, and at depth 0 that branch is removed. An empty result is SCHEMA_UNSATISFIABLE.
 */
import type { Grammar } from "../grammar/ir.js";
import { PocketExtractError } from "../errors.js";
import { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { compileExpr } from "./compile-expr.js";
import type { Leaf } from "./expr-nfa.js";
import { JsonStrings } from "./json-string.js";
import { analyzeRules } from "./rule-graph.js";

export interface BuildOptions {
  /** How many times a recursive rule may be re-entered along one path (default 8). */
  readonly maxRecursionDepth?: number;
  /** Largest number of states of any automaton built on the way (default 200,000). */
  readonly maxStates?: number;
}

export const DEFAULT_MAX_RECURSION_DEPTH = 8;
export const DEFAULT_MAX_STATES = 200_000;
/** Total work allowed per build, in units of state/edge visits per allowed state. */
const WORK_PER_STATE = 64;

export function buildAutomaton(grammar: Grammar, options: BuildOptions = {}): ByteDfa {
  const maxDepth = options.maxRecursionDepth ?? DEFAULT_MAX_RECURSION_DEPTH;
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const budget = new Budget(maxStates, maxStates * WORK_PER_STATE);
  const { heads, component } = analyzeRules(grammar);
  const rules = new Map<string, ByteDfa | null>();
  const strings = new JsonStrings(budget);
  const cut = new Set<string>();

  const ruleDfa = (name: string, depth: number): ByteDfa | null => {
    const key = `${depth}:${name}`;
    if (rules.has(key)) return rules.get(key)!;
    const resolve = (leaf: Leaf): ByteDfa | null => {
      if (leaf.kind === "jsonString") return strings.get(leaf);
      if (component.get(leaf.name) !== component.get(name)) return ruleDfa(leaf.name, maxDepth);
      if (!heads.has(leaf.name)) return ruleDfa(leaf.name, depth);
      if (depth === 0) {
        cut.add(leaf.name);
        return null;
      }
      return ruleDfa(leaf.name, depth - 1);
    };
    const dfa = compileExpr(grammar.rules.get(name)!, budget, `rule '${name}'`, { resolve });
    rules.set(key, dfa);
    return dfa;
  };

  const dfa = ruleDfa(grammar.start, maxDepth);
  if (dfa === null) {
    const names = [...cut].map((n) => `'${n}'`).join(", ");
    throw new PocketExtractError(
      "SCHEMA_UNSATISFIABLE",
      cut.size > 0
        ? `recursion with no base case in rule ${names}: no text is accepted within ${maxDepth} levels`
        : `the grammar (start rule '${grammar.start}') accepts no text`,
    );
  }
  return dfa;
}
