/**
 * XGrammar compiled to WASM (`@mlc-ai/web-xgrammar`), loaded under Node and bound to the same
 * tokenizer.json as our vocabulary, for side-by-side measurements. The package is an Emscripten
 * UMD bundle: under Node it needs `globalThis.require` and `globalThis.__filename` before import,
 * and publishes its API on `globalThis.xgrammar`. Its TokenizerInfo is built from the encoded
 * (byte-level alphabet) token strings exactly as tokenizer.json gives them, with the logits width
 * as vocab size and our end-of-generation ids as stop tokens.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { CompiledGrammar, GrammarCompiler, GrammarMatcher, TokenizerInfo } from "@mlc-ai/web-xgrammar";
import type * as XGrammarModule from "@mlc-ai/web-xgrammar";

type XGrammarApi = typeof XGrammarModule;

/** JSON output format both engines are held to. */
export interface XgJsonFormat {
  /** Any whitespace between tokens (JSON-Schema conformance mode) or none beyond the separators. */
  readonly anyWhitespace: boolean;
  /** Comma and colon separators, e.g. [",", ":"] (compact) or [", ", ": "] (Python json.dumps). */
  readonly separators: readonly [string, string];
  /** XGrammar strict mode: no properties/items beyond the schema's (false = JSON Schema semantics). */
  readonly strict: boolean;
}

export interface XGrammar {
  readonly api: XGrammarApi;
  readonly tokenizerInfo: TokenizerInfo;
  /** A compiler with its cache disabled, so every compile is measured. */
  readonly compiler: GrammarCompiler;
  compileJsonSchema(schema: unknown, format: XgJsonFormat): Promise<CompiledGrammar>;
  matcher(compiled: CompiledGrammar): Promise<GrammarMatcher>;
}

let loaded: Promise<XGrammarApi> | undefined;

function loadApi(): Promise<XGrammarApi> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const globals = globalThis as typeof globalThis & { require?: NodeRequire; __filename?: string; xgrammar?: XGrammarApi };
    globals.require ??= require;
    globals.__filename ??= require.resolve("@mlc-ai/web-xgrammar");
    const imported = (await import("@mlc-ai/web-xgrammar")) as Partial<XGrammarApi>;
    const api = imported.GrammarCompiler ? (imported as XGrammarApi) : globals.xgrammar;
    if (!api?.GrammarCompiler) throw new Error("@mlc-ai/web-xgrammar loaded but exposed no API (globalThis.xgrammar is empty)");
    return api;
  })();
  return loaded;
}

/** Encoded token strings by id from a HuggingFace tokenizer.json (model.vocab + added_tokens). */
async function encodedVocab(tokenizerJsonPath: string): Promise<string[]> {
  const json = JSON.parse(await readFile(tokenizerJsonPath, "utf8")) as {
    model: { vocab: Record<string, number> };
    added_tokens?: { id: number; content: string }[];
  };
  const vocab: string[] = [];
  for (const [token, id] of Object.entries(json.model.vocab)) vocab[id] = token;
  for (const { id, content } of json.added_tokens ?? []) vocab[id] = content;
  return Array.from(vocab, (token) => token ?? "");
}

/** XGrammar bound to a byte-level BPE tokenizer.json, `width` logits wide. */
export async function loadXGrammar(tokenizerJsonPath: string, width: number, stopTokenIds: readonly number[]): Promise<XGrammar> {
  const api = await loadApi();
  const tokenizerInfo = await api.TokenizerInfo.createTokenizerInfo(await encodedVocab(tokenizerJsonPath), "byte_level", false, width, [...stopTokenIds]);
  const compiler = await api.GrammarCompiler.createGrammarCompiler(tokenizerInfo, false);
  return {
    api,
    tokenizerInfo,
    compiler,
    compileJsonSchema: (schema, format) =>
      compiler.compileJSONSchema(JSON.stringify(schema), format.anyWhitespace, -1, [format.separators[0], format.separators[1]], format.strict),
    matcher: (compiled) => api.GrammarMatcher.createGrammarMatcher(compiled),
  };
}
