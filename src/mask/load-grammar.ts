/**
 * loadCompiledGrammar: bytes written by CompiledGrammar.serialize back into a CompiledGrammar,
 * after checking they were made by this format and package version for this vocabulary (and,
 * when the caller names it, for this schema and these options). The automaton tables and masks
 * are read in place; the grammar IR is compiled again only if someone asks for it, and the
 * automaton only when a document goes past the loaded states (restored-automaton.ts).
 */
import { GrammarFileError } from "../errors.js";
import type { Grammar } from "../grammar/index.js";
import type { JsonSchemaObject } from "../schema/index.js";
import type { CompileReport } from "../schema-compiler/index.js";
import type { Vocabulary } from "../tokens/index.js";
import type { CompiledGrammar, CompileGrammarOptions } from "./compile-grammar.js";
import { decodeGrammarFile } from "./grammar-file.js";
import { grammarOf, rebuildAutomaton, sourceKey, sourceOf, sourceOfKey, type GrammarSource } from "./grammar-source.js";
import { RestoredAutomaton } from "./restored-automaton.js";
import { serializeGrammar, type SerializeOptions } from "./serialize.js";
import { TokenGrammar } from "./token-grammar.js";

/** What the caller expects the bytes to hold: loading checks the schema (or GBNF text) and
 *  compile options too, as compileGrammar would key them. */
export interface LoadExpectation {
  readonly schema: unknown;
  readonly options?: CompileGrammarOptions;
}

/**
 * Reads a grammar serialized by `compiled.serialize()` for `vocabulary`. Throws GrammarFileError
 * (GRAMMAR_FILE_INVALID: corrupt or truncated; GRAMMAR_FILE_MISMATCH: another format or package
 * version, vocabulary, or, with `expect`, schema or options). The grammar reads `bytes` in place:
 * do not modify them afterwards.
 */
export function loadCompiledGrammar(bytes: Uint8Array, vocabulary: Vocabulary, expect?: LoadExpectation): CompiledGrammar {
  return loadGrammarBytes(bytes, vocabulary, expect === undefined ? undefined : sourceKey(sourceOf(expect.schema, expect.options ?? {})));
}

/** loadCompiledGrammar with the expected source as its key string (grammar-source.ts). */
export function loadGrammarBytes(bytes: Uint8Array, vocabulary: Vocabulary, expectedSource: string | undefined): CompiledGrammar {
  const started = performance.now();
  const file = decodeGrammarFile(bytes, vocabulary.fingerprint, expectedSource);
  const source = sourceOfKey(file.source);
  const tokens = new TokenGrammar(new RestoredAutomaton(file.tables, () => rebuildAutomaton(source, file.tables)), vocabulary, source.options);
  if (file.maskWords !== tokens.maskWords) throw new GrammarFileError("vocabulary", "the masks are for another vocabulary width", { expected: `${tokens.maskWords} words`, found: `${file.maskWords} words` });
  tokens.restoreMasks(file.masks);
  return new LoadedGrammar(tokens, vocabulary, source, file.report, performance.now() - started);
}

/** A CompiledGrammar read from bytes: `grammar` is compiled from the source, and the report
 *  parsed, on first use (decoding needs neither). */
class LoadedGrammar implements CompiledGrammar {
  readonly jsonSchema: JsonSchemaObject | undefined;
  private ir: Grammar | undefined;
  private parsedReport: CompileReport | undefined;

  constructor(
    readonly tokens: TokenGrammar,
    private readonly vocabulary: Vocabulary,
    private readonly source: GrammarSource,
    private readonly reportText: string,
    readonly compileMs: number,
  ) {
    this.jsonSchema = source.kind === "schema" ? source.schema : undefined;
  }

  get grammar(): Grammar {
    return (this.ir ??= grammarOf(this.source));
  }

  get report(): CompileReport | undefined {
    if (this.reportText === "") return undefined;
    return (this.parsedReport ??= JSON.parse(this.reportText) as CompileReport);
  }

  serialize(options?: SerializeOptions): Uint8Array {
    return serializeGrammar(this.tokens, this.vocabulary, this.source, this.report, options);
  }
}
