/**
 * The byte-automaton walker behind `arbitrary()`: turns a sequence of integer choices into one
 * document the automaton accepts. Faithful by construction: every byte it emits is a live
 * transition of the (trimmed by construction) grammar automaton, and when the choices run out it follows the shortest completion,
 * so any choice sequence (including the empty one) yields an accepted document.
 *
 * Choice 0 at a state always means "the byte on the shortest way to the end", so fast-check's
 * shrinking (fewer choices, smaller integers) walks toward the smallest document.
 */
import type { GrammarAutomaton } from "../automaton/index.js";

/** One choice in FINISH_EVERY takes the shortest-completion byte outright: the bias toward
 *  finishing that keeps strings, numbers and arrays short on average. */
const FINISH_EVERY = 6;
/** Most bytes in a row that do not bring the document closer to its end: caps one string or
 *  digit run, so an integer has at most 21 digits and JSON.stringify never needs exponent form
 *  for it (it does from 1e21), which integer grammars would refuse. */
const MAX_RUN = 20;

/** An automaton with, per state, its live bytes ordered shortest-completion byte first (memoized). */
export class DfaWalker {
  private readonly options: (Uint8Array | undefined)[] = [];

  constructor(readonly automaton: GrammarAutomaton) {}

  /** The document spelled by `choices` (one integer per state with more than one way on). */
  walk(choices: readonly number[]): Uint8Array {
    return this.continueFrom(this.automaton.start, [], choices);
  }

  /**
   * What budget-aware completion makes of `bytes` cut at byte `at`: the first `at` bytes, then
   * the shortest completion (`bytes` must be a document or a prefix of one).
   */
  cutShort(bytes: Uint8Array, at: number): Uint8Array {
    const prefix = Array.from(bytes.subarray(0, at));
    return this.continueFrom(this.stateAfter(prefix), prefix, []);
  }

  /** True when the automaton accepts exactly these bytes. */
  accepts(bytes: Uint8Array): boolean {
    const s = this.stateAfter(bytes);
    return s >= 0 && this.automaton.isAccepting(s);
  }

  /** True when these bytes are a document nothing can extend (the decoder stops without eos). */
  isClosed(bytes: Uint8Array): boolean {
    const s = this.stateAfter(bytes);
    return s >= 0 && this.automaton.isAccepting(s) && this.optionsOf(s).length === 0;
  }

  private stateAfter(bytes: ArrayLike<number>): number {
    let s = this.automaton.start;
    for (let i = 0; i < bytes.length && s >= 0; i++) s = this.automaton.step(s, bytes[i]!);
    return s;
  }

  private continueFrom(from: number, out: number[], choices: readonly number[]): Uint8Array {
    const automaton = this.automaton;
    let state = from;
    let next = 0;
    let run = 0;
    for (;;) {
      const live = this.optionsOf(state);
      const stop = automaton.isAccepting(state);
      // At an accepting state "stop" is one more option, and it is the shortest completion.
      const count = live.length + (stop ? 1 : 0);
      if (count === 0) break;
      // Choices exhausted or run capped: take the shortest way (pick 0) without using a choice.
      let pick = 0;
      if (count > 1 && next < choices.length && run < MAX_RUN) {
        const c = choices[next++]!;
        pick = c % FINISH_EVERY === 0 ? 0 : Math.floor(c / FINISH_EVERY) % count;
      }
      if (stop && pick === 0) break;
      const byte = live[stop ? pick - 1 : pick]!;
      const to = automaton.step(state, byte);
      run = automaton.distToAccept(to) < automaton.distToAccept(state) ? 0 : run + 1;
      out.push(byte);
      state = to;
    }
    return Uint8Array.from(out);
  }

  /** Live bytes of a state: the smallest distance-lowering byte first, then the rest in byte order. */
  private optionsOf(state: number): Uint8Array {
    let cached = this.options[state];
    if (cached) return cached;
    const automaton = this.automaton;
    const bytes: number[] = [];
    let first = -1;
    for (let b = 0; b < 256; b++) {
      const to = automaton.step(state, b);
      if (to < 0) continue;
      if (first < 0 && automaton.distToAccept(to) === automaton.distToAccept(state) - 1) first = b;
      else bytes.push(b);
    }
    cached = Uint8Array.from(first < 0 ? bytes : [first, ...bytes]);
    this.options[state] = cached;
    return cached;
  }
}
