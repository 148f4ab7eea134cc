/**
 * pocket-extract: structured extraction with grammar-constrained decoding.
 * Zod schema in, typed and grounded result out. See README.md for the API tour.
 */
export * from "./extract/index.js";
export { compileGrammar, type CompiledGrammar, type CompileGrammarOptions } from "./mask/index.js";
export { DEFAULT_SCHEMA_LIMITS, type SchemaLimits } from "./schema/index.js";
export * from "./mask/index.js";
export { buildAutomaton, clearSharedAutomata, type BuildOptions, type GrammarAutomaton } from "./automaton/index.js";
export * from "./decode/index.js";
export * from "./engines/index.js";
export { loadTokenizerJson, vocabularyFromBytes, TokenTrie, type Vocabulary } from "./tokens/index.js";
export { PocketExtractError, SchemaError, FileError, OptionError, type ErrorCode } from "./errors.js";
export type { FieldReport, FieldStatus, Span, GroundingOptions, DateOrder } from "./ground/index.js";
export type { Issue } from "./validate/index.js";
export type { JsonSchema } from "./schema/index.js";
export {
  writeReport,
  renderReport,
  documentStatus,
  type ReportEntry,
  type ReportResult,
  type ReportTexts,
  type ReportOptions,
  type DocumentStatus,
} from "./report/index.js";
export { VERSION } from "./version.js";
