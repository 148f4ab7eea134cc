/**
 * Ids of int sets by content (a subset construction's subsets, a grammar automaton's kernels):
 * open addressing over the kept sets, at most half full. A set is looked up on every move
 * computed into it; a joined-string key per lookup was garbage on the first document's path, and
 * so was a typed array per kept set (they are kept side by side in pages instead).
 */
import { grow } from "./grow.js";
import type { IntList } from "./int-list.js";
import { IntSlices } from "./int-slices.js";

export class IntSetTable {
  /** Entry index + 1 per slot, 0 when empty. */
  private slots = new Int32Array(64);
  /** Entry e's set is slice e. */
  private readonly sets = new IntSlices();
  private ids = new Int32Array(32);
  private hashes = new Int32Array(32);

  /** The id `set` was added with, or -1. */
  find(set: IntList): number {
    const mask = this.slots.length - 1;
    for (let at = hashOf(set) & mask; this.slots[at] !== 0; at = (at + 1) & mask) {
      const entry = this.slots[at]! - 1;
      if (this.equal(entry, set)) return this.ids[entry]!;
    }
    return -1;
  }

  /** Adds a copy of `set` (not in the table) with `id`. */
  add(set: IntList, id: number): void {
    const entry = this.sets.add(set);
    if (entry === this.ids.length) {
      this.ids = grow(this.ids, entry * 2);
      this.hashes = grow(this.hashes, entry * 2);
    }
    this.ids[entry] = id;
    this.hashes[entry] = hashOf(set);
    if (this.sets.length * 2 > this.slots.length) this.slots = new Int32Array(this.slots.length * 2);
    else {
      this.place(entry);
      return;
    }
    for (let e = 0; e < this.sets.length; e++) this.place(e);
  }

  /** Bytes held by the kept sets and the table. */
  memoryBytes(): number {
    return this.sets.memoryBytes() + this.slots.byteLength + this.ids.byteLength + this.hashes.byteLength;
  }

  private equal(entry: number, set: IntList): boolean {
    const { sets } = this;
    const start = sets.start(entry);
    if (sets.end(entry) - start !== set.length) return false;
    const kept = sets.page(entry);
    for (let i = 0; i < set.length; i++) if (kept[start + i] !== set.at(i)) return false;
    return true;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let at = this.hashes[entry]! & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = entry + 1;
  }
}

function hashOf(set: IntList): number {
  let h = Math.imul(set.length, 0x9e3779b1);
  for (let i = 0; i < set.length; i++) h = Math.imul(h ^ set.at(i), 0x85ebca6b);
  return h ^ (h >>> 15);
}

