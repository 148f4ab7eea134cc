/**
 * Grammar IR -> the grammar automaton: per-rule automata (rule-automata.ts) run with a call stack,
 * states built on demand (grammar-automaton.ts). Building is proportional to the grammar's size,
 * not to the number of states its documents can reach. An empty language is SCHEMA_UNSATISFIABLE.
 */
import type { Grammar } from "../grammar/ir.js";
import { GrammarAutomaton } from "./grammar-automaton.js";
import { buildRuleAutomata, DEFAULT_MAX_STATES, type BuildOptions } from "./rule-automata.js";

export { clearSharedAutomata, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./rule-automata.js";

export function buildAutomaton(grammar: Grammar, options: BuildOptions = {}): GrammarAutomaton {
  return new GrammarAutomaton(buildRuleAutomata(grammar, options), options.maxStates ?? DEFAULT_MAX_STATES);
}
