/** Public face of extraction: the extractor, the one-off call, and the result types. */
export { createExtractor, extract, type ExtractorOptions } from "./create.js";
export { Extractor } from "./extractor.js";
export { DEFAULT_MAX_TEXT_BYTES, OPTION_RANGES, checkExtractOptions } from "./options.js";
export { parsePartialJson } from "./partial-json.js";
export { verbatim } from "./verbatim.js";
export { jsonSchema } from "./json-schema.js";
export type {
  BatchInput,
  BatchOptions,
  BatchResult,
  DeepPartial,
  ExtractOptions,
  ExtractResult,
  ExtractStats,
  FieldResult,
  InferOutput,
  StreamEvent,
  TypedJsonSchema,
} from "./types.js";
