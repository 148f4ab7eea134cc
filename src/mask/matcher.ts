/**
 * Per-request grammar state (XGrammar's GrammarMatcher): where the document is, the history for
 * rollback, and whether an end-of-generation token has been accepted. Cheap to create; all heavy
 * data lives in the shared TokenGrammar.
 */
import { PocketExtractError } from "../errors.js";
import { DistinctGuard } from "./distinct-guard.js";
import type { ForcedRun, MatcherGrammar } from "./mask-types.js";

/**
 * One document's walk through a TokenGrammar: token masks, accept, forced runs (jump-forward),
 * rollback and completion checks.
 */
export class Matcher {
  private current: number;
  /** States before each accepted unit (token or byte run), for rollback. */
  private readonly history: number[] = [];
  private ended = false;
  /** Keeps distinct arrays' items distinct (a grammar with Grammar.distinctArrays only). */
  private readonly distinct: DistinctGuard | undefined;

  constructor(private readonly grammar: MatcherGrammar) {
    this.current = grammar.automaton.start;
    this.distinct = grammar.automaton.hasDistinct ? new DistinctGuard(grammar) : undefined;
  }

  /** The automaton state (for caching and debugging). */
  get state(): number {
    return this.current;
  }

  /** True once an end-of-generation token was accepted. */
  get terminated(): boolean {
    return this.ended;
  }

  /** Tokens and byte runs accepted so far (what `rollback` can undo). */
  get length(): number {
    return this.history.length;
  }

  /** Writes the allowed next tokens into `out` (ceil(width / 32) words). */
  fillMask(out: Uint32Array): void {
    if (out.length !== this.grammar.maskWords) {
      throw new PocketExtractError(
        "MASK_SIZE",
        `mask buffer has ${out.length} words; this vocabulary (width ${this.grammar.vocabulary.width}) needs ${this.grammar.maskWords}`,
      );
    }
    if (this.ended) {
      out.fill(0);
      return;
    }
    this.grammar.writeMask(this.current, out);
    this.distinct?.filter(this.current, out);
  }

  /** Whether `id` may come next (no mask needed). */
  allows(id: number): boolean {
    this.checkId(id);
    if (this.ended) return false;
    if (this.isEos(id)) return this.isComplete();
    return this.grammar.stepToken(this.current, id) >= 0 && (this.distinct?.allows(this.current, id) ?? true);
  }

  /** Accepts `id` if the grammar allows it; returns false (state unchanged) otherwise. */
  accept(id: number): boolean {
    this.checkId(id);
    if (this.ended) {
      throw new PocketExtractError("MATCHER_COMPLETE", `token ${id} offered after the document was terminated by an end-of-generation token`);
    }
    if (this.isEos(id)) {
      if (!this.isComplete()) return false;
      this.distinct?.acceptEnd();
      this.history.push(this.current);
      this.ended = true;
      return true;
    }
    const next = this.grammar.stepToken(this.current, id);
    if (next < 0) return false;
    const { byteOffsets, byteData } = this.grammar.index;
    if (this.distinct?.accept(this.current, byteData, byteOffsets[id]!, byteOffsets[id + 1]!) === false) return false;
    this.history.push(this.current);
    this.current = next;
    return true;
  }

  /** Accepts raw bytes as one unit (all or nothing). */
  acceptBytes(bytes: Uint8Array): boolean {
    if (this.ended) {
      throw new PocketExtractError("MATCHER_COMPLETE", "bytes offered after the document was terminated");
    }
    const next = this.grammar.stepBytes(this.current, bytes);
    if (next < 0 || this.distinct?.accept(this.current, bytes) === false) return false;
    this.history.push(this.current);
    this.current = next;
    return true;
  }

  /** Undoes the last `n` accepted units. */
  rollback(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > this.history.length) {
      throw new PocketExtractError("ROLLBACK_RANGE", `cannot roll back ${n} units: ${this.history.length} accepted so far`);
    }
    if (n === 0) return;
    this.distinct?.rollback(n);
    this.current = this.history[this.history.length - n]!;
    this.history.length -= n;
    this.ended = false;
  }

  /** True when the document is complete (an end-of-generation token may come next). */
  isComplete(): boolean {
    return this.grammar.automaton.isAccepting(this.current);
  }

  /** True when nothing but the end of the document can follow. */
  isClosed(): boolean {
    return this.isComplete() && !this.grammar.automaton.canContinue(this.current);
  }

  /** Bytes the grammar forces next, and canonical tokens spelling them (possibly empty). */
  forced(): ForcedRun {
    return this.ended ? EMPTY_RUN : this.grammar.forcedRun(this.current);
  }

  /** The shortest way to complete the document from here (empty when complete); with distinct
   *  arrays, the shortest that keeps their items distinct as far as added characters find one. */
  shortestCompletion(): ForcedRun {
    if (this.ended) return EMPTY_RUN;
    const run = this.grammar.shortestCompletion(this.current);
    return this.distinct === undefined ? run : this.distinct.completion(this.current, run);
  }

  /** Fewest tokens that complete the document from here, not counting the end-of-generation token. */
  remainingMinimum(): number {
    return this.shortestCompletion().tokens.length;
  }

  private isEos(id: number): boolean {
    return this.grammar.index.eosIds.includes(id);
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.grammar.vocabulary.width) {
      throw new PocketExtractError("TOKEN_UNKNOWN", `token id ${id} is outside the vocabulary (0..${this.grammar.vocabulary.width - 1})`);
    }
  }
}

const EMPTY_RUN: ForcedRun = { bytes: new Uint8Array(0), tokens: [] };
