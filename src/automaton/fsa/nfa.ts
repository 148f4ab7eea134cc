/**
 * A byte-level NFA with epsilon moves (Thompson style), the common target that grammar
 * expressions, regexes and embedded sub-automata are translated into before subset construction.
 * Embedded DFAs are kept as blocks that point at their transition table instead of being copied
 * into edge lists: a 10,000-state string automaton costs no per-state allocation here, and the
 * subset construction reads its rows directly. Not for matching text directly.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { utf8Sequences } from "./utf8.js";

/** A sub-automaton with one entry and one exit state. */
export interface Fragment {
  readonly start: number;
  readonly end: number;
}

/** An embedded DFA occupying NFA states [base, base + dfa.numStates). */
export interface Block {
  readonly base: number;
  readonly dfa: ByteDfa;
}

const NO_MOVES: readonly number[] = Object.freeze([]);

export class Nfa {
  /** eps[s]: epsilon successors. */
  readonly eps: (readonly number[])[] = [];
  /** edges[s]: flat triples (lo, hi, to); empty for block states. */
  readonly edges: (readonly number[])[] = [];
  /** calls[s]: flat pairs (callee rule id, return state): "run that rule, then continue at the
   *  return state", kept symbolic so a rule's body is built once and shared by every caller. */
  readonly calls: (readonly number[])[] = [];
  /** blockOf[s]: index into `blocks`, or -1 for a plain state. */
  readonly blockOf: number[] = [];
  readonly blocks: Block[] = [];

  constructor(
    private readonly budget: Budget,
    private readonly what: string,
  ) {}

  get numStates(): number {
    return this.eps.length;
  }

  addState(): number {
    // Move lists start as the shared empty list and get their own array on the first move
    // (most states have moves of one kind only).
    this.eps.push(NO_MOVES);
    this.edges.push(NO_MOVES);
    this.calls.push(NO_MOVES);
    this.blockOf.push(-1);
    this.budget.checkStates(this.eps.length, this.what);
    return this.eps.length - 1;
  }

  addEps(from: number, to: number): void {
    if (this.eps[from] === NO_MOVES) this.eps[from] = [to];
    else (this.eps[from] as number[]).push(to);
  }

  addRange(from: number, lo: number, hi: number, to: number): void {
    if (this.edges[from] === NO_MOVES) this.edges[from] = [lo, hi, to];
    else (this.edges[from] as number[]).push(lo, hi, to);
  }

  /** Fragment that calls rule `callee` (see `calls`). */
  call(callee: number): Fragment {
    const start = this.addState();
    const end = this.addState();
    this.calls[start] = [callee, end];
    return { start, end };
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
          this.addRange(cur, seq[i]![0], seq[i]![1], next);
          cur = next;
        }
      }
    }
    return { start, end };
  }

  /** The compact form readers use (see FrozenNfa). */
  freeze(): FrozenNfa {
    return new FrozenNfa(this);
  }

  /** Embeds a DFA as a block: its accepting states get epsilon moves to the exit. */
  embed(dfa: ByteDfa): Fragment {
    const base = this.numStates;
    const end = base + dfa.numStates;
    this.budget.checkStates(end + 1, this.what);
    const block = this.blocks.push({ base, dfa }) - 1;
    for (let s = 0; s < dfa.numStates; s++) {
      this.eps.push(dfa.accepting[s] ? [end] : NO_MOVES);
      this.edges.push(NO_MOVES);
      this.calls.push(NO_MOVES);
      this.blockOf.push(block);
    }
    this.addState();
    return { start: base + dfa.start, end };
  }
}

/**
 * An NFA in compact form (nfa.freeze()): moves in flat typed arrays indexed by per-state offsets
 * (CSR), which is what readers walk, and all an automaton determinized on demand keeps alive
 * (subset-rule.ts): a few arrays instead of three small arrays per state.
 */
export class FrozenNfa {
  readonly numStates: number;
  /** Epsilon successors of s: epsTo[epsStart[s] .. epsStart[s + 1]). */
  readonly epsStart: Int32Array;
  readonly epsTo: Int32Array;
  /** Byte ranges of s: (lo, hi, to) triples in edgeData[edgeStart[s] .. edgeStart[s + 1]). */
  readonly edgeStart: Int32Array;
  readonly edgeData: Int32Array;
  /** Calls of s: (callee, return state) pairs in callData[callStart[s] .. callStart[s + 1]). */
  readonly callStart: Int32Array;
  readonly callData: Int32Array;
  readonly blockOf: Int32Array;
  readonly blocks: readonly Block[];

  constructor(nfa: Nfa) {
    const n = (this.numStates = nfa.numStates);
    const flatten = (lists: readonly (readonly number[])[]): [Int32Array, Int32Array] => {
      const start = new Int32Array(n + 1);
      for (let s = 0; s < n; s++) start[s + 1] = start[s]! + lists[s]!.length;
      const data = new Int32Array(start[n]!);
      for (let s = 0; s < n; s++) data.set(lists[s]!, start[s]);
      return [start, data];
    };
    [this.epsStart, this.epsTo] = flatten(nfa.eps);
    [this.edgeStart, this.edgeData] = flatten(nfa.edges);
    [this.callStart, this.callData] = flatten(nfa.calls);
    this.blockOf = Int32Array.from(nfa.blockOf);
    this.blocks = nfa.blocks;
  }

  /** True when s has no epsilon moves. */
  noEps(s: number): boolean {
    return this.epsStart[s + 1] === this.epsStart[s];
  }
}
