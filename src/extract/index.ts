/**
 * The front of extraction: the extractor, the one-off call, the result and stream types, and the
 * text, output and stream-progress checks that pocket-extract/testing's fake extractor shares with
 * the real one.
 */
export { createExtractor, extract, type ExtractorOptions, type GrammarCacheOptions } from "./create.js";
export { Extractor, type ExtractorLoan, type LendExtractor } from "./extractor.js";
export { DEFAULT_MAX_TEXT_BYTES, OPTION_RANGES, RETRY_MODES, checkExtractOptions } from "./options.js";
export { parsePartialJson } from "./partial-json.js";
export { verbatim } from "./verbatim.js";
export { jsonSchema } from "./json-schema.js";
export type {
  ArrayKeyOf,
  AttemptReport,
  BatchInput,
  BatchOptions,
  BatchResult,
  DeepPartial,
  ElementEvent,
  ElementOf,
  ExtractOptions,
  ExtractResult,
  ExtractStats,
  FieldResult,
  InferOutput,
  PartialEvent,
  ResultEvent,
  RetryMode,
  StreamElement,
  StreamEvent,
  StreamOptions,
  TypedJsonSchema,
} from "./types.js";
export { ExtractStream } from "./extract-stream.js";
export { runBatch } from "./batch.js";
export { watchProgress } from "./stream-progress.js";
export { checkText } from "./text-checks.js";
export { verifyOutput } from "./verify-output.js";
