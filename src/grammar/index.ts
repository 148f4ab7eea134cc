/**
 * The grammar module's public face: the IR, its text forms (GBNF in and out, Lark out) and the
 * rule utilities the schema compiler uses. It knows nothing about JSON Schema or tokens.
 */

export * from "./ir.js";
export { printGbnf } from "./gbnf-print.js";
export { splitLargeRepeats, REPEAT_LIMIT } from "./split-repeats.js";
export { parseGbnf } from "./gbnf-parse.js";
export { printLark } from "./lark-print.js";
export { importRules, reachableRules, renameRefs } from "./rules.js";
export { loadGrammarFile, packageRoot } from "./files.js";
