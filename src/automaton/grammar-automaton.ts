/**
 * The automaton the mask engine walks: a deterministic byte automaton whose states are built on
 * demand from the per-rule automata (rule-automata.ts) and a call stack.
 *
 * A configuration is a stack of frames (rule, state, depth left); frames are interned, so a stack
 * is one frame id whose parent chain is the rest. A state of this automaton is the set of
 * configurations the text so far can be in (usually one): its kernel is what bytes reached, its
 * closure adds what calls (push the callee, remember the return state) and returns (an accepting
 * rule state pops to the caller) reach without reading. Stepping a byte moves every closure
 * configuration whose top rule state has that byte, and the resulting kernel is interned. Since
 * the rule analysis removed every move that cannot complete within the depth left, every state
 * built can still finish the document: the automaton is trimmed by construction.
 *
 * Transitions are memoized in a table that grows as states appear (transition-pages.ts; UNKNOWN
 * until first used), so only the states a document (or a mask computation) visits are ever built. The number of states
 * is bounded by `maxStates`; going past it is AUTOMATON_TOO_LARGE, never unbounded memory.
 */
import { PocketExtractError } from "../errors.js";
import { RuleAnalysis, type RuleSet } from "./rules/index.js";
import { grow, IntList, IntSetTable, IntSlices, MANY_BYTES, NO_BYTE, UNREACHABLE, type RuleTables } from "./fsa/index.js";
import { DISTINCT_ALL, DISTINCT_NONE, DISTINCT_SOME, type DistinctMark } from "./distinct-mark.js";
import { Frames, NO_FRAME } from "./frames.js";
import { TransitionPages, UNKNOWN } from "./transition-pages.js";

/** Transition entry of a move canStepClass found without building its state: like UNKNOWN (below
 *  -1: not computed) for stepping, alive for a trie leaf. */
const LEAF_ALIVE = -3;

/** True when rule state `state` accepts and has no move, byte or call (a rule's final state). */
function ends(tables: RuleTables, state: number, firstCall: number, calls: number): boolean {
  if (tables.dist(state) !== 0 || tables.singleByte(state) !== NO_BYTE) return false;
  for (let i = 0; i < calls; i++) if (tables.next(state, firstCall + i) >= 0) return false;
  return true;
}

/** The grammar classes of a rule's byte column col: classes[start[col] .. start[col + 1]). */
interface ColumnClasses {
  readonly start: Int32Array;
  readonly classes: Int32Array;
}

/** States with at least this many configurations get their row of live and dead classes filled
 *  when built (see markLiveClasses); smaller ones are asked class by class. */
const ROW_SCAN_MIN_FRAMES = 8;

/**
 * The byte-level automaton of a whole grammar: a stack of rule automata stepped one byte at a time,
 * with analysis for forced bytes and shortest completions.
 */
export class GrammarAutomaton {
  readonly start: number;
  /** byte -> class: the coarsest partition refining every rule's byte classes, or the identity
   *  when rules are built on demand (their classes are not known up front). */
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  /** Next state of s on class c (transition-pages.ts): a state, -1 dead, below -1 not computed
   *  (see step). Pages are added as states are built; the array holding them stays the same. */
  private readonly table: TransitionPages;
  /** plainBudget[s * 4 + p]: plain-text characters state s provably survives at UTF-8 position p
   *  (rule-analysis.ts). Replaced when it grows: re-read it after any call that may build states. */
  plainBudget: Int32Array;

  private readonly analysis: RuleAnalysis;
  /** A byte of each class (what a rule's own class of it is read from). */
  private readonly classByte: Uint8Array;
  private readonly frames: Frames;
  private count = 0;
  private accepting = new Uint8Array(64);
  private dist = new Int32Array(64);
  private forced = new Int16Array(64);
  /** Per state: DISTINCT_* of its kernel (all DISTINCT_NONE without distinct arrays). */
  private distinctMarks = new Uint8Array(64);
  /** Per state (slice id = state id): its closure's frames. */
  private readonly closures = new IntSlices();
  /** States whose kernel has more than one frame, by kernel. */
  private readonly byKernel = new IntSetTable();
  /** The state whose kernel is this one frame alone, + 1 (0: none yet): most states are one
   *  configuration, found without building a key. */
  private stateOfFrame = new Int32Array(64);
  /** closure()'s scratch: frames seen (== closureStamp) in the closure being built, its output and stack. */
  private closureSeen = new Int32Array(64);
  private closureStamp = 0;
  private readonly closureOut = new IntList();
  private readonly closureStack = new IntList();
  private readonly kernelScratch = new IntList();
  /** Per rule id: the grammar classes of each byte column of the rule (see columnsOf). */
  private readonly classesOfColumn: (ColumnClasses | undefined)[] = [];

  constructor(
    private readonly rules: RuleSet,
    private readonly maxStates: number,
  ) {
    this.analysis = new RuleAnalysis(rules);
    this.frames = new Frames();
    // Fewer classes mean fewer transitions to compute and narrower tables.
    const { classOf, numClasses } = rules.byteClasses();
    this.classOf = classOf;
    this.numClasses = numClasses;
    this.classByte = new Uint8Array(numClasses);
    for (let b = 255; b >= 0; b--) this.classByte[classOf[b]!] = b;
    this.table = new TransitionPages(numClasses);
    this.plainBudget = new Int32Array(64 * 4);
    const root = rules.root;
    this.kernelScratch.push(this.frames.intern(NO_FRAME, root, rules.dfa(root).start, rules.maxDepth, this.analysis));
    this.start = this.intern(this.kernelScratch);
  }

  /** The transition table's pages: state s's row is page s >> transShift, at (s & low bits) *
   *  numClasses (what the mask walk reads directly). */
  get transPages(): readonly Int32Array[] {
    return this.table.pages;
  }

  get transShift(): number {
    return this.table.shift;
  }

  /** Rows 0 .. numStates - 1 of the transition table, flat ([s * numClasses + c]), with moves
   *  known alive but not built as UNKNOWN (a copy, for serializing). */
  transitions(): Int32Array {
    const flat = this.table.flat(this.count);
    for (let at = 0; at < flat.length; at++) if (flat[at]! < UNKNOWN) flat[at] = UNKNOWN;
    return flat;
  }

  /** Sets a transition found elsewhere (a loaded grammar's) where none is known yet. */
  learn(state: number, cls: number, next: number): void {
    if (this.table.get(state, cls) < -1) this.table.set(state, cls, next);
  }

  /** States built so far (they are built on demand). */
  get numStates(): number {
    return this.count;
  }

  /** Rules built so far with an automaton of their own: the root, called rules and strings (an
   *  inlined rule lives in its callers'). */
  get ruleCount(): number {
    return this.rules.builtRules().length;
  }

  /** Total states of the rule automata built so far (computed strings: their nominal size). */
  get ruleStates(): number {
    return this.rules.builtRules().reduce((n, d) => n + d.numStates, 0);
  }

  /** Next state after `byte`, or -1 (dead). */
  step(state: number, byte: number): number {
    const cls = this.classOf[byte]!;
    const t = this.table.get(state, cls);
    return t < -1 ? this.stepClass(state, cls) : t;
  }

  /** Computes (and memoizes) the transition of `state` on class `cls`. */
  stepClass(state: number, cls: number): number {
    const known = this.table.get(state, cls);
    if (known >= -1) return known;
    const { frames, analysis } = this;
    // Scratch: intern reads the kernel and keeps none of it (closure copies what it keeps).
    const kernel = this.kernelScratch;
    kernel.clear();
    const { closures } = this;
    const closure = closures.page(state);
    for (let i = closures.start(state), end = closures.end(state); i < end; i++) {
      const f = closure[i]!;
      const t = this.frameNext(f, cls);
      if (t >= 0) kernel.push(frames.intern(frames.parent[f]!, frames.rule[f]!, t, frames.depth[f]!, analysis));
    }
    const next = kernel.length === 0 ? -1 : this.intern(kernel);
    this.table.set(state, cls, next);
    return next;
  }

  /** Whether class `cls` can follow `state`, without building the state it leads to (for trie
   *  leaves, whose next state nothing reads). */
  canStepClass(state: number, cls: number): boolean {
    const known = this.table.get(state, cls);
    if (known >= -1) return known >= 0;
    if (known === LEAF_ALIVE) return true;
    // A trie walk asks this for every leaf: sibling leaves share a class, and other states'
    // walks reach the same (state, class). A death is final (the same -1 stepClass would
    // store); a move is only marked, since building its state is what this avoids.
    const { closures } = this;
    const closure = closures.page(state);
    for (let i = closures.start(state), end = closures.end(state); i < end; i++) {
      if (this.frameNext(closure[i]!, cls) >= 0) {
        this.table.set(state, cls, LEAF_ALIVE);
        return true;
      }
    }
    this.table.set(state, cls, -1);
    return false;
  }

  /** The rule state frame `f`'s top moves to on class `cls`, or -1. */
  private frameNext(f: number, cls: number): number {
    const { frames } = this;
    const rule = frames.rule[f]!;
    return this.analysis.of(rule, frames.depth[f]!).next(frames.state[f]!, this.rules.dfa(rule).classOf[this.classByte[cls]!]!);
  }

  /** True when the document may end in `state`. */
  isAccepting(state: number): boolean {
    return this.accepting[state] === 1;
  }

  /** Fewest bytes that complete the document from `state`. */
  distToAccept(state: number): number {
    return this.dist[state]!;
  }

  /** The only byte `state` can read next when it cannot end the document either, else -1. */
  forcedByte(state: number): number {
    return this.forced[state]!;
  }

  /** Where `state` is relative to the distinct arrays (distinct-mark.ts). */
  distinctMark(state: number): DistinctMark {
    return this.distinctMarks[state] as DistinctMark;
  }

  /** True when the grammar has distinct arrays (their marks are worth reading). */
  get hasDistinct(): boolean {
    return this.rules.hasDistinct;
  }

  /** True when some byte can follow `state`. */
  canContinue(state: number): boolean {
    const { closures } = this;
    const closure = closures.page(state);
    for (let i = closures.start(state), end = closures.end(state); i < end; i++) {
      const f = closure[i]!;
      const table = this.analysis.of(this.frames.rule[f]!, this.frames.depth[f]!);
      if (table.singleByte(this.frames.state[f]!) !== NO_BYTE) return true;
    }
    return false;
  }

  /** Bytes held by the states built so far (tables, closures and frames; not the rule automata). */
  memoryBytes(): number {
    const perState = this.accepting.byteLength + this.dist.byteLength + this.forced.byteLength + this.distinctMarks.byteLength;
    return this.table.byteLength() + this.plainBudget.byteLength + perState + this.closures.memoryBytes() + this.frames.memoryBytes() + this.stateOfFrame.byteLength + this.byKernel.memoryBytes();
  }

  /** The state of `kernel` (scratch: sorted and deduplicated here, which makes it canonical). */
  private intern(kernel: IntList): number {
    kernel.sortUnique();
    const single = kernel.length === 1 ? kernel.at(0) : -1;
    if (single >= this.stateOfFrame.length) this.stateOfFrame = grow(this.stateOfFrame, Math.max(single + 1, this.stateOfFrame.length * 2));
    const known = single >= 0 ? this.stateOfFrame[single]! - 1 : this.byKernel.find(kernel);
    if (known >= 0) return known;
    // Before the state is numbered: if building a rule on the way throws, no state is left
    // without its closure.
    const closure = this.closure(kernel);
    const id = this.count++;
    if (id >= this.maxStates) {
      throw new PocketExtractError(
        "AUTOMATON_TOO_LARGE",
        `the grammar automaton needs more than ${this.maxStates} states (maxStates); simplify the schema or raise the limit`,
      );
    }
    this.ensureCapacity(id + 1);
    if (single >= 0) this.stateOfFrame[single] = id + 1;
    else this.byKernel.add(kernel, id);
    if (this.rules.hasDistinct) this.distinctMarks[id] = this.markOf(kernel);
    this.closures.add(closure);
    this.describe(id, closure);
    if (closure.length >= ROW_SCAN_MIN_FRAMES) this.markLiveClasses(id, closure);
    return id;
  }

  /** How many of the kernel's configurations are inside a distinct array (distinct-mark.ts). */
  private markOf(kernel: IntList): DistinctMark {
    const { frames, rules } = this;
    let inside = 0;
    for (let i = 0; i < kernel.length; i++) {
      const f = kernel.at(i);
      const rule = frames.rule[f]!;
      const parent = frames.parent[f]!;
      // The array's rule itself until its closing bracket (its only state at distance 0), or
      // anything it called: its items never nest further.
      if (rules.distinct(rule) ? this.analysis.of(rule, frames.depth[f]!).dist(frames.state[f]!) > 0 : parent !== NO_FRAME && rules.distinct(frames.rule[parent]!)) inside++;
    }
    return inside === 0 ? DISTINCT_NONE : inside === kernel.length ? DISTINCT_ALL : DISTINCT_SOME;
  }

  /** The kernel plus everything calls and returns reach without reading a byte (in scratch,
   *  valid until the next closure). */
  private closure(kernel: IntList): IntList {
    const { frames, analysis, rules } = this;
    // Scratch reused across states (closure never re-enters itself): building a state is on the
    // first document's path, and allocation there is what brings garbage-collection pauses.
    const out = this.closureOut;
    const stack = this.closureStack;
    out.clear();
    stack.clear();
    for (let i = 0; i < kernel.length; i++) stack.push(kernel.at(i));
    const stamp = ++this.closureStamp;
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (f >= this.closureSeen.length) this.closureSeen = grow(this.closureSeen, Math.max(f + 1, this.closureSeen.length * 2));
      if (this.closureSeen[f] === stamp) continue;
      this.closureSeen[f] = stamp;
      out.push(f);
      const rule = frames.rule[f]!;
      const state = frames.state[f]!;
      const depth = frames.depth[f]!;
      const dfa = rules.dfa(rule);
      const callees = dfa.callees;
      if (callees !== undefined) {
        const tables = analysis.of(rule, depth);
        const first = dfa.numClasses - callees.length;
        for (let i = 0; i < callees.length; i++) {
          const ret = tables.next(state, first + i);
          if (ret < 0) continue;
          const callee = callees[i]!;
          // A call in tail position (its return state can only end the rule) returns straight
          // to the caller's caller, as the return frame would at once: a chain of optional
          // members (each rule calling the next last) is then one frame per member instead of
          // two, and its frames are the same wherever the chain is entered from.
          const caller = ends(tables, ret, first, callees.length) ? frames.parent[f]! : frames.intern(frames.parent[f]!, rule, ret, depth, analysis);
          stack.push(frames.intern(caller, callee, rules.dfa(callee).start, analysis.calleeDepth(rule, callee, depth), analysis));
        }
      }
      // A rule state at distance 0 from the rule's end accepts: the caller may continue.
      if (frames.parent[f] !== NO_FRAME && analysis.of(rule, depth).dist(state) === 0) stack.push(frames.parent[f]!);
    }
    return out;
  }

  /**
   * Fills the row of a state with many configurations (a value followed by a long chain of
   * optional members has one per member): dead for every class no configuration moves on, and
   * LEAF_ALIVE for the others. Asked class by class, each of a mask walk's dead classes and trie
   * leaves went through every configuration; a configuration's own moves are a few columns of
   * its rule, so one pass over those answers every class.
   */
  private markLiveClasses(id: number, closure: IntList): void {
    const { frames, analysis, table } = this;
    for (let c = 0; c < this.numClasses; c++) table.set(id, c, -1);
    for (let i = 0; i < closure.length; i++) {
      const f = closure.at(i);
      const rule = frames.rule[f]!;
      const state = frames.state[f]!;
      const tables = analysis.of(rule, frames.depth[f]!);
      const { start, classes } = this.columnsOf(rule);
      for (let col = 0; col + 1 < start.length; col++) {
        if (tables.next(state, col) < 0) continue;
        for (let j = start[col]!; j < start[col + 1]!; j++) table.set(id, classes[j]!, LEAF_ALIVE);
      }
    }
  }

  /** Rule `rule`'s byte columns with the grammar classes whose bytes each reads. */
  private columnsOf(rule: number): ColumnClasses {
    let columns = this.classesOfColumn[rule];
    if (columns === undefined) {
      const dfa = this.rules.dfa(rule);
      const columnOf = (c: number): number => dfa.classOf[this.classByte[c]!]!;
      // Grammar classes grouped by column (a counting sort).
      const start = new Int32Array(dfa.numClasses - (dfa.callees?.length ?? 0) + 1);
      for (let c = 0; c < this.numClasses; c++) start[columnOf(c) + 1]!++;
      for (let col = 1; col < start.length; col++) start[col]! += start[col - 1]!;
      const classes = new Int32Array(this.numClasses);
      const fill = start.slice(0, -1);
      for (let c = 0; c < this.numClasses; c++) classes[fill[columnOf(c)]!++] = c;
      columns = this.classesOfColumn[rule] = { start, classes };
    }
    return columns;
  }

  private describe(id: number, closure: IntList): void {
    const { frames, analysis } = this;
    let accepting = 0;
    let dist = UNREACHABLE;
    let forced: number = NO_BYTE;
    for (let p = 0; p < 4; p++) this.plainBudget[id * 4 + p] = -1;
    for (let i = 0; i < closure.length; i++) {
      const f = closure.at(i);
      const rule = frames.rule[f]!;
      const state = frames.state[f]!;
      const table = analysis.of(rule, frames.depth[f]!);
      if (frames.parent[f] === NO_FRAME && table.dist(state) === 0) accepting = 1;
      dist = Math.min(dist, frames.dist[f]!);
      for (let p = 0; p < 4; p++) this.plainBudget[id * 4 + p] = Math.max(this.plainBudget[id * 4 + p]!, table.plainBudget(state, p));
      const single = table.singleByte(state);
      if (single === NO_BYTE) continue;
      forced = forced === NO_BYTE || forced === single ? single : MANY_BYTES;
    }
    this.accepting[id] = accepting;
    this.dist[id] = dist;
    this.forced[id] = accepting || forced < 0 ? -1 : forced;
  }

  private ensureCapacity(n: number): void {
    // A page at a time: the table is most of the memory a state takes.
    this.table.ensureRows(n);
    if (n <= this.accepting.length) return;
    const size = Math.max(n, this.accepting.length * 2);
    this.plainBudget = grow(this.plainBudget, size * 4);
    this.accepting = grow(this.accepting, size);
    this.dist = grow(this.dist, size);
    this.forced = grow(this.forced, size);
    this.distinctMarks = grow(this.distinctMarks, size);
  }
}
