/**
 * Public face of the mask engine: compiling a schema or grammar for a vocabulary, the grammar bound
 * to that vocabulary, and its per-request matcher.
 */
export { compileGrammar, type CompiledGrammar, type CompileGrammarOptions } from "./compile-grammar.js";
export { TokenGrammar, type TokenGrammarOptions, type TokenGrammarStats } from "./token-grammar.js";
export type { ForcedRun, MaskAutomaton } from "./mask-types.js";
export { loadCompiledGrammar, type LoadExpectation } from "./load-grammar.js";
export type { SerializeOptions } from "./serialize.js";
export { GrammarCacheDir, type GrammarCacheDirOptions, type GrammarCacheWarning } from "./grammar-cache-dir.js";
export { Matcher } from "./matcher.js";
