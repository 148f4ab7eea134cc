/**
 * A called rule's automaton determinized as documents reach it (rule-automata.ts builds every
 * non-recursive called rule and every big recursive one this way): compiling keeps the rule's
 * NFA and its analysis on NFA states, and the subset construction (determinize.ts) expands a DFA
 * state when the grammar automaton first reads it. Determinizing and minimizing a schema's own rules (its root object,
 * the tails of its optional properties) was most of a first compile; a document visits a few of
 * their states.
 *
 * The tables (rule-tables.ts) come from the NFA, exactly where it matters:
 *  - `dist`: fewest bytes from NFA states to the rule's end (Dijkstra backwards: a byte weighs 1,
 *    an epsilon move 0, a call its callee's shortest text, an embedded automaton's state its own
 *    distance to the automaton's exit); a DFA state's is the least of its members', since each
 *    member's path is a path of the subset.
 *  - `next`: NFA states and calls that cannot complete never enter a subset, so every DFA state
 *    can complete: the rule is trimmed as it is expanded. It is not minimal: equivalent states
 *    stay apart, which costs the grammar automaton a few more states and nothing in exactness.
 *  - `plainBudget`: the best of the members' budgets, where members inside an embedded automaton
 *    (a JSON string, inlined) have that automaton's budgets and others the least one can have;
 *    any member surviving a text means the subset survives it, so this is a lower bound, as
 *    required.
 *  - `singleByte`: read off the expanded row.
 *
 * A recursive rule is determinized with its callees at their shortest at the greatest depth, so
 * its DFA has the states of every depth; `tablesAt` gives the tables for the callee lengths of
 * less depth left: the same DFA, minus the moves into states or through calls that cannot
 * complete at those lengths, with distances from the NFA again.
 */
import {
  Budget,
  ClassBytes,
  distancesOf,
  distancesTo,
  NO_BUDGET,
  SubsetConstruction,
  UNREACHABLE,
  type Fragment,
  type FrozenNfa,
  type LazyRule,
  type Nfa,
  type RuleTables,
} from "../fsa/index.js";
import { plainBudgetsOf } from "../strings/index.js";

export class SubsetRule implements LazyRule {
  readonly start: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  readonly callees: Int32Array | undefined;
  readonly shortest: number;
  /** The tables with every callee at its shortest (the rule's own calls, when not recursive). */
  readonly tables: RuleTables;

  readonly subsets: SubsetConstruction;
  readonly bytes: ClassBytes;
  private expanded = new Uint8Array(64);
  /** Plain-text budgets of embedded automata, per block, made when first asked. */
  private readonly blockBudgets: (Int32Array | undefined)[] = [];

  /** The rule of NFA fragment `frag`; null when no text completes it. `shortestOf(callee)` is
   *  the callee's shortest text (UNREACHABLE when it has none); a recursive rule passes its
   *  callees' shortest at the greatest depth, so its DFA holds every state of every depth. */
  static of(built: Nfa, frag: Fragment, shortestOf: (callee: number) => number, maxStates: number, what: string): SubsetRule | null {
    const nfa = built.freeze();
    const callWeight = memoized(shortestOf);
    const nfaDist = distancesToExit(nfa, frag, callWeight);
    if (nfaDist[frag.start]! >= UNREACHABLE) return null;
    return new SubsetRule(nfa, frag, nfaDist, callWeight, maxStates, what);
  }

  private constructor(
    private readonly nfa: FrozenNfa,
    private readonly frag: Fragment,
    nfaDist: Int32Array,
    callWeight: (callee: number) => number,
    maxStates: number,
    what: string,
  ) {
    const live = new Uint8Array(nfaDist.length);
    for (let s = 0; s < live.length; s++) live[s] = nfaDist[s]! < UNREACHABLE ? 1 : 0;
    const budget = Budget.forStates(maxStates);
    this.subsets = new SubsetConstruction(nfa, frag, budget, what, { live, deadCallee: (callee) => callWeight(callee) >= UNREACHABLE });
    this.start = this.subsets.start;
    this.classOf = this.subsets.classOf;
    this.numClasses = this.subsets.numClasses;
    this.callees = this.subsets.callees.length === 0 ? undefined : Int32Array.from(this.subsets.callees);
    this.bytes = new ClassBytes(this.classOf, this.numClasses - this.subsets.callees.length);
    this.shortest = nfaDist[frag.start]!;
    this.tables = new SubsetTables(this, () => nfaDist);
  }

  /** DFA states so far. */
  get numStates(): number {
    return this.subsets.numStates;
  }

  /**
   * The tables with callees at other shortest texts (`shortestOf`: a recursive rule entered with
   * less depth left, whose calls into its own cycle may not go as deep): the same DFA, with the
   * moves that cannot complete at those lengths removed and distances from the NFA again.
   */
  tablesAt(shortestOf: (callee: number) => number): RuleTables {
    const callWeight = memoized(shortestOf);
    return new SubsetTables(this, () => distancesToExit(this.nfa, this.frag, callWeight), callWeight);
  }

  /** This rule as called from a grammar whose rule ids for the call columns are `callees`
   *  (a shared rule's columns keep their order; only the ids they call differ). */
  calledAs(callees: Int32Array): LazyRule {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the numStates getter runs with `this` bound to the returned object
    const rule = this;
    return {
      get numStates() {
        return rule.numStates;
      },
      start: this.start,
      classOf: this.classOf,
      numClasses: this.numClasses,
      callees,
      shortest: this.shortest,
      tables: this.tables,
    };
  }

  /** The subset construction with `state`'s moves computed. */
  row(state: number): SubsetConstruction {
    if (state >= this.expanded.length || this.expanded[state] === 0) {
      this.subsets.expand(state);
      if (this.subsets.numStates > this.expanded.length) this.expanded = grown(this.expanded, this.subsets.numStates, 0);
      this.expanded[state] = 1;
    }
    return this.subsets;
  }

  /** The plain-text budget of NFA state `s` at UTF-8 position `pos`: its embedded automaton's,
   *  NO_BUDGET outside one. */
  memberBudget(s: number, pos: number): number {
    const block = this.nfa.blockOf[s]!;
    if (block < 0) return NO_BUDGET;
    const { base, dfa } = this.nfa.blocks[block]!;
    const budgets = (this.blockBudgets[block] ??= plainBudgetsOf(dfa));
    return budgets[(s - base) * 4 + pos]!;
  }
}

/**
 * A rule's tables over one table of NFA distances. A DFA state's distance is the least of its
 * live members'; with `callWeight` (tables at other callee lengths than the construction's) a
 * move is kept only when its target can complete and its call, if any, can.
 */
class SubsetTables implements RuleTables {
  /** Per state: its least member distance, -1 until first asked. */
  private least = new Int32Array(64).fill(-1);
  private single = new Int16Array(64).fill(UNSET);
  /** Per state and UTF-8 position: its plain-text budget, UNSET_BUDGET until first asked. */
  private budgets = new Int32Array(64 * 4).fill(UNSET_BUDGET);
  private readonly byteColumns: number;
  private distances: Int32Array | undefined;

  /** `nfaDistances` is computed when first needed. */
  constructor(
    private readonly rule: SubsetRule,
    private readonly nfaDistances: () => Int32Array,
    private readonly callWeight?: (callee: number) => number,
  ) {
    this.byteColumns = rule.numClasses - rule.subsets.callees.length;
  }

  private get nfaDist(): Int32Array {
    return (this.distances ??= this.nfaDistances());
  }

  next(state: number, column: number): number {
    const t = this.rule.row(state).next(state, column);
    if (t < 0 || this.callWeight === undefined) return t;
    if (column >= this.byteColumns && this.callWeight(this.rule.subsets.callees[column - this.byteColumns]!) >= UNREACHABLE) return -1;
    return this.distOf(t) < UNREACHABLE ? t : -1;
  }

  dist(state: number): number {
    return this.distOf(state);
  }

  plainBudget(state: number, pos: number): number {
    this.grow(state + 1);
    const at = state * 4 + pos;
    if (this.budgets[at] !== UNSET_BUDGET) return this.budgets[at]!;
    // At a character boundary every state survives the zero characters before its first
    // (plain-text-budget.ts: a budget is one less than the characters started up to a death).
    let best = pos === 0 ? 0 : NO_BUDGET;
    const { nfaDist } = this;
    const { subsets } = this.rule.subsets;
    const members = subsets.page(state);
    for (let i = subsets.start(state), end = subsets.end(state); i < end; i++) {
      const s = members[i]!;
      if (nfaDist[s]! < UNREACHABLE) best = Math.max(best, this.rule.memberBudget(s, pos));
    }
    // Every grammar-automaton state with a frame here asks again (a subset can have hundreds
    // of members): kept.
    this.budgets[at] = best;
    return best;
  }

  singleByte(state: number): number {
    this.grow(state + 1);
    if (this.single[state] === UNSET) this.single[state] = this.rule.bytes.singleByte((c) => this.next(state, c));
    return this.single[state]!;
  }

  private distOf(state: number): number {
    this.grow(state + 1);
    let d = this.least[state]!;
    if (d < 0) {
      d = UNREACHABLE;
      const { nfaDist } = this;
      const { subsets } = this.rule.subsets;
      const members = subsets.page(state);
      for (let i = subsets.start(state), end = subsets.end(state); i < end; i++) d = Math.min(d, nfaDist[members[i]!]!);
      this.least[state] = d;
    }
    return d;
  }

  private grow(n: number): void {
    if (n <= this.least.length) return;
    const size = Math.max(n, this.least.length * 2);
    this.least = grown(this.least, size, -1);
    this.single = grown(this.single, size, UNSET);
    this.budgets = grown(this.budgets, size * 4, UNSET_BUDGET);
  }
}

/** `singleByte` not computed yet (real values are a byte, NO_BYTE or MANY_BYTES). */
const UNSET = -3;
/** `plainBudget` not computed yet (real values are at least NO_BUDGET). */
const UNSET_BUDGET = -0x7fffffff;

function grown<T extends Uint8Array | Int16Array | Int32Array>(array: T, size: number, fill: number): T {
  const out = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  out.fill(fill);
  out.set(array);
  return out;
}

function memoized(shortestOf: (callee: number) => number): (callee: number) => number {
  const weights = new Map<number, number>();
  return (callee) => {
    let w = weights.get(callee);
    if (w === undefined) weights.set(callee, (w = shortestOf(callee)));
    return w;
  };
}

/**
 * Fewest bytes from each NFA state to the fragment's exit, backwards from it. An embedded
 * automaton's states are not walked one move at a time: each reaches the block's exit in its own
 * distance to acceptance (the automaton is finished, so every state has one).
 */
function distancesToExit(nfa: FrozenNfa, frag: Fragment, callWeight: (callee: number) => number): Int32Array {
  const { epsStart, epsTo, edgeStart, edgeData, callStart, callData } = nfa;
  let count = epsTo.length + edgeData.length / 3 + callData.length / 2;
  for (const { dfa } of nfa.blocks) count += dfa.numStates;
  const edges = { from: new Int32Array(count), to: new Int32Array(count), weight: new Int32Array(count) };
  let n = 0;
  const add = (from: number, to: number, weight: number): void => {
    edges.from[n] = from;
    edges.to[n] = to;
    edges.weight[n++] = weight;
  };
  for (let s = 0; s < nfa.numStates; s++) {
    for (let i = epsStart[s]!; i < epsStart[s + 1]!; i++) add(s, epsTo[i]!, 0);
    for (let i = edgeStart[s]!; i < edgeStart[s + 1]!; i += 3) add(s, edgeData[i + 2]!, 1);
    // A call that cannot complete weighs UNREACHABLE: no distance through it is ever below
    // UNREACHABLE, so it is as good as absent.
    for (let i = callStart[s]!; i < callStart[s + 1]!; i += 2) add(s, callData[i + 1]!, callWeight(callData[i]!));
  }
  for (const { base, dfa } of nfa.blocks) {
    const inner = distancesOf(dfa);
    // The block's exit is the state right after it (nfa.ts embed).
    for (let s = 0; s < dfa.numStates; s++) add(base + s, base + dfa.numStates, inner[s]!);
  }
  return distancesTo(nfa.numStates, edges, [frag.end]);
}
