/**
 * compileGrammar: what users (and the extractor) call to go from a schema or grammar to a
 * TokenGrammar ready to mask a vocabulary. It chains the pipeline stages (schema -> grammar IR ->
 * byte automaton -> token grammar) and keeps a bounded cache keyed by the schema's JSON Schema
 * text, the options, the vocabulary fingerprint and the package version, so a schema compiled
 * once is shared by every request and document. The same schema object is found again by
 * identity without re-converting it, so schemas are treated as immutable once compiled.
 */
import type { Grammar } from "../grammar/index.js";
import { parseGbnf } from "../grammar/index.js";
import { LruCache } from "../util/index.js";
import { buildGrammarAutomaton } from "./build-automaton.js";
import { isGrammar, sourceOf } from "./grammar-source.js";
import { serializeGrammar, type SerializeOptions } from "./serialize.js";
import { TokenGrammar, type TokenGrammarOptions } from "./token-grammar.js";
import type { JsonSchemaObject } from "../schema/index.js";
import { compileSchema, type CompileOptions, type CompileReport } from "../schema-compiler/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { VERSION } from "../version.js";

/** compileGrammar's options: the schema compile options (mode, format, limits) and the token grammar's cache sizes. */
export interface CompileGrammarOptions extends CompileOptions, TokenGrammarOptions {
  /** Largest automaton allowed (states); beyond it compilation fails with AUTOMATON_TOO_LARGE. */
  readonly maxStates?: number;
  /** Grammar rules built at compile, nearest the start first, until their NFAs total this many
   *  states (default 2,048: every rule of most schemas); the rest of a big schema's rules are
   *  built when a document first reaches them, and an error in one of those (e.g.
   *  AUTOMATON_TOO_LARGE) surfaces while decoding. Infinity: every rule at compile. */
  readonly eagerStates?: number;
  /** false: compile afresh and keep nothing in the compile cache (one-off schemas, benchmarks);
   *  default true. */
  readonly cache?: boolean;
}

/** A TokenGrammar plus what the schema compiler said about it. */
export interface CompiledGrammar {
  readonly tokens: TokenGrammar;
  readonly grammar: Grammar;
  /** The JSON Schema the grammar was compiled from (undefined for grammars given as text or IR). */
  readonly jsonSchema: JsonSchemaObject | undefined;
  readonly report: CompileReport | undefined;
  /** Milliseconds this compile took (0 when served from the cache; for a grammar read by
   *  loadCompiledGrammar, the load). */
  readonly compileMs: number;
  /** The automaton states built so far and (by default) the masks computed so far, as bytes
   *  for loadCompiledGrammar: a grammar serialized after a document loads warm for it. */
  serialize(options?: SerializeOptions): Uint8Array;
}

const cache = new LruCache<string, CompiledGrammar>(256);

/**
 * Compile a Zod schema, a JSON Schema object, a grammar IR, or GBNF text (our dialect, as printed by
 * `printGbnf`) for a vocabulary.
 */
export function compileGrammar(input: unknown, vocabulary: Vocabulary, options: CompileGrammarOptions = {}): CompiledGrammar {
  if (options.cache === false) return compileUncached(input, vocabulary, options, false);
  // Fast path for the same schema object (the extractor's per-document call): no re-conversion.
  const identityKey = JSON.stringify([vocabulary.fingerprint, options]);
  const keyed = (typeof input === "object" || typeof input === "function") && input !== null; // arktype schemas are functions
  const seen = keyed ? byIdentity.get(input)?.get(identityKey) : undefined;
  if (seen) return { ...seen, compileMs: 0 };
  const result = compileUncached(input, vocabulary, options);
  if (keyed) {
    let perInput = byIdentity.get(input);
    if (!perInput) byIdentity.set(input, (perInput = new LruCache(16)));
    perInput.set(identityKey, result);
  }
  return result;
}

/** Compiled grammars by input object identity (a WeakMap: schemas that go away free their entries). */
const byIdentity = new WeakMap<object, LruCache<string, CompiledGrammar>>();

function compileUncached(input: unknown, vocabulary: Vocabulary, options: CompileGrammarOptions, useCache = true): CompiledGrammar {
  const started = performance.now();
  const grammarInput = asGrammar(input);
  const compiled = grammarInput ? undefined : compileSchema(input, options);
  const grammar = grammarInput ?? compiled!.grammar;
  const key = useCache ? cacheKey(compiled ? compiled.jsonSchema : grammar, vocabulary, options) : undefined;
  const hit = key === undefined ? undefined : cache.get(key);
  if (hit) return { ...hit, compileMs: 0 };
  const tokens = new TokenGrammar(buildGrammarAutomaton(grammar, options), vocabulary, options);
  const jsonSchema = compiled?.jsonSchema;
  const report = compiled?.report;
  const result: CompiledGrammar = {
    tokens,
    grammar,
    jsonSchema,
    report,
    compileMs: performance.now() - started,
    serialize: (serializeOptions) => {
      const source = sourceOf(jsonSchema ?? (typeof input === "string" ? input : grammar), options);
      return serializeGrammar(tokens, vocabulary, source, report, serializeOptions);
    },
  };
  if (key !== undefined) cache.set(key, result);
  return result;
}

function asGrammar(input: unknown): Grammar | undefined {
  if (typeof input === "string") return parseGbnf(input);
  return isGrammar(input) ? input : undefined;
}

function cacheKey(source: JsonSchemaObject | Grammar, vocabulary: Vocabulary, options: CompileGrammarOptions): string | undefined {
  // Grammars given as IR are not cached: their identity is the caller's business.
  if ((source as Grammar).rules instanceof Map) return undefined;
  return JSON.stringify([VERSION, vocabulary.fingerprint, options, source]);
}
