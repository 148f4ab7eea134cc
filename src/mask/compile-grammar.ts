/**
 * compileGrammar: what users (and the extractor) call to go from a schema or grammar to a
 * TokenGrammar ready to mask a vocabulary. It chains the pipeline stages (schema -> grammar IR ->
 * byte automaton -> token grammar) and keeps a bounded cache keyed by the schema's JSON Schema
 * text, the options, the vocabulary fingerprint and the package version, so a schema compiled
 * once is shared by every request and document. The same schema object is found again by
 * identity without re-converting it, so schemas are treated as immutable once compiled.
 */
import { buildAutomaton } from "../automaton/index.js";
import { SchemaError } from "../errors.js";
import type { Grammar } from "../grammar/index.js";
import { parseGbnf } from "../grammar/index.js";
import { LruCache } from "../util/index.js";
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
  /** Milliseconds this compile took (0 when served from the cache). */
  readonly compileMs: number;
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
  const tokens = withinStack(() => {
    const dfa = buildAutomaton(grammar, { maxRecursionDepth: options.maxRecursionDepth, maxStates: options.maxStates, eagerStates: options.eagerStates });
    return new TokenGrammar(dfa, vocabulary, options);
  });
  const result: CompiledGrammar = {
    tokens,
    grammar,
    jsonSchema: compiled?.jsonSchema,
    report: compiled?.report,
    compileMs: performance.now() - started,
  };
  if (key !== undefined) cache.set(key, result);
  return result;
}

/**
 * Runs an automaton build, turning a stack overflow into a typed error. The schema limits
 * (maxSchemaProperties, maxSchemaDepth) keep schemas well inside the stack; this is the
 * backstop for a limit raised past what the automaton passes can walk.
 */
function withinStack<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      throw new SchemaError("SCHEMA_TOO_LARGE", "the grammar nests too deeply to build (lower maxSchemaProperties or maxSchemaDepth, or split the schema)", { pointer: "" }, { cause: err });
    }
    throw err;
  }
}

function asGrammar(input: unknown): Grammar | undefined {
  if (typeof input === "string") return parseGbnf(input);
  if (typeof input === "object" && input !== null && "rules" in input && "start" in input && (input as Grammar).rules instanceof Map) {
    return input as Grammar;
  }
  return undefined;
}

function cacheKey(source: JsonSchemaObject | Grammar, vocabulary: Vocabulary, options: CompileGrammarOptions): string | undefined {
  // Grammars given as IR are not cached: their identity is the caller's business.
  if ((source as Grammar).rules instanceof Map) return undefined;
  return JSON.stringify([VERSION, vocabulary.fingerprint, options, source]);
}
