/**
 * Append-only int lists kept side by side in shared pages, instead of a typed array each (a
 * grammar automaton's closures, one per state: on the first document's path a typed array per
 * state was the largest share of the garbage, and each one over 64 bytes has its own off-heap
 * backing store). Pages are added and never copied; slice i is
 * `page(i)[start(i) .. end(i))`.
 */
import { grow } from "./grow.js";
import type { IntList } from "./int-list.js";

/** Size of the first page, in ints; each new page doubles it up to LARGEST_PAGE. */
const FIRST_PAGE = 256;
const LARGEST_PAGE = 1 << 14;

export class IntSlices {
  private readonly pages: Int32Array[] = [];
  /** Per slice: its page, and its bounds in that page. */
  private pageOf = new Int32Array(64);
  private startOf = new Int32Array(64);
  private endOf = new Int32Array(64);
  /** Ints used in the last page. */
  private used = 0;
  private count = 0;

  /** Slices added so far (ids 0 .. length - 1). */
  get length(): number {
    return this.count;
  }

  /** Adds a copy of `list`'s items; returns its id (the number of slices added before it). */
  add(list: IntList): number {
    const n = list.length;
    let last = this.pages.length - 1;
    if (last < 0 || this.used + n > this.pages[last]!.length) {
      const size = last < 0 ? FIRST_PAGE : Math.min(LARGEST_PAGE, this.pages[last]!.length * 2);
      this.pages.push(new Int32Array(Math.max(size, n)));
      this.used = 0;
      last++;
    }
    const page = this.pages[last]!;
    for (let i = 0; i < n; i++) page[this.used + i] = list.at(i);
    const id = this.count++;
    if (id === this.pageOf.length) {
      this.pageOf = grow(this.pageOf, id * 2);
      this.startOf = grow(this.startOf, id * 2);
      this.endOf = grow(this.endOf, id * 2);
    }
    this.pageOf[id] = last;
    this.startOf[id] = this.used;
    this.endOf[id] = this.used + n;
    this.used += n;
    return id;
  }

  /** The page holding slice `id`. */
  page(id: number): Int32Array {
    return this.pages[this.pageOf[id]!]!;
  }

  /** Where slice `id` starts in its page. */
  start(id: number): number {
    return this.startOf[id]!;
  }

  /** Where slice `id` ends in its page (exclusive). */
  end(id: number): number {
    return this.endOf[id]!;
  }

  /** Bytes held by the pages and the per-slice bounds. */
  memoryBytes(): number {
    let bytes = this.pageOf.byteLength + this.startOf.byteLength + this.endOf.byteLength;
    for (const page of this.pages) bytes += page.byteLength;
    return bytes;
  }
}
