/**
 * Grammar IR -> the grammar automaton: per-rule automata (rule-automata.ts) run with a call stack,
 * states built on demand (grammar-automaton.ts). Every rule is built now, so that every error shows
 * at compile time and first masks do not pay for building; with `lazyRules` only the start rule
 * is, and the rest as documents reach it (less work for big schemas of which documents use a
 * little, but errors in those rules surface while decoding). An empty language is
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
