/**
 * A schema compiled the way the extractor compiles it (extraction mode, compact JSON, the same
 * default string bound), down to the byte automaton only: generating values needs no vocabulary.
 * Memoized per schema object, because a property test builds its arbitrary once but fast-check
 * may call `arbitrary(schema)` in every `fc.property` of a suite.
 */
import { buildAutomaton } from "../automaton/index.js";
import { ownValidation, type JsonSchemaObject } from "../schema/index.js";
import { compileSchema, DEFAULT_MAX_STRING_LENGTH } from "../schema-compiler/index.js";
import type { ZodLike } from "../validate/index.js";
import { DfaWalker } from "./walk.js";


export interface SourceOptions {
  /** Include the null escapes (every property may be `null`), as the extractor does. */
  readonly escapes: boolean;
  readonly defaultMaxStringLength?: number;
}

export interface SchemaSource {
  readonly walker: DfaWalker;
  readonly jsonSchema: JsonSchemaObject;
  /** The schema itself when it is a zod schema (validation then also runs zod). */
  readonly zod: ZodLike | undefined;
}

const cache = new WeakMap<object, Map<string, SchemaSource>>();

export function schemaSource(schema: unknown, options: SourceOptions): SchemaSource {
  const key = `${options.escapes}/${options.defaultMaxStringLength ?? DEFAULT_MAX_STRING_LENGTH}`;
  const perSchema = typeof schema === "object" && schema !== null ? cache.get(schema) : undefined;
  const hit = perSchema?.get(key);
  if (hit) return hit;
  const compiled = compileSchema(schema, {
    mode: "extraction",
    format: "compact",
    nullEscape: options.escapes,
    defaultMaxStringLength: options.defaultMaxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
  });
  const source: SchemaSource = {
    walker: new DfaWalker(buildAutomaton(compiled.grammar)),
    jsonSchema: compiled.jsonSchema,
    zod: ownValidation(schema),
  };
  if (typeof schema === "object" && schema !== null) {
    const map = perSchema ?? new Map<string, SchemaSource>();
    map.set(key, source);
    cache.set(schema, map);
  }
  return source;
}

