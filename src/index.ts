/**
 * pocket-extract: structured extraction with grammar-constrained decoding, the application tier.
 * Zod schema in, typed and grounded result out: extractors, engines, results, errors, verbatim,
 * the grounding report. The grammar machinery underneath (compileGrammar, matchers, automata,
 * GBNF/Lark printing, generate, vocabularies) is `pocket-extract/grammar` (src/grammar-tier.ts);
 * test helpers are `pocket-extract/testing`. See README.md for the API tour. The exported names
 * are listed in test/package/public-names.txt: a change to this surface is deliberate.
 */
export {
  createExtractor,
  extract,
  Extractor,
  DEFAULT_MAX_TEXT_BYTES,
  OPTION_RANGES,
  parsePartialJson,
  verbatim,
  jsonSchema,
  type ExtractorOptions,
  type ExtractorLoan,
  type LendExtractor,
  type GrammarCacheOptions,
  type ExtractStream,
  type ArrayKeyOf,
  type AttemptReport,
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  type DeepPartial,
  type ElementEvent,
  type ElementOf,
  type ExtractOptions,
  type ExtractResult,
  type ExtractStats,
  type FieldResult,
  type InferOutput,
  type PartialEvent,
  type ResultEvent,
  type RetryMode,
  type StreamElement,
  type StreamEvent,
  type StreamOptions,
  type TypedJsonSchema,
} from "./extract/index.js";
export { ExtractorPool, PoolFullError, type PoolOptions } from "./pool/index.js";
export type { GenerateStats, SpeculativeOptions, StopReason } from "./decode/index.js";
export {
  loadEngine,
  RandomEngine,
  ScriptedEngine,
  type LoadEngineOptions,
  type RandomEngineOptions,
  type ScriptedEngineOptions,
  type Engine,
  type EngineSession,
  type SamplingOptions,
  type SessionOptions,
  type ChatTemplate,
  type ChatTurns,
  type PromptSegment,
} from "./engines/index.js";
export type { Vocabulary } from "./tokens/index.js";
export { DEFAULT_SCHEMA_LIMITS, type SchemaLimits, type JsonSchema } from "./schema/index.js";
export { PocketExtractError, SchemaError, FileError, OptionError, GrammarFileError, type ErrorCode, type GrammarFileCheck } from "./errors.js";
export type { GrammarCacheWarning } from "./mask/index.js";
export type { FieldReport, FieldStatus, Span, GroundingOptions, DateOrder } from "./ground/index.js";
export type { Issue } from "./validate/index.js";
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
