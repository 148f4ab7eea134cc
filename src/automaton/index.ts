/**
 * Grammar IR -> the grammar automaton the mask engine walks. The public face of src/automaton;
 * everything else in the folder is an implementation step.
 */
export { buildAutomaton, clearSharedAutomata, DEFAULT_MAX_RECURSION_DEPTH, DEFAULT_MAX_STATES, type BuildOptions } from "./build.js";
export { stepByte, type ByteDfa } from "./dfa.js";
export { GrammarAutomaton, UNKNOWN } from "./grammar-automaton.js";
export { acceptsBytes, acceptsText } from "./run.js";
