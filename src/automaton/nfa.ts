/**
 * A byte-level NFA with epsilon moves (Thompson style), the common target that grammar
 * expressions, regexes and embedded sub-automata are translated into before subset construction.
 * Not for matching text directly.
 */
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { classRanges } from "./classes.js";
import { utf8Sequences } from "./utf8.js";

/** A sub-automaton with one entry and one exit state. */
export interface Fragment {
  readonly start: number;
  readonly end: number;
}

export class Nfa {
  /** eps[s]: epsilon successors. */
  readonly eps: number[][] = [];
  /** edges[s]: flat triples (lo, hi, to). */
  readonly edges: number[][] = [];

  constructor(
    private readonly budget: Budget,
    private readonly what: string,
  ) {}

  get numStates(): number {
    return this.eps.length;
  }

  addState(): number {
    this.eps.push([]);
    this.edges.push([]);
    this.budget.checkStates(this.eps.length, this.what);
    return this.eps.length - 1;
  }

  addEps(from: number, to: number): void {
    this.eps[from].push(to);
  }

  addRange(from: number, lo: number, hi: number, to: number): void {
    this.edges[from].push(lo, hi, to);
  }

  /** Epsilon-only fragment (matches the empty string). */
  empty(): Fragment {
    const s = this.addState();
    return { start: s, end: s };
  }

  /** Fragment matching the given byte sequence. */
  bytes(bytes: readonly number[]): Fragment {
    const start = this.addState();
    let cur = start;
    for (const b of bytes) {
      const next = this.addState();
      this.addRange(cur, b, b, next);
      cur = next;
    }
    return { start, end: cur };
  }

  /** Fragment matching one code point from the (sorted, disjoint) ranges, UTF-8 encoded. */
  codePoints(ranges: readonly (readonly [number, number])[]): Fragment {
    const start = this.addState();
    const end = this.addState();
    for (const [lo, hi] of ranges) {
      for (const seq of utf8Sequences(lo, hi)) {
        let cur = start;
        for (let i = 0; i < seq.length; i++) {
          const next = i === seq.length - 1 ? end : this.addState();
          this.addRange(cur, seq[i][0], seq[i][1], next);
          cur = next;
        }
      }
    }
    return { start, end };
  }

  /** Copies a DFA in as a fragment: its accepting states get epsilon moves to the exit. */
  embed(dfa: ByteDfa): Fragment {
    const base = this.numStates;
    this.budget.checkStates(base + dfa.numStates + 1, this.what);
    const ranges = classRanges(dfa);
    for (let s = 0; s < dfa.numStates; s++) this.addState();
    const end = this.addState();
    const k = dfa.numClasses;
    for (let s = 0; s < dfa.numStates; s++) {
      const out = this.edges[base + s];
      for (let c = 0; c < k; c++) {
        const t = dfa.trans[s * k + c];
        if (t < 0) continue;
        for (const [lo, hi] of ranges[c]) out.push(lo, hi, base + t);
      }
      if (dfa.accepting[s]) this.eps[base + s].push(end);
    }
    return { start: base + dfa.start, end };
  }
}
