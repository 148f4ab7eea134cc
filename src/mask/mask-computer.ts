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
 */
import { setBit, setRange, wordsFor } from "../util/index.js";
import type { MaskAutomaton, VocabIndex } from "./mask-types.js";
import { plainStep } from "./plain-tails.js";
import type { AnnotatedTrie } from "./trie-annotations.js";

/** A state that survives fewer plain characters than any token spells cannot be a plain loop
 *  (a loop survives any number): the loop check is not even tried (trie-annotations.ts CAP). */
const LOOP_MIN_BUDGET = 0x7fff;

export interface MaskComputerOptions {
  /** Take the plain-loop shortcut (default true; tests turn it off to compare). */
  readonly plainLoops?: boolean;
}

export class MaskComputer {
  private readonly orderBits: Uint32Array;
  private readonly stateAtDepth: Int32Array;
  /** loop[p]: the plain loop's state at UTF-8 position p (plainLoop's result). */
  private readonly loop = new Int32Array(4);
  private readonly plainLoops: boolean;
  /** Trie nodes visited by the last computation (for benchmarks and tests). */
  lastVisited = 0;

  constructor(
    private readonly automaton: MaskAutomaton,
    private readonly index: VocabIndex,
    options: MaskComputerOptions = {},
  ) {
    this.orderBits = new Uint32Array(wordsFor(index.trie.numTokens));
    this.stateAtDepth = new Int32Array(index.trie.maxDepth + 1);
    this.plainLoops = options.plainLoops ?? true;
  }

  /** Writes the mask of `state` (id order, eos bits included) into `out`, which must be zeroed. */
  compute(state: number, out: Uint32Array): void {
    if (this.plainLoops && this.plainLoop(state)) this.computeLoop(out);
    else this.computeWalk(state, out);
    if (this.automaton.isAccepting(state)) for (const id of this.index.eosIds) setBit(out, id);
  }

  private computeWalk(state: number, out: Uint32Array): void {
    const { trie, textMask } = this.index;
    const accepted = this.walk(state, this.index);
    const order = trie.order;
    // Convert trie order to id order by iterating whichever of set/clear bits is rarer (bits
    // past numTokens are never set, so only the clear bits' last word needs trimming).
    const bits = this.orderBits;
    const words = wordsFor(trie.numTokens);
    if (accepted * 2 > trie.numTokens) {
      out.set(textMask);
      const tail = trie.numTokens & 31;
      for (let w = 0; w < words; w++) {
        let v = ~bits[w]!;
        if (w === words - 1 && tail !== 0) v &= ~0 >>> (32 - tail);
        while (v !== 0) {
          const low = v & -v;
          const id = order[(w << 5) + 31 - Math.clz32(low)]!;
          out[id >>> 5]! &= ~(1 << (id & 31));
          v ^= low;
        }
      }
    } else {
      setAccepted(bits, words, order, out);
    }
  }

  /** The plain-text tokens, then each tail trie walked from the loop's state at its position. */
  private computeLoop(out: Uint32Array): void {
    const { plainMask, tails } = this.index.plainTails;
    out.set(plainMask);
    let visited = 0;
    for (let p = 0; p < 4; p++) {
      const tail = tails[p]!;
      if (tail.trie.numTokens === 0) continue;
      this.walk(this.loop[p]!, tail);
      visited += this.lastVisited;
      setAccepted(this.orderBits, wordsFor(tail.trie.numTokens), tail.trie.order, out);
    }
    this.lastVisited = visited;
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

  /** Fills `orderBits` with the accepted trie-order positions of `at`'s trie from `state`;
   *  returns how many. */
  private walk(state: number, at: AnnotatedTrie): number {
    const { trie, skipChars, utf8Pos } = at;
    const bits = this.orderBits;
    bits.fill(0, 0, wordsFor(trie.numTokens));
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
            setRange(bits, tokenStart[node]!, tokenStart[node + 1]!);
            accepted += tokenStart[node + 1]! - tokenStart[node]!;
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
        setRange(bits, tokenStart[node]!, tokenStart[end]!);
        accepted += tokenStart[end]! - tokenStart[node]!;
        node = end;
        continue;
      }
      if (tokenStart[node + 1]! > tokenStart[node]!) {
        setRange(bits, tokenStart[node]!, tokenStart[node + 1]!);
        accepted += tokenStart[node + 1]! - tokenStart[node]!;
      }
      stateAtDepth[depth[node]!] = t;
      node++;
    }
    this.lastVisited = visited;
    return accepted;
  }
}

/** Sets in `out` (id order) the ids `order[i]` of the set bits i of `bits` (its first `words`). */
function setAccepted(bits: Uint32Array, words: number, order: Int32Array, out: Uint32Array): void {
  for (let w = 0; w < words; w++) {
    let v = bits[w]!;
    while (v !== 0) {
      const low = v & -v;
      const id = order[(w << 5) + 31 - Math.clz32(low)]!;
      out[id >>> 5]! |= 1 << (id & 31);
      v ^= low;
    }
  }
}
