/**
 * pocket-extract/grammar: the grammar tier, for code that drives constrained decoding itself.
 * Compile a JSON Schema (or a GBNF grammar) for a vocabulary, serialize the compiled grammar and
 * load it back (or keep it in a GrammarCacheDir), walk it token by token with a Matcher, print
 * it as GBNF (our dialect, or plain GBNF llama.cpp loads) or Lark, build the byte-level grammar
 * automaton from the grammar IR,
 * run the engine-agnostic generation loop, and load vocabularies. Application code wants
 * `pocket-extract` (src/index.ts) instead. The exported names are listed in
 * test/package/public-names.txt: a change to this surface is deliberate.
 */
export {
  compileGrammar,
  loadCompiledGrammar,
  GrammarCacheDir,
  TokenGrammar,
  Matcher,
  type CompiledGrammar,
  type SerializeOptions,
  type LoadExpectation,
  type GrammarCacheDirOptions,
  type GrammarCacheWarning,
  type MaskAutomaton,
  type CompileGrammarOptions,
  type TokenGrammarOptions,
  type TokenGrammarStats,
  type ForcedRun,
} from "./mask/index.js";
export { printGbnf, printLark, parseGbnf, type Expr, type Grammar } from "./grammar/index.js";
export { printLlamaGbnf, toLlamaGbnf, type LlamaGbnf } from "./regex/index.js";
export { buildAutomaton, clearSharedAutomata, type BuildOptions, type GrammarAutomaton } from "./automaton/index.js";
export {
  generate,
  type GenerateOptions,
  type GenerateResult,
  type GenerateStats,
  type StopReason,
} from "./decode/index.js";
export {
  loadTokenizerJson,
  vocabularyFromBytes,
  TokenTrie,
  type Vocabulary,
  type TokenizerJsonOptions,
  type VocabularyFromBytesOptions,
} from "./tokens/index.js";
export { DEFAULT_SCHEMA_LIMITS, type SchemaLimits, type JsonSchema } from "./schema/index.js";
