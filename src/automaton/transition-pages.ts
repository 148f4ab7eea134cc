/**
 * The grammar automaton's transition table, row per state, kept in pages of 2^shift rows instead
 * of one flat array. A flat table grows by copying itself into a fresh one twice its size, which
 * puts the first touch of the whole new array into the one token whose state crossed the size:
 * 190 ms at 32K states x 121 classes on the benchmark machine (fresh memory costs ~10 ms/MB
 * there). Pages are added and never copied, and each is small enough to come from reused heap
 * memory. Readers on the hot path index the pages themselves:
 * `pages[s >> shift][(s & (2^shift - 1)) * numClasses + c]`.
 */

/** Transition entry not computed yet; -1 is dead. */
export const UNKNOWN = -2;

/** Largest page, in entries (64 KiB of Int32). */
const PAGE_ENTRIES = 1 << 14;
/** Rows the first page starts with (it doubles up to a full page: most grammars stay small). */
const FIRST_ROWS = 64;

/** log2 of the rows per page for `numClasses` columns: the most rows that fit in a page. */
export function pageShiftFor(numClasses: number): number {
  return Math.max(0, Math.floor(Math.log2(PAGE_ENTRIES / numClasses)));
}

export class TransitionPages {
  /** Grows in place (new pages are appended, the first page may be replaced by a larger one):
   *  a reader holding this array sees every page. */
  readonly pages: Int32Array[];
  readonly shift: number;
  private readonly low: number;
  private rows: number;

  constructor(readonly numClasses: number) {
    this.shift = pageShiftFor(numClasses);
    this.low = (1 << this.shift) - 1;
    this.rows = Math.min(FIRST_ROWS, 1 << this.shift);
    this.pages = [new Int32Array(this.rows * numClasses).fill(UNKNOWN)];
  }

  /** Rows that exist (states that may be read or written). */
  get capacity(): number {
    return this.rows;
  }

  get(state: number, cls: number): number {
    return this.pages[state >> this.shift]![(state & this.low) * this.numClasses + cls]!;
  }

  set(state: number, cls: number, next: number): void {
    this.pages[state >> this.shift]![(state & this.low) * this.numClasses + cls] = next;
  }

  /** Makes rows 0 .. n - 1 exist, new ones all UNKNOWN. */
  ensureRows(n: number): void {
    const full = 1 << this.shift;
    while (this.rows < n) {
      if (this.rows < full) {
        // Only the first page grows by copying, and only up to one page.
        const rows = Math.min(full, this.rows * 2);
        const first = new Int32Array(rows * this.numClasses);
        first.set(this.pages[0]!);
        first.fill(UNKNOWN, this.pages[0]!.length);
        this.pages[0] = first;
        this.rows = rows;
      } else {
        this.pages.push(new Int32Array(full * this.numClasses).fill(UNKNOWN));
        this.rows += full;
      }
    }
  }

  /** Rows 0 .. n - 1 as one flat array ([state * numClasses + class]), a copy. */
  flat(n: number): Int32Array {
    const out = new Int32Array(n * this.numClasses);
    const perPage = (1 << this.shift) * this.numClasses;
    for (let p = 0; p * perPage < out.length; p++) out.set(this.pages[p]!.subarray(0, Math.min(perPage, out.length - p * perPage)), p * perPage);
    return out;
  }

  byteLength(): number {
    return this.pages.reduce((n, page) => n + page.byteLength, 0);
  }
}

/** A flat table ([state * numClasses + class]) seen as pages for `numClasses` columns, without
 *  copying (each page a view of it). */
export function pagesOf(flat: Int32Array, numClasses: number): Int32Array[] {
  const perPage = (1 << pageShiftFor(numClasses)) * numClasses;
  const pages: Int32Array[] = [];
  for (let at = 0; at < flat.length; at += perPage) pages.push(flat.subarray(at, Math.min(flat.length, at + perPage)));
  return pages.length > 0 ? pages : [flat];
}
