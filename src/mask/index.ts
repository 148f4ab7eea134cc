/** Public face of the mask engine: a grammar bound to a vocabulary, and its per-request matcher. */
export { TokenGrammar, type ForcedRun, type TokenGrammarOptions, type TokenGrammarStats } from "./token-grammar.js";
export { Matcher } from "./matcher.js";
