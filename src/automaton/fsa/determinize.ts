/**
 * Subset construction: byte NFA -> DFA, either all at once (`determinize`, not yet minimal or
 * trimmed) or one state at a time as a reader asks for it (`SubsetConstruction.expand`, what
 * subset-rule.ts runs while documents decode). The byte classes of the result are the elementary
 * intervals cut out by the NFA's edge ranges and its embedded DFAs' classes, so the work per DFA
 * state is proportional to its NFA moves, not to 256. Subsets that are a single state without
 * epsilon moves (most states inside embedded DFAs and literals) are interned by number, without
 * building keys. Every state and edge visit is charged to the budget, so exponential blow-ups stop
 * with AUTOMATON_TOO_LARGE. Calls (nfa.ts) become extra columns after the byte classes, one per
 * callee, listed in `callees`.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { partitionFromCuts, type Partition } from "./byte-partition.js";
import { IntList } from "./int-list.js";
import { IntSetTable } from "./int-set-table.js";
import { IntSlices } from "./int-slices.js";
import type { Fragment, FrozenNfa, Nfa } from "./nfa.js";

export interface SubsetOptions {
  /** Every subset containing the exit collapses into one accepting state with no transitions:
   *  the result accepts the texts that reach a first match, which is all a search needs (the
   *  caller appends "any text"), at a fraction of the subsets. */
  readonly stopAtAccept?: boolean;
  /** live[s] = 0 for NFA states that cannot complete: left out of every subset (nothing they
   *  reach can complete either), so every subset built can complete. Default: all live. */
  readonly live?: Uint8Array;
  /** Callees whose call cannot complete: their call moves are left out. */
  readonly deadCallee?: (callee: number) => boolean;
}

/** The whole DFA of the NFA fragment (every subset reachable from the start). */
export function determinize(nfa: Nfa, frag: Fragment, budget: Budget, what: string, stopAtAccept = false): ByteDfa {
  const subsets = new SubsetConstruction(nfa.freeze(), frag, budget, what, { stopAtAccept });
  for (let d = 0; d < subsets.numStates; d++) subsets.expand(d);
  return subsets.build();
}

export class SubsetConstruction {
  readonly classOf: Uint8Array;
  /** Byte classes plus one call column per callee. */
  readonly numClasses: number;
  /** Callee rule ids of the call columns, in column order (sorted). */
  readonly callees: readonly number[];
  readonly start: number;
  /** NFA states of each DFA state (empty for the collapsed accepting state of `stopAtAccept`). */
  readonly subsets = new IntSlices();

  private readonly dfa: DfaBuilder;
  private readonly callColumn: Map<number, number>;
  /** Per edge range (lo * 256 + hi): the byte classes it covers. */
  private readonly rangeClasses: Map<number, readonly number[]>;
  /** Per embedded automaton: our class -> its class (our partition refines every block's). */
  private readonly blockClass = new Map<ByteDfa, Int32Array>();
  private readonly live: Uint8Array | undefined;
  private readonly deadCallee: ((callee: number) => boolean) | undefined;
  private readonly stopAtAccept: boolean;
  private stop = -1;
  private readonly mark: Int32Array;
  private gen = 0;
  private readonly stack = new IntList();
  /** close()'s output, before it is sorted and kept. */
  private readonly closed = new IntList();
  /** Scratch: the one-state and empty subsets. */
  private readonly small = new IntList();
  private readonly singleton: Int32Array;
  /** The DFA states of subsets of more than one NFA state, by content. */
  private readonly bySubset = new IntSetTable();
  /** Per column: the NFA states its move reaches from the state being expanded, the first
   *  bucketSize[c] of them (the arrays are reused, never emptied: see int-list.ts). */
  private readonly buckets: number[][];
  private readonly bucketSize: Int32Array;
  private readonly touched = new IntList();

  constructor(
    private readonly nfa: FrozenNfa,
    private readonly frag: Fragment,
    private readonly budget: Budget,
    private readonly what: string,
    options: SubsetOptions = {},
  ) {
    const ranges = new Set<number>();
    const callees = new Set<number>();
    const { edgeData, callData } = nfa;
    for (let i = 0; i < edgeData.length; i += 3) ranges.add(edgeData[i]! * 256 + edgeData[i + 1]!);
    for (let i = 0; i < callData.length; i += 2) callees.add(callData[i]!);
    const { classOf, numClasses: byteClasses, classesOf } = byteClassesOf(ranges, new Set(nfa.blocks.map((block) => block.dfa)));
    this.rangeClasses = classesOf;
    this.classOf = classOf;
    this.callees = [...callees].sort((a, b) => a - b);
    this.callColumn = new Map(this.callees.map((callee, i) => [callee, byteClasses + i]));
    this.numClasses = byteClasses + this.callees.length;
    this.live = options.live;
    this.deadCallee = options.deadCallee;
    this.stopAtAccept = options.stopAtAccept ?? false;
    this.mark = new Int32Array(nfa.numStates).fill(-1);
    this.singleton = new Int32Array(nfa.numStates).fill(-1);
    this.buckets = Array.from({ length: this.numClasses }, () => []);
    this.bucketSize = new Int32Array(this.numClasses);
    this.dfa = new DfaBuilder(classOf, this.numClasses, budget, what);
    this.start = this.intern([frag.start], 1);
  }

  /** DFA states so far (expanding a state may add the states it moves to). */
  get numStates(): number {
    return this.dfa.numStates;
  }

  /** Next state of `d` on column `c`, -1 when none; `d` must be expanded. */
  next(d: number, c: number): number {
    return this.dfa.get(d, c);
  }

  /** Computes the moves of state `d`; the states they reach get ids (and subsets), not moves. */
  expand(d: number): void {
    const { nfa, budget, what, numClasses, buckets, touched, live } = this;
    const members = this.subsets.page(d);
    const first = this.subsets.start(d);
    const end = this.subsets.end(d);
    budget.charge(numClasses, what);
    for (let m = first; m < end; m++) {
      const s = members[m]!;
      const block = nfa.blockOf[s]!;
      if (block >= 0) {
        // A block's states all complete or none do (each reaches the block's exit), so the live
        // filter has nothing to remove here.
        const { base, dfa: inner } = nfa.blocks[block]!;
        const map = this.blockClassMap(inner);
        const row = (s - base) * inner.numClasses;
        if (end - first === 1) {
          // Fast path: a lone block state maps row to row.
          for (let c = 0; c < numClasses; c++) {
            const t = inner.trans[row + map[c]!]!;
            if (t >= 0) this.dfa.set(d, c, nfa.noEps(base + t) ? this.internOne(base + t) : this.intern([base + t], 1));
          }
          return;
        }
        for (let c = 0; c < numClasses; c++) {
          const t = inner.trans[row + map[c]!]!;
          if (t >= 0) this.push(c, base + t);
        }
      } else {
        const { edgeData, callData } = nfa;
        budget.charge(nfa.edgeStart[s + 1]! - nfa.edgeStart[s]!, what);
        for (let i = nfa.edgeStart[s]!; i < nfa.edgeStart[s + 1]!; i += 3) {
          const to = edgeData[i + 2]!;
          if (live !== undefined && live[to] === 0) continue;
          for (const c of this.rangeClasses.get(edgeData[i]! * 256 + edgeData[i + 1]!)!) this.push(c, to);
        }
        for (let i = nfa.callStart[s]!; i < nfa.callStart[s + 1]!; i += 2) {
          const ret = callData[i + 1]!;
          if ((live !== undefined && live[ret] === 0) || this.deadCallee?.(callData[i]!)) continue;
          this.push(this.callColumn.get(callData[i]!)!, ret);
        }
      }
    }
    for (let i = 0; i < touched.length; i++) {
      const c = touched.at(i);
      // Duplicates are fine: the closure takes each state once.
      this.dfa.set(d, c, this.intern(buckets[c]!, this.bucketSize[c]!));
      this.bucketSize[c] = 0;
    }
    touched.clear();
  }

  private blockClassMap(inner: ByteDfa): Int32Array {
    let map = this.blockClass.get(inner);
    if (map === undefined) {
      map = new Int32Array(this.numClasses);
      for (let b = 0; b < 256; b++) map[this.classOf[b]!] = inner.classOf[b]!;
      this.blockClass.set(inner, map);
    }
    return map;
  }

  /** The automaton of the states so far (it shares this construction's buffers). */
  build(): ByteDfa {
    const built = this.dfa.build(this.start);
    return this.callees.length === 0 ? built : { ...built, callees: Int32Array.from(this.callees) };
  }

  private push(c: number, t: number): void {
    if (this.bucketSize[c] === 0) this.touched.push(c);
    this.buckets[c]![this.bucketSize[c]!++] = t;
  }

  /** Epsilon closure of the first `count` seeds without dead states, sorted (the canonical
   *  subset), in scratch. */
  private close(seeds: readonly number[], count: number): IntList {
    const { mark, stack, nfa, live } = this;
    const gen = ++this.gen;
    const out = this.closed;
    out.clear();
    for (let i = 0; i < count; i++) {
      const s = seeds[i]!;
      if (mark[s] === gen) continue;
      mark[s] = gen;
      stack.push(s);
    }
    while (stack.length > 0) {
      const s = stack.pop()!;
      out.push(s);
      for (let i = nfa.epsStart[s]!; i < nfa.epsStart[s + 1]!; i++) {
        const t = nfa.epsTo[i]!;
        if (mark[t] !== gen && (live === undefined || live[t] === 1)) {
          mark[t] = gen;
          stack.push(t);
        }
      }
    }
    // Sorting and keying large subsets is the expensive part of a blow-up: charge it fully.
    this.budget.charge(8 * out.length, this.what);
    out.sortUnique();
    return out;
  }

  /** A new DFA state for subset `set` (copied). */
  private add(set: IntList): number {
    const accepting = contains(set, this.frag.end);
    if (accepting && this.stopAtAccept) return this.stopState();
    this.subsets.add(set);
    return this.dfa.addState(accepting);
  }

  /** The one accepting state every subset with the exit collapses into (`stopAtAccept`). */
  private stopState(): number {
    if (this.stop < 0) {
      this.stop = this.dfa.addState(true);
      this.small.clear();
      this.subsets.add(this.small);
    }
    return this.stop;
  }

  /** A single state without epsilon moves is its own closure. */
  private internOne(s: number): number {
    if (this.singleton[s]! < 0) {
      this.small.clear();
      this.small.push(s);
      this.singleton[s] = this.add(this.small);
    }
    return this.singleton[s]!;
  }

  /** The DFA state of the closure of the first `count` seeds. */
  private intern(seeds: readonly number[], count: number): number {
    if (count === 1 && this.nfa.noEps(seeds[0]!)) return this.internOne(seeds[0]!);
    const set = this.close(seeds, count);
    if (set.length === 1) return this.internOne(set.at(0));
    if (this.stopAtAccept && contains(set, this.frag.end)) return this.stopState();
    const known = this.bySubset.find(set);
    if (known >= 0) return known;
    const id = this.add(set);
    this.bySubset.add(set, id);
    return id;
  }
}

function contains(set: IntList, s: number): boolean {
  for (let i = 0; i < set.length; i++) if (set.at(i) === s) return true;
  return false;
}

/**
 * The coarsest byte classes that every edge range (lo * 256 + hi) and every embedded automaton
 * respects: bytes covered by the same ranges and in the same class of each automaton. (Cutting
 * at range ends alone would split e.g. [a-z] around every letter some literal uses.)
 */
const scratch = { bits: new Uint32Array(1024), first: new Int32Array(256), pieceClass: new Int32Array(256), nextInGroup: new Int32Array(256) };

function byteClassesOf(rangeSet: ReadonlySet<number>, embedded: ReadonlySet<ByteDfa>): Partition & { classesOf: Map<number, readonly number[]> } {
  const ranges = [...rangeSet];
  const cuts: number[] = [];
  for (const r of ranges) cuts.push(r >> 8, (r & 255) + 1);
  for (const dfa of embedded) for (let b = 1; b < 256; b++) if (dfa.classOf[b] !== dfa.classOf[b - 1]) cuts.push(b);
  const pieces = partitionFromCuts(cuts);
  const numPieces = pieces.numClasses;
  // Each piece's signature: a bit per range covering it, then its class in each automaton.
  // Pieces are grouped by a hash of it and compared exactly within a group. (Scratch buffers:
  // this runs for every automaton built.)
  const words = (ranges.length + 31) >> 5;
  if (scratch.bits.length < numPieces * words) scratch.bits = new Uint32Array(2 * numPieces * words);
  const { bits, first, pieceClass, nextInGroup } = scratch;
  bits.fill(0, 0, numPieces * words);
  let bit = 0;
  for (const r of ranges) {
    for (let p = pieces.classOf[r >> 8]!, last = pieces.classOf[r & 255]!; p <= last; p++) bits[p * words + (bit >> 5)]! |= 1 << (bit & 31);
    bit++;
  }
  for (let b = 255; b >= 0; b--) first[pieces.classOf[b]!] = b;
  const same = (p: number, q: number): boolean => {
    for (let w = 0; w < words; w++) if (bits[p * words + w] !== bits[q * words + w]) return false;
    for (const dfa of embedded) if (dfa.classOf[first[p]!] !== dfa.classOf[first[q]!]) return false;
    return true;
  };
  /** Hash -> the first piece of its group; a group's pieces are chained through nextInGroup. */
  const groups = new Map<number, number>();
  let numClasses = 0;
  for (let p = 0; p < numPieces; p++) {
    let h = 0;
    for (let w = 0; w < words; w++) h = Math.imul(h ^ bits[p * words + w]!, 0x9e3779b1);
    for (const dfa of embedded) h = Math.imul(h ^ dfa.classOf[first[p]!]!, 0x85ebca6b);
    let q = groups.get(h) ?? -1;
    while (q >= 0 && !same(p, q)) q = nextInGroup[q]!;
    if (q >= 0) pieceClass[p] = pieceClass[q]!;
    else {
      pieceClass[p] = numClasses++;
      nextInGroup[p] = groups.get(h) ?? -1;
      groups.set(h, p);
    }
  }
  // Classes are no longer intervals: each range keeps the list of classes it covers.
  const classesOf = new Map<number, readonly number[]>();
  const seen = new Int32Array(numClasses).fill(-1);
  for (const r of ranges) {
    const covered: number[] = [];
    for (let p = pieces.classOf[r >> 8]!, last = pieces.classOf[r & 255]!; p <= last; p++) {
      const c = pieceClass[p]!;
      if (seen[c] !== r) ((seen[c] = r), covered.push(c));
    }
    classesOf.set(r, covered);
  }
  const classOf = new Uint8Array(256);
  for (let b = 0; b < 256; b++) classOf[b] = pieceClass[pieces.classOf[b]!]!;
  return { classOf, numClasses, classesOf };
}
