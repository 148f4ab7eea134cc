/**
 * Ids of int sets by content (a subset construction's subsets, a grammar automaton's kernels):
 * open addressing over the kept sets, at most half full. A set is looked up on every move
 * computed into it; a joined-string key per lookup was garbage on the first document's path.
 */
import type { IntList } from "./int-list.js";

export class IntSetTable {
  /** Entry index + 1 per slot, 0 when empty. */
  private slots = new Int32Array(64);
  private readonly sets: Int32Array[] = [];
  private ids = new Int32Array(32);
  private hashes = new Int32Array(32);

  /** The id `set` was added with, or -1. */
  find(set: IntList): number {
    const mask = this.slots.length - 1;
    for (let at = hashOf(set) & mask; this.slots[at] !== 0; at = (at + 1) & mask) {
      const entry = this.slots[at]! - 1;
      if (equal(this.sets[entry]!, set)) return this.ids[entry]!;
    }
    return -1;
  }

  /** Adds `set` (not in the table) with `id`; `kept` is a copy of it the table may hold. */
  add(set: IntList, kept: Int32Array, id: number): void {
    const entry = this.sets.length;
    if (entry === this.ids.length) {
      this.ids = grown(this.ids);
      this.hashes = grown(this.hashes);
    }
    this.sets.push(kept);
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
    return this.sets.reduce((n, set) => n + set.byteLength, 0) + this.slots.byteLength + this.ids.byteLength + this.hashes.byteLength;
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

function equal(kept: Int32Array, set: IntList): boolean {
  if (kept.length !== set.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== set.at(i)) return false;
  return true;
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}
