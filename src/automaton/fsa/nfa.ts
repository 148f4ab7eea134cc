/**
 * A byte-level NFA with epsilon moves (Thompson style), the common target that grammar
 * expressions, regexes and embedded sub-automata are translated into before subset construction.
 * Embedded DFAs are kept as blocks that point at their transition table instead of being copied
 * into edge lists: a 10,000-state string automaton costs no per-state allocation here, and the
 * subset construction reads its rows directly. Not for matching text directly.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { IntList } from "./int-list.js";
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

export class Nfa {
  /** Moves in the order they were added, flat: epsilon moves as (from, to), byte ranges as
   *  (from, lo, hi, to), calls as (from, callee rule id, return state): "run that rule, then
   *  continue at the return state", kept symbolic so a rule's body is built once and shared by
   *  every caller. Flat lists rather than lists per state: a rule's NFA has thousands of states,
   *  and small arrays per state were garbage for the collector on the first document's path. */
  private readonly epsMoves = new IntList();
  private readonly rangeMoves = new IntList();
  private readonly callMoves = new IntList();
  /** blockOf[s]: index into `blocks`, or -1 for a plain state. */
  private readonly blockOf = new IntList();
  readonly blocks: Block[] = [];

  constructor(
    private readonly budget: Budget,
    private readonly what: string,
  ) {}

  get numStates(): number {
    return this.blockOf.length;
  }

  addState(): number {
    this.blockOf.push(-1);
    this.budget.checkStates(this.blockOf.length, this.what);
    return this.blockOf.length - 1;
  }

  addEps(from: number, to: number): void {
    this.epsMoves.push(from);
    this.epsMoves.push(to);
  }

  addRange(from: number, lo: number, hi: number, to: number): void {
    this.rangeMoves.push(from);
    this.rangeMoves.push(lo);
    this.rangeMoves.push(hi);
    this.rangeMoves.push(to);
  }

  /** Fragment that calls rule `callee` (see `callMoves`). */
  call(callee: number): Fragment {
    const start = this.addState();
    const end = this.addState();
    this.callMoves.push(start);
    this.callMoves.push(callee);
    this.callMoves.push(end);
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

  /** Embeds a DFA as a block: its accepting states get epsilon moves to the exit. */
  embed(dfa: ByteDfa): Fragment {
    const base = this.numStates;
    const end = base + dfa.numStates;
    this.budget.checkStates(end + 1, this.what);
    const block = this.blocks.push({ base, dfa }) - 1;
    for (let s = 0; s < dfa.numStates; s++) {
      this.blockOf.push(block);
      if (dfa.accepting[s]) this.addEps(base + s, end);
    }
    this.addState();
    return { start: base + dfa.start, end };
  }

  /** The compact form readers use (see FrozenNfa). */
  freeze(): FrozenNfa {
    const n = this.numStates;
    const [epsStart, epsTo] = byState(n, this.epsMoves, 2);
    const [edgeStart, edgeData] = byState(n, this.rangeMoves, 4);
    const [callStart, callData] = byState(n, this.callMoves, 3);
    return new FrozenNfa({ numStates: n, epsStart, epsTo, edgeStart, edgeData, callStart, callData, blockOf: this.blockOf.copy(), blocks: this.blocks });
  }
}

/** Moves of `width` ints (from state first) grouped by state, each state's in the order added:
 *  offsets per state (n + 1, in ints of the rest of a move) and the moves without their from. */
function byState(n: number, moves: IntList, width: number): [Int32Array, Int32Array] {
  const rest = width - 1;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < moves.length; i += width) start[moves.at(i) + 1]! += rest;
  for (let s = 0; s < n; s++) start[s + 1]! += start[s]!;
  const data = new Int32Array(start[n]!);
  const fill = start.slice(0, n);
  for (let i = 0; i < moves.length; i += width) {
    const at = fill[moves.at(i)]!;
    for (let k = 0; k < rest; k++) data[at + k] = moves.at(i + 1 + k);
    fill[moves.at(i)]! += rest;
  }
  return [start, data];
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

  constructor(parts: Omit<FrozenNfa, "noEps">) {
    this.numStates = parts.numStates;
    this.epsStart = parts.epsStart;
    this.epsTo = parts.epsTo;
    this.edgeStart = parts.edgeStart;
    this.edgeData = parts.edgeData;
    this.callStart = parts.callStart;
    this.callData = parts.callData;
    this.blockOf = parts.blockOf;
    this.blocks = parts.blocks;
  }

  /** True when s has no epsilon moves. */
  noEps(s: number): boolean {
    return this.epsStart[s + 1] === this.epsStart[s];
  }
}
