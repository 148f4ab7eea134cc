/**
 * A grammar automaton bound to a vocabulary: the shareable, immutable-after-compile half of the mask
 * engine (XGrammar's CompiledGrammar). It owns the per-state caches (masks, forced runs, shortest
 * completions); all per-request state lives in a Matcher. Caches are bounded (masks in entries
 * and bytes, see mask-cache.ts; runs in entries) so a long-lived grammar serving many documents
 * never grows without bound.
 */
import type { Vocabulary } from "../tokens/index.js";
import { LruCache } from "../util/index.js";
import { MaskCache } from "./mask-cache.js";
import { MaskComputer } from "./mask-computer.js";
import { Matcher } from "./matcher.js";
import { tokenizeBytes } from "./tokenize-bytes.js";
import type { ForcedRun, MaskAutomaton, MatcherGrammar, VocabIndex } from "./mask-types.js";
import { vocabIndex } from "./vocab-index.js";

/** Cache bounds of a TokenGrammar (README "Memory"). */
export interface TokenGrammarOptions {
  /** Most masks kept per grammar. Default 2,048. */
  readonly maxCachedMasks?: number;
  /** Most bytes of masks kept per grammar. A mask takes the words where it differs from no token
   *  or from every text token (a state allowing a few tokens, or refusing a few: tens to hundreds
   *  of bytes), at most width/8 bytes (8 KiB at 65,536). Default 4 MiB. */
  readonly maxMaskCacheBytes?: number;
}

/** Per-state caches of forced runs and shortest completions: entries each (small objects). */
const RUN_CACHE_ENTRIES = 4096;
const DEFAULT_MAX_CACHED_MASKS = 2048;
const DEFAULT_MAX_MASK_CACHE_BYTES = 4 * 1024 * 1024;

/** A TokenGrammar's size and cache counters (states, cached masks, hits, misses, memory). */
export interface TokenGrammarStats {
  readonly states: number;
  readonly cachedMasks: number;
  readonly maskHits: number;
  readonly maskMisses: number;
  /** Bytes held by this grammar's automaton, analysis and caches (vocabulary index excluded). */
  readonly memoryBytes: number;
}

/**
 * A grammar bound to one vocabulary: the automaton, the vocabulary index and the mask cache that every
 * Matcher of it shares.
 */
export class TokenGrammar implements MatcherGrammar {
  readonly index: VocabIndex;
  private readonly computer: MaskComputer;
  private readonly masks: MaskCache;
  /** Where masks are computed before the cache keeps them (compact, see mask-cache.ts). */
  private readonly scratch: Uint32Array;
  private readonly forcedRuns = new LruCache<number, ForcedRun>(RUN_CACHE_ENTRIES);
  private readonly completions = new LruCache<number, ForcedRun>(RUN_CACHE_ENTRIES);

  constructor(
    readonly automaton: MaskAutomaton,
    readonly vocabulary: Vocabulary,
    options: TokenGrammarOptions = {},
  ) {
    this.index = vocabIndex(vocabulary);
    this.computer = new MaskComputer(automaton, this.index);
    this.masks = new MaskCache(this.index.textMask, options.maxCachedMasks ?? DEFAULT_MAX_CACHED_MASKS, options.maxMaskCacheBytes ?? DEFAULT_MAX_MASK_CACHE_BYTES);
    this.scratch = new Uint32Array(this.index.maskWords);
  }

  get maskWords(): number {
    return this.index.maskWords;
  }

  /** A new matcher at the start of the document. */
  matcher(): Matcher {
    return new Matcher(this);
  }

  /** Writes the mask of a state into `out` (maskWords words), from the cache or computed. */
  writeMask(state: number, out: Uint32Array): void {
    if (this.masks.write(state, out)) return;
    const mask = this.scratch;
    mask.fill(0);
    this.computer.compute(state, mask);
    this.masks.set(state, mask, this.computer.lastChanged());
    out.set(mask);
  }

  /** The mask of a state, as a new array. */
  maskOf(state: number): Uint32Array {
    const out = new Uint32Array(this.index.maskWords);
    this.writeMask(state, out);
    return out;
  }

  /** The `limit` masks used most recently, most recent first, as [state, mask] (new arrays;
   *  what a serialized grammar keeps warm). */
  hotMasks(limit = Infinity): Array<[number, Uint32Array]> {
    return this.masks.entries(limit);
  }

  /** Puts masks computed earlier for this automaton (a loaded grammar's) into the cache; a
   *  mask that is not this state's would be a wrong mask, so only serialize.ts calls this. */
  restoreMasks(masks: Iterable<readonly [number, Uint32Array]>): void {
    for (const [state, mask] of masks) this.masks.set(state, mask);
  }

  /** State after reading `id`'s bytes from `state`, or -1. */
  stepToken(state: number, id: number): number {
    const { byteOffsets, byteData } = this.index;
    let s = state;
    for (let i = byteOffsets[id]!, end = byteOffsets[id + 1]!; i < end && s >= 0; i++) s = this.automaton.step(s, byteData[i]!);
    return byteOffsets[id + 1] === byteOffsets[id] ? -1 : s;
  }

  stepBytes(state: number, bytes: Uint8Array): number {
    let s = state;
    for (let i = 0; i < bytes.length && s >= 0; i++) s = this.automaton.step(s, bytes[i]!);
    return s;
  }

  /**
   * The run of bytes the grammar forces from `state`, tokenized, with the last token backed off
   * when a longer token could start inside it and cross the end of the run (the model would have
   * chosen that longer token; forcing the shorter one would make the tokenization non-canonical).
   */
  forcedRun(state: number): ForcedRun {
    let run = this.forcedRuns.get(state);
    if (!run) {
      run = this.computeForcedRun(state);
      this.forcedRuns.set(state, run);
    }
    return run;
  }

  /** The shortest bytes that complete the document from `state` (empty when it is complete). */
  shortestCompletion(state: number): ForcedRun {
    let run = this.completions.get(state);
    if (!run) {
      const bytes = this.shortestCompletionBytes(state);
      run = { bytes, tokens: tokenizeBytes(this.index, bytes) };
      this.completions.set(state, run);
    }
    return run;
  }

  stats(): TokenGrammarStats {
    return {
      states: this.automaton.numStates,
      cachedMasks: this.masks.size,
      maskHits: this.masks.hits,
      maskMisses: this.masks.misses,
      memoryBytes: this.automaton.memoryBytes() + this.masks.memoryBytes() + this.scratch.byteLength,
    };
  }

  private computeForcedRun(state: number): ForcedRun {
    const automaton = this.automaton;
    const bytes: number[] = [];
    let s = state;
    while (automaton.forcedByte(s) >= 0 && bytes.length < 4096) {
      const b = automaton.forcedByte(s);
      bytes.push(b);
      s = automaton.step(s, b);
    }
    if (bytes.length === 0) return { bytes: new Uint8Array(0), tokens: [] };
    const all = Uint8Array.from(bytes);
    const tokens = tokenizeBytes(this.index, all);
    // The run ends where the document is complete with nothing more to read: no backoff needed.
    const endsDocument = automaton.isAccepting(s) && !automaton.canContinue(s);
    const heldBack = !endsDocument && tokens.length > 0 && this.mayExtend(tokens[tokens.length - 1]!) ? tokens.pop() : undefined;
    let len = 0;
    for (const id of tokens) len += this.index.byteOffsets[id + 1]! - this.index.byteOffsets[id]!;
    return { bytes: all.subarray(0, len), tokens, heldBack };
  }

  /** True when some longer text token starts with this token's bytes. */
  private mayExtend(id: number): boolean {
    const { byteOffsets, byteData, trie } = this.index;
    const node = trie.find(byteData.subarray(byteOffsets[id], byteOffsets[id + 1]));
    return node >= 0 && trie.tokenEnd(node) > trie.ownEnd(node);
  }

  private shortestCompletionBytes(state: number): Uint8Array {
    const automaton = this.automaton;
    const out: number[] = [];
    let s = state;
    while (automaton.distToAccept(s) > 0) {
      // Follow a byte that lowers the distance; prefer the smallest byte for determinism.
      let next = -1;
      let chosen = -1;
      for (let b = 0; b < 256 && chosen < 0; b++) {
        const t = automaton.step(s, b);
        if (t >= 0 && automaton.distToAccept(t) === automaton.distToAccept(s) - 1) {
          chosen = b;
          next = t;
        }
      }
      out.push(chosen);
      s = next;
    }
    return Uint8Array.from(out);
  }
}
