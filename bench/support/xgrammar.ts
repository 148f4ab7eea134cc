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
import { hasBit } from "../../src/util/bitset.js";

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

export interface XgDriveOutcome {
  /** Index of the first token refused, or -1. */
  readonly rejectedAt: number;
  /** Whether an end-of-generation token was allowed after the last token. */
  readonly complete: boolean;
}

/**
 * Feeds `ids` to an XGrammar matcher like a decoder would: per token, get the next-token bitmask,
 * check the token's bit, accept it; `token` receives microseconds per step (bitmask + check +
 * accept, through the package's public async API, so one resolved await per token is included).
 */
export async function driveXGrammar(matcher: GrammarMatcher, ids: readonly number[], eosId: number, token?: { push(us: number): void }): Promise<XgDriveOutcome> {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const t0 = performance.now();
    const mask = await matcher.getNextTokenBitmask();
    const accepted = hasBit(bits(mask), id) && matcher.acceptToken(id);
    token?.push((performance.now() - t0) * 1000);
    if (!accepted) return { rejectedAt: i, complete: false };
  }
  return { rejectedAt: -1, complete: hasBit(bits(await matcher.getNextTokenBitmask()), eosId) };
}

/** XGrammar's bitmask (Int32Array) viewed as our bitset type. */
const bits = (mask: Int32Array): Uint32Array => new Uint32Array(mask.buffer, mask.byteOffset, mask.length);
