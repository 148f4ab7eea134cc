/**
 * A grammar automaton loaded from a serialized grammar: the per-state tables of the states built
 * before it was serialized, read in place. The grammar automaton builds states on demand, so a
 * document may step where no loaded transition goes; the first such step rebuilds the automaton
 * from the grammar's source and replays the loaded states in the order they were built, which
 * gives every state the same id again (a state is interned when the step that creates it is
 * taken, and each replayed step creates exactly the state it created before). From then on the
 * rebuilt automaton answers, with the loaded transitions copied in. The replay checks that the
 * rebuilt states describe themselves as the loaded ones did: a difference is a typed error,
 * never a wrong mask.
 */
import { pagesOf, pageShiftFor, UNKNOWN, type DistinctMark, type GrammarAutomaton } from "../automaton/index.js";
import { GrammarFileError } from "../errors.js";
import type { MaskAutomaton } from "./mask-types.js";

/** The per-state tables of the states an automaton has built (ids 0 .. numStates - 1). */
export interface AutomatonTables {
  readonly start: number;
  readonly numStates: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  /** [state * numClasses + class]: next state, -1 dead, UNKNOWN not computed. */
  readonly trans: Int32Array;
  /** [state * 4 + utf8 position]: plain-text characters the state survives. */
  readonly plainBudget: Int32Array;
  readonly dist: Int32Array;
  readonly forced: Int16Array;
  readonly accepting: Uint8Array;
  /** 1 when some byte can follow the state. */
  readonly continues: Uint8Array;
  /** Whether the grammar has distinct arrays, and each state's DISTINCT_* mark. */
  readonly hasDistinct: boolean;
  readonly distinct: Uint8Array;
}

/** A copy of the tables of the states `automaton` has built so far. */
export function snapshotTables(automaton: MaskAutomaton): AutomatonTables {
  const n = automaton.numStates;
  const dist = new Int32Array(n);
  const forced = new Int16Array(n);
  const accepting = new Uint8Array(n);
  const continues = new Uint8Array(n);
  const distinct = new Uint8Array(n);
  for (let s = 0; s < n; s++) {
    dist[s] = automaton.distToAccept(s);
    forced[s] = automaton.forcedByte(s);
    accepting[s] = automaton.isAccepting(s) ? 1 : 0;
    continues[s] = automaton.canContinue(s) ? 1 : 0;
    distinct[s] = automaton.distinctMark(s);
  }
  const tables: AutomatonTables = {
    start: automaton.start,
    numStates: n,
    classOf: automaton.classOf.slice(),
    numClasses: automaton.numClasses,
    trans: automaton.transitions(),
    plainBudget: automaton.plainBudget.slice(0, n * 4),
    dist,
    forced,
    accepting,
    continues,
    hasDistinct: automaton.hasDistinct,
    distinct,
  };
  creationSteps(tables); // fails now, not at load, if some state cannot be replayed
  return tables;
}

/**
 * For each state but the start, a step (parent state, class) that leads to it from a state built
 * before it: replaying these in id order rebuilds the states with the same ids. Every state was
 * built by such a step, which the transition table records.
 */
export function creationSteps(tables: AutomatonTables): { parent: Int32Array; cls: Int32Array } {
  const { numStates: n, numClasses: nc, trans } = tables;
  const parent = new Int32Array(n).fill(-1);
  const cls = new Int32Array(n);
  for (let at = 0; at < n * nc; at++) {
    const target = trans[at]!;
    const from = Math.floor(at / nc);
    if (target > from && target < n && parent[target] === -1) {
      parent[target] = from;
      cls[target] = at - from * nc;
    }
  }
  for (let s = 0; s < n; s++) {
    if (s !== tables.start && parent[s] === -1) throw new GrammarFileError("source", `state ${s} has no step that built it (the automaton stopped at its state limit); it cannot be serialized`);
  }
  return { parent, cls };
}

export class RestoredAutomaton implements MaskAutomaton {
  readonly start: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  readonly transShift: number;
  /** The loaded transitions as pages (views of tables.trans). */
  private readonly loadedPages: readonly Int32Array[];
  private live: GrammarAutomaton | undefined;

  constructor(
    private readonly tables: AutomatonTables,
    /** Builds the automaton of the grammar's source afresh (called at most once). */
    private readonly rebuild: () => GrammarAutomaton,
  ) {
    this.start = tables.start;
    this.classOf = tables.classOf;
    this.numClasses = tables.numClasses;
    this.loadedPages = pagesOf(tables.trans, tables.numClasses);
    this.transShift = pageShiftFor(tables.numClasses);
  }

  get transPages(): readonly Int32Array[] {
    return this.live ? this.live.transPages : this.loadedPages;
  }

  get plainBudget(): Int32Array {
    return this.live ? this.live.plainBudget : this.tables.plainBudget;
  }

  get numStates(): number {
    return this.live ? this.live.numStates : this.tables.numStates;
  }

  transitions(): Int32Array {
    return this.live ? this.live.transitions() : this.tables.trans.slice();
  }

  /** True once a document went past the loaded states and the automaton was rebuilt. */
  get rebuilt(): boolean {
    return this.live !== undefined;
  }

  step(state: number, byte: number): number {
    if (this.live) return this.live.step(state, byte);
    const cls = this.classOf[byte]!;
    const t = this.tables.trans[state * this.numClasses + cls]!;
    return t === UNKNOWN ? this.stepClass(state, cls) : t;
  }

  stepClass(state: number, cls: number): number {
    if (!this.live) {
      const t = this.tables.trans[state * this.numClasses + cls]!;
      if (t !== UNKNOWN) return t;
    }
    return this.materialize().stepClass(state, cls);
  }

  canStepClass(state: number, cls: number): boolean {
    if (!this.live) {
      const t = this.tables.trans[state * this.numClasses + cls]!;
      if (t !== UNKNOWN) return t >= 0;
    }
    return this.materialize().canStepClass(state, cls);
  }

  isAccepting(state: number): boolean {
    return this.live ? this.live.isAccepting(state) : this.tables.accepting[state] === 1;
  }

  distToAccept(state: number): number {
    return this.live ? this.live.distToAccept(state) : this.tables.dist[state]!;
  }

  forcedByte(state: number): number {
    return this.live ? this.live.forcedByte(state) : this.tables.forced[state]!;
  }

  canContinue(state: number): boolean {
    return this.live ? this.live.canContinue(state) : this.tables.continues[state] === 1;
  }

  get hasDistinct(): boolean {
    return this.tables.hasDistinct;
  }

  distinctMark(state: number): DistinctMark {
    return this.live ? this.live.distinctMark(state) : (this.tables.distinct[state] as DistinctMark);
  }

  memoryBytes(): number {
    if (this.live) return this.live.memoryBytes();
    const t = this.tables;
    return t.trans.byteLength + t.plainBudget.byteLength + t.dist.byteLength + t.forced.byteLength + t.accepting.byteLength + t.continues.byteLength + t.distinct.byteLength;
  }

  private materialize(): GrammarAutomaton {
    if (this.live) return this.live;
    const tables = this.tables;
    const live = this.rebuild();
    const sameClasses = live.numClasses === tables.numClasses && live.classOf.every((c, b) => c === tables.classOf[b]);
    if (!sameClasses || live.start !== tables.start) throw mismatch("its byte classes");
    if (live.hasDistinct !== tables.hasDistinct) throw mismatch("its distinct arrays");
    const { parent, cls } = creationSteps(tables);
    for (let s = 0; s < tables.numStates; s++) {
      if (s !== tables.start && live.stepClass(parent[s]!, cls[s]!) !== s) throw mismatch(`state ${s}'s place`);
      if (!describesAlike(live, tables, s)) throw mismatch(`state ${s}`);
    }
    // Transitions the loaded states had that the replay did not take.
    const nc = tables.numClasses;
    for (let at = 0; at < tables.trans.length; at++) {
      const t = tables.trans[at]!;
      if (t !== UNKNOWN) live.learn(Math.floor(at / nc), at % nc, t);
    }
    this.live = live;
    return live;
  }
}

function describesAlike(live: GrammarAutomaton, tables: AutomatonTables, s: number): boolean {
  if (live.isAccepting(s) !== (tables.accepting[s] === 1) || live.distToAccept(s) !== tables.dist[s] || live.forcedByte(s) !== tables.forced[s]) return false;
  if (live.canContinue(s) !== (tables.continues[s] === 1) || live.distinctMark(s) !== tables.distinct[s]) return false;
  for (let p = 0; p < 4; p++) if (live.plainBudget[s * 4 + p] !== tables.plainBudget[s * 4 + p]) return false;
  return true;
}

function mismatch(what: string): GrammarFileError {
  return new GrammarFileError("source", `the automaton rebuilt from the grammar's source differs from the loaded one at ${what}`);
}
