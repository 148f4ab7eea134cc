/**
 * Grammar IR -> the grammar automaton: per-rule automata (rule-automata.ts) run with a call stack,
 * states built on demand (grammar-automaton.ts). Every rule is compiled now, so that errors in
 * the schema show at compile time (called rules are then determinized state by state as
 * documents reach them, subset-rule.ts); with `lazyRules` only the start rule is, and the rest as
 * documents reach it (errors in those rules then surface while decoding). An empty language is
 * SCHEMA_UNSATISFIABLE.
 */
import type { Grammar } from "../grammar/ir.js";
import { GrammarAutomaton } from "./grammar-automaton.js";
import { DEFAULT_MAX_STATES, RuleSet, type BuildOptions } from "./rule-automata.js";

export { clearSharedAutomata, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./rule-automata.js";

export function buildAutomaton(grammar: Grammar, options: BuildOptions = {}): GrammarAutomaton {
  const rules = new RuleSet(grammar, options);
  if (!options.lazyRules) rules.buildAll();
  return new GrammarAutomaton(rules, options.maxStates ?? DEFAULT_MAX_STATES);
}
