/**
 * The typed schema model's front: JSON Schema types, input adapters (Zod v4 / Zod v3 / Standard
 * Schema / JSON Schema in, JSON Schema out), draft detection, the one `$ref` resolver, the
 * keyword table, typed nodes, and the schema-size limits. The compiler to grammar IR is
 * src/schema-compiler; validation and grounding read the same model.
 */

export type { JsonSchema, JsonSchemaObject, JsonValue, SchemaLimits } from "./types.js";
export { DEFAULT_SCHEMA_LIMITS } from "./types.js";
export type { ZodLike, ZodSafeParse } from "./zod-like.js";
export { toJsonSchema, detectSource, type SchemaSource } from "./detect.js";
export { isStandardSchema, ownValidation, standardParser, standardToJsonSchema, type StandardSchemaLike } from "./standard.js";
export { detectDraft, type Draft } from "./draft.js";
export { RefResolver, type Resolved } from "./refs.js";
export { checkExpansion } from "./expansion.js";
export { jsonEqual, normalizeNode } from "./normalize.js";
export {
  KEYWORDS,
  KNOWN_FORMATS,
  SPEC_FORMATS,
  VALIDATOR_FORMATS,
  REFUSED,
  VENDOR_KEY,
  childPointer,
  defaultClass,
  forEachSubschema,
  isAnnotationKeyword,
  isKeyword,
  keywordSpec,
  keywordsWhere,
  type Handling,
  type InstanceType,
  type Keyword,
  type KeywordClass,
  type KeywordSpec,
  type MergeRule,
  type ValueKind,
} from "./keywords.js";
export { JSON_TYPES, SchemaNode, type JsonType, type KeywordValue } from "./node.js";
export { isRecord } from "../util/index.js";
