/**
 * CompiledGrammar.serialize: a compiled grammar's automaton tables (the states built so far) and,
 * by default, the masks computed so far, as bytes that loadCompiledGrammar reads back. Lazily
 * built state is serialized as it is at that moment: serializing after a document keeps that
 * document's states and masks warm for the next process.
 */
import type { CompileReport } from "../schema-compiler/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { VERSION } from "../version.js";
import { encodeGrammarFile } from "./grammar-file.js";
import { sourceKey, type GrammarSource } from "./grammar-source.js";
import { snapshotTables } from "./restored-automaton.js";
import type { TokenGrammar } from "./token-grammar.js";

/** serialize()'s options. */
export interface SerializeOptions {
  /** Most masks to keep, most recently used first (each is width / 8 bytes: 8 KiB at 65,536).
   *  Default: every mask the grammar holds (at most its maxCachedMasks); 0 keeps none. */
  readonly maxMasks?: number;
}

export function serializeGrammar(tokens: TokenGrammar, vocabulary: Vocabulary, source: GrammarSource, report: CompileReport | undefined, options: SerializeOptions = {}): Uint8Array {
  const masks = tokens.hotMasks(options.maxMasks);
  return encodeGrammarFile({
    header: { packageVersion: VERSION, vocabulary: vocabulary.fingerprint },
    source: sourceKey(source),
    report: report === undefined ? "" : JSON.stringify(report),
    tables: snapshotTables(tokens.automaton),
    maskWords: tokens.maskWords,
    masks,
  });
}
