/**
 * ECMAScript regex subset (JSON Schema `pattern`) -> grammar expression. The automaton builder
 * turns the expression into bytes; this module knows nothing about automata.
 */
export { allParts, anyText, clearPatternLanguages, patternLanguage, type PatternBranch, type PatternLanguage, type PatternParts } from "./compile.js";
export { parseRegex, type RegexNode } from "./parse.js";
export { PatternError } from "./pattern-error.js";
export { printLlamaGbnf, toLlamaGbnf, type LlamaGbnf } from "./llama-gbnf.js";
export { unicodeModeSource } from "./unicode-mode.js";
export { regexOfRule } from "./expr-regex.js";
