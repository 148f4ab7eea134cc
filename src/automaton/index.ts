/**
 * Grammar IR -> the grammar automaton the mask engine walks. The public face of src/automaton;
 * everything else in the folder is an implementation step, in three layers each with its own
 * front: fsa/ (generic NFA/DFA building blocks), strings/ (JSON string automata), rules/ (per-rule
 * automata and analysis), with the grammar automaton (grammar-automaton.ts, build.ts) on top.
 * `plainLeadPending` is the one definition of "plain text" that the mask engine's trie
 * annotations share with the automata's plain-text budgets.
 */
export { buildAutomaton, clearSharedAutomata, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./build.js";
export { grow, stepByte, type ByteDfa, type Partition } from "./fsa/index.js";
export { GrammarAutomaton } from "./grammar-automaton.js";
export { DISTINCT_ALL, DISTINCT_NONE, DISTINCT_SOME, type DistinctMark } from "./distinct-mark.js";
export { pagesOf, pageShiftFor, UNKNOWN } from "./transition-pages.js";
export { plainLeadPending } from "./strings/index.js";
export { acceptsBytes, acceptsText } from "./run.js";
