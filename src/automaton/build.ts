/**
 * Grammar IR -> the grammar automaton: per-rule automata (rule-automata.ts) run with a call stack,
 * rules and states built on demand (grammar-automaton.ts). Compiling builds the start rule; the
 * rest follows as documents reach it (`buildAll` builds everything). An empty language is
 * SCHEMA_UNSATISFIABLE.
 */
import type { Grammar } from "../grammar/ir.js";
import { GrammarAutomaton } from "./grammar-automaton.js";
import { DEFAULT_MAX_STATES, RuleSet, type BuildOptions } from "./rule-automata.js";

export { clearSharedAutomata, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./rule-automata.js";

export function buildAutomaton(grammar: Grammar, options: BuildOptions = {}): GrammarAutomaton {
  return new GrammarAutomaton(new RuleSet(grammar, options), options.maxStates ?? DEFAULT_MAX_STATES);
}
