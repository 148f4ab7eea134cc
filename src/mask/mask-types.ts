/**
 * Types the mask engine's files share, kept apart so no two of them import each other: the
 * vocabulary index (built by vocab-index.ts, read by the mask computer and the byte tokenizer),
 * forced runs, and what a Matcher reads of its grammar (TokenGrammar implements it; the Matcher
 * is what TokenGrammar creates).
 */
import type { DistinctMark } from "../automaton/index.js";
import type { TokenTrie } from "../tokens/index.js";
import type { Vocabulary } from "../tokens/index.js";
import type { PlainTails } from "./plain-tails.js";
import type { SubtreeGroups } from "./subtree-groups.js";

export interface VocabIndex {
  readonly vocabulary: Vocabulary;
  readonly trie: TokenTrie;
  readonly width: number;
  readonly maskWords: number;
  /** Flat token bytes: token id's bytes are data[offsets[id] .. offsets[id + 1]). Specials are empty. */
  readonly byteOffsets: Uint32Array;
  readonly byteData: Uint8Array;
  /** All ids that may appear inside text (non-special, non-empty bytes). */
  readonly textMask: Uint32Array;
  readonly eosIds: readonly number[];
  /**
   * Per trie node: pending UTF-8 continuation bytes after the node's path (0..3), or -1 when the
   * path is not well-formed UTF-8 from a character boundary.
   */
  readonly utf8Pos: Int8Array;
  /**
   * Per trie node: if every token below the node continues the node's path with "plain text" bytes
   * (no `"`, `\\` or control bytes, well-formed UTF-8 from `utf8Pos`), the largest number of
   * characters such a continuation starts; -1 otherwise. A grammar state that provably survives
   * any plain text of that many characters accepts the whole subtree without walking it.
   */
  readonly skipChars: Int16Array;
  /** Per trie node: the byte groups below it and its height (the uniform-run shortcut,
   *  uniform-runs.ts). */
  readonly subtrees: SubtreeGroups;
  /** The masks of free string bodies start from these (plain-tails.ts). */
  readonly plainTails: PlainTails;
  readonly memoryBytes: number;
}

/**
 * What the mask engine reads of a grammar automaton: the GrammarAutomaton (states built on
 * demand) or a RestoredAutomaton (states loaded from a serialized grammar, rebuilt from the
 * source when a document goes past them). The transition of state s on class c is
 * `transPages[s >> transShift][(s & (2 ** transShift - 1)) * numClasses + c]`: a state, -1 dead,
 * below -1 not computed (stepClass computes it). `transPages` and `plainBudget` may be replaced
 * by any call that builds states: re-read them after one.
 */
export interface MaskAutomaton {
  readonly start: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  readonly transPages: readonly Int32Array[];
  readonly transShift: number;
  readonly plainBudget: Int32Array;
  readonly numStates: number;
  /** The transitions of states 0 .. numStates - 1 as one array ([s * numClasses + c]; not
   *  computed: UNKNOWN), a copy (what a serialized grammar keeps). */
  transitions(): Int32Array;
  step(state: number, byte: number): number;
  stepClass(state: number, cls: number): number;
  canStepClass(state: number, cls: number): boolean;
  isAccepting(state: number): boolean;
  distToAccept(state: number): number;
  forcedByte(state: number): number;
  canContinue(state: number): boolean;
  /** True when the grammar has distinct arrays (Grammar.distinctArrays): the matcher then
   *  follows the document's arrays (distinct-items.ts). */
  readonly hasDistinct: boolean;
  /** Where `state` is relative to the distinct arrays (automaton/distinct-mark.ts). */
  distinctMark(state: number): DistinctMark;
  memoryBytes(): number;
}

/** Bytes the grammar dictates from a state, with the tokens that spell them. */
export interface ForcedRun {
  readonly bytes: Uint8Array;
  readonly tokens: readonly number[];
  /**
   * The canonical token of the forced bytes that was held back at the end because a longer token
   * could merge it with what follows: likely next, not certain (a draft for speculative decoding).
   */
  readonly heldBack?: number;
}

/** What a Matcher reads of the grammar it runs (token-grammar.ts). */
export interface MatcherGrammar {
  readonly automaton: MaskAutomaton;
  readonly vocabulary: Vocabulary;
  readonly index: VocabIndex;
  readonly maskWords: number;
  /** Writes the mask of a state into `out` (maskWords words). */
  writeMask(state: number, out: Uint32Array): void;
  /** State after reading `id`'s bytes from `state`, or -1. */
  stepToken(state: number, id: number): number;
  /** State after reading `bytes` from `state`, or -1. */
  stepBytes(state: number, bytes: Uint8Array): number;
  forcedRun(state: number): ForcedRun;
  shortestCompletion(state: number): ForcedRun;
}
