/**
 * Computes the token mask of one automaton state by walking the token trie: each trie edge is one
 * automaton step, dead subtrees are skipped, and subtrees of plain text are accepted whole when the
 * state provably survives them (the automaton's `plainBudget` vs vocab-index `skipChars`). The walk
 * visits each trie node at most once, so a mask costs at most O(trie size) whatever the grammar:
 * that is the per-step work bound. States the walk reaches for the first time are built on the
 * way (grammar-automaton.ts), which is the only slow path.
 */
import { UNKNOWN } from "../automaton/index.js";
import { setBit, setRange, wordsFor } from "../util/index.js";
import type { MaskAutomaton, VocabIndex } from "./mask-types.js";

export class MaskComputer {
  private readonly orderBits: Uint32Array;
  private readonly stateAtDepth: Int32Array;
  /** Trie nodes visited by the last computation (for benchmarks and tests). */
  lastVisited = 0;

  constructor(
    private readonly automaton: MaskAutomaton,
    private readonly index: VocabIndex,
  ) {
    this.orderBits = new Uint32Array(wordsFor(index.trie.numTokens));
    this.stateAtDepth = new Int32Array(index.trie.maxDepth + 1);
  }

  /** Writes the mask of `state` (id order, eos bits included) into `out`, which must be zeroed. */
  compute(state: number, out: Uint32Array): void {
    const accepted = this.walk(state);
    const { trie, textMask } = this.index;
    const order = trie.order;
    // Convert trie order to id order by iterating whichever of set/clear bits is rarer (bits
    // past numTokens are never set, so only the clear bits' last word needs trimming).
    const bits = this.orderBits;
    const words = bits.length;
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
    if (this.automaton.isAccepting(state)) for (const id of this.index.eosIds) setBit(out, id);
  }

  /** Fills `orderBits` with the accepted trie-order positions; returns how many. */
  private walk(state: number): number {
    const bits = this.orderBits;
    bits.fill(0);
    const { trie, skipChars, utf8Pos } = this.index;
    // A node's own tokens end where the next node's start, its subtree's where the node after the
    // subtree starts (trie.ts).
    const { byte, depth, subtreeEnd, tokenStart, numNodes } = trie;
    const automaton = this.automaton;
    const { classOf, numClasses } = automaton;
    let { trans, plainBudget: budget } = automaton;
    const stateAtDepth = this.stateAtDepth;
    stateAtDepth[0] = state;
    let accepted = 0;
    let visited = 0;
    let node = 1;
    while (node < numNodes) {
      visited++;
      const from = stateAtDepth[depth[node]! - 1]!;
      const cls = classOf[byte[node]!]!;
      let t = trans[from * numClasses + cls]!;
      if (t === UNKNOWN) {
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
        ({ trans, plainBudget: budget } = automaton);
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
