/**
 * Interned stack frames of the grammar automaton (grammar-automaton.ts): (parent frame, rule,
 * rule state, depth left), each with the fewest bytes that complete the whole stack. Frames are
 * found by an open-addressing hash over the frame arrays themselves: interning runs on every new
 * automaton state of a first document, and a map per (parent, rule) kept thousands of small
 * objects alive, which is what the young-generation collections of a first document copy.
 */
import { grow, UNREACHABLE } from "./fsa/index.js";
import type { RuleAnalysis } from "./rules/index.js";

/** The parent of a bottom frame. */
export const NO_FRAME = -1;

export class Frames {
  parent = new Int32Array(64);
  rule = new Int32Array(64);
  state = new Int32Array(64);
  depth = new Int32Array(64);
  dist = new Int32Array(64);
  private count = 0;
  /** Hash slots: frame id + 1, 0 when empty; at most half full. */
  private slots = new Int32Array(128);

  get size(): number {
    return this.count;
  }

  intern(parent: number, rule: number, state: number, depth: number, analysis: RuleAnalysis): number {
    const mask = this.slots.length - 1;
    let at = hash(parent, rule, state, depth) & mask;
    for (let id = this.slots[at]! - 1; id >= 0; id = this.slots[at]! - 1) {
      if (this.parent[id] === parent && this.rule[id] === rule && this.state[id] === state && this.depth[id] === depth) return id;
      at = (at + 1) & mask;
    }
    const id = this.count++;
    if (id >= this.parent.length) {
      const size = this.parent.length * 2;
      this.parent = grow(this.parent, size);
      this.rule = grow(this.rule, size);
      this.state = grow(this.state, size);
      this.depth = grow(this.depth, size);
      this.dist = grow(this.dist, size);
    }
    this.parent[id] = parent;
    this.rule[id] = rule;
    this.state[id] = state;
    this.depth[id] = depth;
    const own = analysis.of(rule, depth).dist(state);
    this.dist[id] = parent === NO_FRAME ? own : Math.min(UNREACHABLE, own + this.dist[parent]!);
    this.slots[at] = id + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  memoryBytes(): number {
    return this.parent.byteLength * 5 + this.slots.byteLength;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let at = hash(this.parent[id]!, this.rule[id]!, this.state[id]!, this.depth[id]!) & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = id + 1;
    }
    this.slots = slots;
  }
}

function hash(parent: number, rule: number, state: number, depth: number): number {
  let h = Math.imul(parent + 1, 0x9e3779b1);
  h = Math.imul(h ^ rule, 0x85ebca6b);
  h = Math.imul(h ^ state, 0xc2b2ae35);
  h = Math.imul(h ^ depth, 0x27d4eb2f);
  return h ^ (h >>> 15);
}
