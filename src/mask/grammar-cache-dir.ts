/**
 * A directory of serialized grammars (the `cacheDir` option of createExtractor, the CLI and the
 * service), so a restarted process loads the grammars of schemas it has seen instead of
 * compiling them and computing their first document's masks again.
 *
 * - Lookup: `<dir>/<version>-<hash>.grammar`, the hash over the package version, the vocabulary
 *   fingerprint and the source key (schema or GBNF text, and the options that shape the
 *   automaton); the file's header is checked against the same, so a renamed or colliding file is
 *   a mismatch, never a wrong grammar.
 * - Miss: compile, then write the file (temporary file + rename: readers never see half a file,
 *   and processes sharing the directory each write whole files, the last one winning).
 * - A file that fails to load (corrupt, truncated, other format or vocabulary): reported through
 *   `onWarning` (default: a process warning), compiled again and overwritten. Failing to write is
 *   reported the same way; neither stops the extraction.
 * - Re-saving: the file written at compile holds no masks yet. `saveGrown()` (the extractor calls
 *   it after each document, and at dispose with `final`) writes a grammar again when its masks
 *   grew: after its first document, then each time they grew by a quarter since the last write,
 *   and at dispose whenever they grew at all. So the next process starts with the masks the
 *   documents of this one reached, and a long-running server writes a grammar O(log) times.
 * - Bounds: one file per schema and options seen, each the automaton tables (a few to a few
 *   hundred KB) plus at most `maxMasks` masks (width / 8 bytes each: 8 KiB at 65,536; default
 *   256, 2 MiB). Nothing is evicted: files of another package version are never read again
 *   (their names start with that version) and can be deleted; delete the directory to clear it.
 * Grammars compiled for one document (verbatim fields) are not written.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { asPocketExtractError, FileError, type PocketExtractError } from "../errors.js";
import type { Grammar } from "../grammar/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { LruCache } from "../util/index.js";
import { VERSION } from "../version.js";
import { compileGrammar, type CompiledGrammar, type CompileGrammarOptions } from "./compile-grammar.js";
import { sourceKey, sourceOf } from "./grammar-source.js";
import { loadGrammarBytes } from "./load-grammar.js";

/** Masks written per grammar unless `maxMasks` says otherwise. */
export const DEFAULT_CACHE_DIR_MASKS = 256;

/** Something the cache directory could not do; the extraction went on without it. */
export interface GrammarCacheWarning {
  /** The grammar file concerned. */
  readonly file: string;
  /** "recompiled": the file could not be loaded, the schema was compiled and the file is
   *  overwritten; "not-written": the file could not be written. */
  readonly action: "recompiled" | "not-written";
  readonly error: PocketExtractError;
}

/** GrammarCacheDir's options: where warnings go and how many masks a file keeps. */
export interface GrammarCacheDirOptions {
  /** Called for each warning; default: `process.emitWarning`. */
  readonly onWarning?: (warning: GrammarCacheWarning) => void;
  /** Most masks written per grammar (most recently used first); default 256. */
  readonly maxMasks?: number;
}

interface Entry {
  readonly file: string;
  readonly compiled: CompiledGrammar;
  /** Masks and states the file held when last written. */
  savedMasks: number;
  savedStates: number;
}

/** Grammars loaded or compiled by any GrammarCacheDir of this process, by file path: the
 *  extractors of a pool share one copy of each grammar, as compileGrammar's cache shares it. */
const served = new LruCache<string, Entry>(256);

/** A directory of serialized grammars: `compile` loads a schema's grammar from it or compiles and
 *  writes it; `saveGrown` writes again the grammars whose masks grew (see above for when). */
export class GrammarCacheDir {
  private readonly onWarning: (warning: GrammarCacheWarning) => void;
  private readonly maxMasks: number;
  /** Grammars served, by file: what saveGrown looks at. */
  private readonly entries = new LruCache<string, Entry>(256);
  private readonly byIdentity = new WeakMap<object, Map<string, Entry>>();

  constructor(
    readonly dir: string,
    options: GrammarCacheDirOptions = {},
  ) {
    this.onWarning = options.onWarning ?? ((w) => process.emitWarning(`pocket-extract cacheDir: ${w.file}: ${w.error.message} (${w.action})`, { code: w.error.code }));
    this.maxMasks = options.maxMasks ?? DEFAULT_CACHE_DIR_MASKS;
  }

  /** compileGrammar through the directory: loaded when a valid file exists, else compiled and written. */
  compile(input: unknown, vocabulary: Vocabulary, options: CompileGrammarOptions = {}): CompiledGrammar {
    if (options.verbatimSource !== undefined) return compileGrammar(input, vocabulary, options);
    // The same schema object again (every document of an extractor): no conversion, no hashing.
    const identityKey = JSON.stringify([vocabulary.fingerprint, options]);
    const keyed = (typeof input === "object" || typeof input === "function") && input !== null;
    const seen = keyed ? this.byIdentity.get(input)?.get(identityKey) : undefined;
    if (seen) return reused(seen.compiled);
    const entry = this.lookup(input, vocabulary, options);
    if (keyed) {
      let perInput = this.byIdentity.get(input);
      if (!perInput) this.byIdentity.set(input, (perInput = new Map()));
      perInput.set(identityKey, entry);
    }
    return entry.compiled;
  }

  /**
   * Writes again the grammars whose masks grew since their file was written: after their first
   * document, when they grew by a quarter, or (with `final`, at dispose) when they grew at all.
   */
  saveGrown(options: { final?: boolean } = {}): void {
    for (const [, entry] of this.entries.entries()) {
      const { cachedMasks, states } = entry.compiled.tokens.stats();
      const masks = Math.min(cachedMasks, this.maxMasks);
      const grown = masks > entry.savedMasks || states > entry.savedStates;
      const enough = entry.savedMasks === 0 || options.final || masks >= entry.savedMasks * 1.25 || states >= entry.savedStates * 1.25;
      if (grown && enough) this.write(entry);
    }
  }

  private lookup(input: unknown, vocabulary: Vocabulary, options: CompileGrammarOptions): Entry {
    const key = sourceKey(sourceOf(input, options));
    const hash = createHash("sha256").update(`${VERSION}\n${vocabulary.fingerprint}\n${key}`).digest("hex").slice(0, 32);
    const file = resolve(this.dir, `${VERSION}-${hash}.grammar`);
    const known = this.entries.get(file) ?? served.get(file);
    if (known) {
      this.entries.set(file, known);
      return known;
    }
    const loaded = this.load(file, vocabulary, key);
    const compiled = loaded ?? compileGrammar(input, vocabulary, options);
    const stats = compiled.tokens.stats();
    const entry: Entry = { file, compiled, savedMasks: loaded ? stats.cachedMasks : 0, savedStates: loaded ? stats.states : 0 };
    this.entries.set(file, entry);
    served.set(file, entry);
    if (!loaded) this.write(entry);
    return entry;
  }

  private load(file: string, vocabulary: Vocabulary, key: string): CompiledGrammar | undefined {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") this.onWarning({ file, action: "recompiled", error: fileError(file, "cannot be read", err) });
      return undefined;
    }
    try {
      return loadGrammarBytes(bytes, vocabulary, key);
    } catch (err) {
      this.onWarning({ file, action: "recompiled", error: asPocketExtractError(err) });
      return undefined;
    }
  }

  private write(entry: Entry): void {
    const temporary = `${entry.file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      const bytes = entry.compiled.serialize({ maxMasks: this.maxMasks });
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temporary, bytes);
      renameSync(temporary, entry.file);
      const { cachedMasks, states } = entry.compiled.tokens.stats();
      entry.savedMasks = Math.min(cachedMasks, this.maxMasks);
      entry.savedStates = states;
    } catch (err) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // The directory itself is unusable: there is no temporary file to remove.
      }
      this.onWarning({ file: entry.file, action: "not-written", error: fileError(entry.file, "cannot be written", err) });
    }
  }
}

/** A file system failure as a FileError (a failure that is not one, e.g. while serializing, as
 *  asPocketExtractError makes it). */
function fileError(file: string, what: string, err: unknown): PocketExtractError {
  const errno = (err as NodeJS.ErrnoException).code;
  if (typeof errno !== "string") return asPocketExtractError(err);
  const code = errno === "ENOSPC" ? "DISK_FULL" : errno === "EACCES" || errno === "EPERM" || errno === "EROFS" ? "FILE_ACCESS" : "FILE_IO";
  return new FileError(code, file, `${what} (${(err as Error).message}); check the cacheDir directory`, { cause: err });
}

/** A grammar served again from memory: compileMs 0, as compileGrammar reports its cache hits
 *  (a getter, not a spread, so a loaded grammar's IR stays uncompiled until asked for). */
function reused(compiled: CompiledGrammar): CompiledGrammar {
  return {
    tokens: compiled.tokens,
    jsonSchema: compiled.jsonSchema,
    report: compiled.report,
    compileMs: 0,
    get grammar(): Grammar {
      return compiled.grammar;
    },
    serialize: (options) => compiled.serialize(options),
  };
}
