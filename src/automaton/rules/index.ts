/**
 * The front of the per-rule layer: one automaton per grammar rule (inlined, called, built on
 * demand), the rule graph and recursion depth, shortest texts, structural sharing keys, and the
 * per-rule tables the grammar automaton reads. Built on fsa/ and strings/; the grammar automaton
 * (../grammar-automaton.ts, ../build.ts) imports it only through this file.
 */
export { RuleAnalysis } from "./rule-analysis.js";
export {
  clearSharedAutomata,
  DEFAULT_EAGER_STATES,
  DEFAULT_MAX_RECURSION_DEPTH,
  DEFAULT_MAX_STATES,
  RuleSet,
  type BuildOptions,
} from "./rule-automata.js";
