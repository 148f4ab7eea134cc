/**
 * Computes the token mask of one automaton state by walking the token trie: each trie edge is one
 * automaton step, dead subtrees are skipped, and subtrees of plain text are accepted whole when the
 * state provably survives them (the automaton's `plainBudget` vs vocab-index `skipChars`). The walk
 * visits each trie node at most once, so a mask costs at most O(trie size) whatever the grammar:
 * that is the per-step work bound. States the walk reaches for the first time are built on the
 * way (grammar-automaton.ts), which is the only slow path.
 *
 * A state inside a free string body (a plain loop, plain-tails.ts) takes a shortcut with the same
 * result: the precomputed mask of all-plain tokens, plus walks of the other tokens' tails only.
 * Inside other strings (a counted class, a bounded string), a subtree whose bytes the state reads
 * as a uniform run (uniform-runs.ts) is accepted whole as well.
 */
import type { ChangedWords } from "./mask-cache.js";
import type { MaskAutomaton, VocabIndex } from "./mask-types.js";
import { plainStep } from "./plain-tails.js";
import type { AnnotatedTrie } from "./trie-annotations.js";
import { UniformRuns } from "./uniform-runs.js";

/** A state that survives fewer plain characters than any token spells cannot be a plain loop
 *  (a loop survives any number): the loop check is not even tried (trie-annotations.ts CAP). */
const LOOP_MIN_BUDGET = 0x7fff;
/** Subtrees smaller than this many nodes, or than this many nodes per byte of height, are
 *  walked: asking for a uniform run describes the state and each state down its chain (a step
 *  on every byte of the run), worth it only where it may spare more steps than that. */
const RUN_MIN_NODES = 8;
const RUN_MIN_NODES_PER_BYTE = 2;

export interface MaskComputerOptions {
  /** Take the plain-loop shortcut (default true; tests turn it off to compare). */
  readonly plainLoops?: boolean;
  /** Take the uniform-run shortcut (default true; tests turn it off to compare). */
  readonly uniformRuns?: boolean;
}

export class MaskComputer {
  /** The last walk's accepted trie-order ranges, [start, end) pairs in increasing order (the
   *  walk is in preorder), adjacent ones merged: converting them to ids costs one step per token
   *  converted, where a bitset in trie order cost a pass over every word of it. */
  private ranges = new Int32Array(256);
  /** Entries of `ranges` in use (two per range). */
  private rangesUsed = 0;
  private readonly stateAtDepth: Int32Array;
  /** loop[p]: the plain loop's state at UTF-8 position p (plainLoop's result). */
  private readonly loop = new Int32Array(4);
  private readonly plainLoops: boolean;
  /** Undefined when the uniform-run shortcut is off. */
  private readonly runs: UniformRuns | undefined;
  private readonly changedWords: Int32Array;
  private changedCount = 0;
  private changedOverText = false;
  /** Trie nodes visited by the last computation (for benchmarks and tests). */
  lastVisited = 0;

  constructor(
    private readonly automaton: MaskAutomaton,
    private readonly index: VocabIndex,
    options: MaskComputerOptions = {},
  ) {
    this.stateAtDepth = new Int32Array(index.trie.maxDepth + 1);
    this.plainLoops = options.plainLoops ?? true;
    this.runs = options.uniformRuns ?? true ? new UniformRuns(automaton) : undefined;
    this.changedWords = new Int32Array(index.maskWords);
  }

  /** Writes the mask of `state` (id order, eos bits included) into `out`, which must be zeroed. */
  compute(state: number, out: Uint32Array): void {
    if (this.plainLoops && this.plainLoop(state)) this.computeLoop(out);
    else this.computeWalk(state, out);
    if (this.automaton.isAccepting(state)) for (const id of this.index.eosIds) this.setId(out, id);
  }

  /** The words where the last computed mask differs from all zeros or from the text mask, as
   *  found while writing it (so caching it needs no pass over the whole mask); undefined when
   *  it was built over another base (a plain loop's). Valid until the next computation. */
  lastChanged(): ChangedWords | undefined {
    return this.changedCount < 0 ? undefined : { overText: this.changedOverText, words: this.changedWords, count: this.changedCount };
  }

  private computeWalk(state: number, out: Uint32Array): void {
    const { trie, textMask } = this.index;
    const accepted = this.walk(state, this.index);
    // Write whichever of the accepted and refused tokens are fewer: the accepted over all zeros,
    // or the refused (the gaps between accepted ranges) cleared from the text mask. A word is
    // noted as changed when its first bit changes: later changes keep it apart from its base.
    this.changedCount = 0;
    this.changedOverText = accepted * 2 > trie.numTokens;
    if (!this.changedOverText) {
      this.setAccepted(trie.order, out);
      return;
    }
    out.set(textMask);
    const { order } = trie;
    const { ranges, changedWords } = this;
    let n = 0;
    let from = 0;
    for (let r = 0; r <= this.rangesUsed; r += 2) {
      const to = r < this.rangesUsed ? ranges[r]! : trie.numTokens;
      for (let i = from; i < to; i++) {
        const id = order[i]!;
        const w = id >>> 5;
        const v = out[w]!;
        if (v === textMask[w]) changedWords[n++] = w;
        out[w] = v & ~(1 << (id & 31));
      }
      if (r < this.rangesUsed) from = ranges[r + 1]!;
    }
    this.changedCount = n;
  }

  /** Sets in `out` (id order) the ids `order[i]` of the accepted ranges, noting the words that
   *  were zero before as changed. */
  private setAccepted(order: Int32Array, out: Uint32Array): void {
    const { ranges, changedWords } = this;
    let n = this.changedCount;
    for (let r = 0; r < this.rangesUsed; r += 2) {
      for (let i = ranges[r]!, end = ranges[r + 1]!; i < end; i++) {
        const id = order[i]!;
        const w = id >>> 5;
        const v = out[w]!;
        if (v === 0) changedWords[n++] = w;
        out[w] = v | (1 << (id & 31));
      }
    }
    this.changedCount = n;
  }

  /** Sets bit `id` of `out`, noting its word as changed when it is the word's first change. */
  private setId(out: Uint32Array, id: number): void {
    const w = id >>> 5;
    const v = out[w]!;
    if (this.changedCount >= 0 && v === (this.changedOverText ? this.index.textMask[w]! : 0)) this.changedWords[this.changedCount++] = w;
    out[w] = v | (1 << (id & 31));
  }

  /** The plain-text tokens, then each tail trie walked from the loop's state at its position.
   *  The mask is over the plain mask, a base the cache does not know: no changed words. */
  private computeLoop(out: Uint32Array): void {
    const { plainMask, tails } = this.index.plainTails;
    out.set(plainMask);
    let visited = 0;
    this.changedCount = 0;
    for (let p = 0; p < 4; p++) {
      const tail = tails[p]!;
      if (tail.trie.numTokens === 0) continue;
      this.walk(this.loop[p]!, tail);
      visited += this.lastVisited;
      this.setAccepted(tail.trie.order, out);
    }
    this.lastVisited = visited;
    this.changedCount = -1;
  }

  /**
   * True when `state` is a plain loop: every plain byte (plainStep) read at UTF-8 position 0
   * leads to the same state for the position it leaves, and every continuation byte from that
   * state to the one for the position before, ending back at `state`. Then the state after any
   * plain text is loop[its position], which is all plain-tails.ts assumes. Fills `loop`.
   */
  private plainLoop(state: number): boolean {
    const automaton = this.automaton;
    if (automaton.plainBudget[state * 4]! < LOOP_MIN_BUDGET) return false;
    const loop = this.loop;
    loop.fill(-1);
    loop[0] = state;
    for (let b = 0; b < 256; b++) {
      const p = plainStep(0, b);
      if (p < 0) continue;
      const t = automaton.step(state, b);
      if (t < 0) return false;
      if (loop[p]! < 0) loop[p] = t;
      else if (loop[p] !== t) return false;
    }
    for (let p = 1; p < 4; p++) {
      for (let b = 0x80; b <= 0xbf; b++) if (automaton.step(loop[p]!, b) !== loop[p - 1]) return false;
    }
    return true;
  }

  /** Fills `ranges` with the accepted trie-order positions of `at`'s trie from `state`;
   *  returns how many. */
  private walk(state: number, at: AnnotatedTrie): number {
    const { trie, skipChars, utf8Pos } = at;
    const { groupsBelow, groupSets, height } = at.subtrees;
    const runs = this.runs;
    this.rangesUsed = 0;
    // A node's own tokens end where the next node's start, its subtree's where the node after the
    // subtree starts (trie.ts).
    const { byte, depth, subtreeEnd, tokenStart, numNodes } = trie;
    const automaton = this.automaton;
    const { classOf, numClasses } = automaton;
    const { transShift: shift } = automaton;
    const low = (1 << shift) - 1;
    let { transPages: pages, plainBudget: budget } = automaton;
    const stateAtDepth = this.stateAtDepth;
    stateAtDepth[0] = state;
    let accepted = 0;
    let visited = 0;
    let node = 1;
    while (node < numNodes) {
      visited++;
      const from = stateAtDepth[depth[node]! - 1]!;
      const cls = classOf[byte[node]!]!;
      let t = pages[from >> shift]![(from & low) * numClasses + cls]!;
      if (t < -1) {
        if (subtreeEnd[node] === node + 1) {
          // A leaf only needs to know whether its last byte is alive: no state is built for it.
          if (automaton.canStepClass(from, cls)) {
            accepted += this.acceptRange(tokenStart[node]!, tokenStart[node + 1]!);
          }
          node++;
          continue;
        }
        t = automaton.stepClass(from, cls);
        ({ transPages: pages, plainBudget: budget } = automaton);
      }
      if (t < 0) {
        node = subtreeEnd[node]!;
        continue;
      }
      const chars = skipChars[node]!;
      if (chars >= 0 && chars <= budget[t * 4 + utf8Pos[node]!]!) {
        const end = subtreeEnd[node]!;
        accepted += this.acceptRange(tokenStart[node]!, tokenStart[end]!);
        node = end;
        continue;
      }
      const size = subtreeEnd[node]! - node;
      if (runs !== undefined && size >= RUN_MIN_NODES && size >= RUN_MIN_NODES_PER_BYTE * height[node]!) {
        const set = groupsBelow[node]! * 2;
        const covered = runs.covers(t, groupSets[set]!, groupSets[set + 1]!, height[node]!);
        ({ transPages: pages, plainBudget: budget } = automaton);
        if (covered) {
          const end = subtreeEnd[node]!;
          accepted += this.acceptRange(tokenStart[node]!, tokenStart[end]!);
          node = end;
          continue;
        }
      }
      if (tokenStart[node + 1]! > tokenStart[node]!) accepted += this.acceptRange(tokenStart[node]!, tokenStart[node + 1]!);
      stateAtDepth[depth[node]!] = t;
      node++;
    }
    this.lastVisited = visited;
    return accepted;
  }

  /** Adds trie-order positions [start, end) (after every range so far) to `ranges`; returns how
   *  many. */
  private acceptRange(start: number, end: number): number {
    const n = this.rangesUsed;
    if (n > 0 && this.ranges[n - 1] === start) {
      this.ranges[n - 1] = end;
    } else {
      if (n === this.ranges.length) {
        const grown = new Int32Array(n * 2);
        grown.set(this.ranges);
        this.ranges = grown;
      }
      this.ranges[n] = start;
      this.ranges[n + 1] = end;
      this.rangesUsed = n + 2;
    }
    return end - start;
  }
}
