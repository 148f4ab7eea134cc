/**
 * What a serialized grammar was compiled from: a JSON Schema or GBNF text, with the options that
 * shape its automaton. Its key string is stored in the file and compared on load (another schema
 * or other options is a mismatch); a loaded grammar rebuilds its automaton from it when a
 * document goes past the loaded states (restored-automaton.ts).
 */
import type { GrammarAutomaton, Partition } from "../automaton/index.js";
import { parseGbnf, printGbnf, type Grammar } from "../grammar/index.js";
import { toJsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { compileSchema, type CompileOptions } from "../schema-compiler/index.js";
import { buildGrammarAutomaton, type AutomatonOptions } from "./build-automaton.js";
import type { TokenGrammarOptions } from "./token-grammar.js";

/** The options a source is compiled with (compileGrammar's, less `cache`). */
export type SourceOptions = CompileOptions & AutomatonOptions & TokenGrammarOptions;

export type GrammarSource =
  | { readonly kind: "schema"; readonly schema: JsonSchemaObject; readonly options: SourceOptions }
  | { readonly kind: "gbnf"; readonly text: string; readonly options: SourceOptions };

/** The source as one string: equal strings compile to the same automaton (same package version
 *  and vocabulary). Options are sorted by name and `cache` left out: it does not shape the grammar. */
export function sourceKey(source: GrammarSource): string {
  const options = Object.fromEntries(
    Object.entries(source.options)
      .filter(([name, value]) => name !== "cache" && value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const body = source.kind === "schema" ? { schema: source.schema } : { text: source.text };
  return JSON.stringify({ kind: source.kind, options, ...body });
}

/** The source a key string (as sourceKey wrote it) describes. */
export function sourceOfKey(key: string): GrammarSource {
  const parsed = JSON.parse(key) as { kind: string; options: SourceOptions; schema?: JsonSchemaObject; text?: string };
  return parsed.kind === "schema" ? { kind: "schema", schema: parsed.schema!, options: parsed.options } : { kind: "gbnf", text: parsed.text!, options: parsed.options };
}

/** The source of a compileGrammar input: its JSON Schema (converted as compileSchema does), or
 *  GBNF text (given, or printed from a grammar IR). */
export function sourceOf(input: unknown, options: SourceOptions): GrammarSource {
  if (typeof input === "string") return { kind: "gbnf", text: input, options };
  if (isGrammar(input)) return { kind: "gbnf", text: printGbnf(input), options };
  const schema = toJsonSchema(input);
  return { kind: "schema", schema: schema === true ? {} : (schema as JsonSchemaObject), options };
}

export function isGrammar(input: unknown): input is Grammar {
  return typeof input === "object" && input !== null && "rules" in input && "start" in input && (input as Grammar).rules instanceof Map;
}

/** The source's grammar IR, compiled afresh. */
export function grammarOf(source: GrammarSource): Grammar {
  return source.kind === "schema" ? compileSchema(source.schema, source.options).grammar : parseGbnf(source.text);
}

/** The source's automaton, compiled afresh, indexed by a loaded grammar's byte classes. */
export function rebuildAutomaton(source: GrammarSource, byteClasses: Partition): GrammarAutomaton {
  return buildGrammarAutomaton(grammarOf(source), source.options, byteClasses);
}
