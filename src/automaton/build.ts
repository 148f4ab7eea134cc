/**
 * Grammar IR -> the grammar automaton: per-rule automata (rule-automata.ts) run with a call stack,
 * states built on demand (grammar-automaton.ts). Rules are built now nearest the start first, up
 * to the `eagerStates` budget (all of them in most schemas; called rules are then determinized
 * state by state as documents reach them, subset-rule.ts); the rest of a big schema's rules when
 * a document first reaches them, so an error in one of those surfaces while decoding, as a typed
 * error. An empty language is SCHEMA_UNSATISFIABLE.
 */
import type { Grammar } from "../grammar/index.js";
import { GrammarAutomaton } from "./grammar-automaton.js";
import { DEFAULT_EAGER_STATES, DEFAULT_MAX_STATES, RuleSet, type BuildOptions } from "./rules/index.js";

export { clearSharedAutomata, DEFAULT_EAGER_STATES, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./rules/index.js";

/**
 * Builds the byte-level grammar automaton of a grammar IR (rule automata compiled eagerly up to a
 * state budget, the rest on demand).
 */
export function buildAutomaton(grammar: Grammar, options: BuildOptions = {}): GrammarAutomaton {
  const rules = new RuleSet(grammar, options);
  rules.buildNearest(options.eagerStates ?? DEFAULT_EAGER_STATES);
  return new GrammarAutomaton(rules, options.maxStates ?? DEFAULT_MAX_STATES);
}
