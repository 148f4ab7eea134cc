/**
 * A growable deterministic automaton over a fixed byte-class partition, used by every
 * construction step (subset construction, products, JSON string encoding). It produces a
 * `ByteDfa` that is not yet trimmed or minimized; `finish()` in finish.ts does that.
 */
import type { ByteDfa } from "./dfa.js";
import type { Budget } from "./work-budget.js";

const INITIAL_STATES = 8;

export class DfaBuilder {
  private trans: Int32Array;
  private accepting: Uint8Array;
  private count = 0;

  constructor(
    readonly classOf: Uint8Array,
    readonly numClasses: number,
    private readonly budget: Budget,
    private readonly what: string,
    /** Room made at once, for a caller that knows how many states it adds: the tables double as
     *  states are added past it. */
    expectedStates = INITIAL_STATES,
  ) {
    // Room for a few states by default: most automata built are small.
    const room = Math.max(1, expectedStates);
    this.trans = new Int32Array(room * numClasses).fill(-1);
    this.accepting = new Uint8Array(room);
  }

  get numStates(): number {
    return this.count;
  }

  addState(accepting = false): number {
    const id = this.count++;
    this.budget.checkStates(this.count, this.what);
    if (id >= this.accepting.length) {
      // Only the new half needs -1: the old half is copied over.
      const trans = new Int32Array(this.trans.length * 2);
      trans.set(this.trans);
      trans.fill(-1, this.trans.length);
      this.trans = trans;
      const acc = new Uint8Array(this.accepting.length * 2);
      acc.set(this.accepting);
      this.accepting = acc;
    }
    this.accepting[id] = accepting ? 1 : 0;
    return id;
  }

  setAccepting(state: number, accepting: boolean): void {
    this.accepting[state] = accepting ? 1 : 0;
  }

  set(state: number, cls: number, to: number): void {
    this.trans[state * this.numClasses + cls] = to;
  }

  get(state: number, cls: number): number {
    return this.trans[state * this.numClasses + cls]!;
  }

  /** Sets the transition for every class containing one of the bytes in [lo, hi]. */
  setBytes(state: number, lo: number, hi: number, to: number): void {
    for (let b = lo; b <= hi; b++) this.trans[state * this.numClasses + this.classOf[b]!] = to;
  }

  /** The automaton built; it shares this builder's buffers, so the builder is done with. */
  build(start: number): ByteDfa {
    return {
      numStates: this.count,
      start,
      numClasses: this.numClasses,
      classOf: this.classOf,
      trans: this.trans.subarray(0, this.count * this.numClasses),
      accepting: this.accepting.subarray(0, this.count),
    };
  }
}
