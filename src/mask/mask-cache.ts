/**
 * A TokenGrammar's per-state mask cache, bounded in bytes and in entries. Most states allow a few
 * tokens (a key, a number, punctuation) or every text token but a few (inside a free string), so a
 * mask is kept as the words where it differs from a base, all zeros or the text mask, whenever that
 * takes at most a quarter of the dense width/8 bytes; only the rest is kept densely (in rows reused
 * as masks are dropped, dense-rows.ts). Filling an output from a kept mask is one block copy plus
 * one write per kept word. Entries are indexed by state id (states are small dense integers): no
 * hashing on the per-token path. Past either bound, the least recently used entries go until a
 * quarter of the room is free again.
 */
import { DenseRows } from "./dense-rows.js";

/** The words where a mask differs from all zeros (`overText` false) or from the text mask, in
 *  any order, each once: words[0 .. count). */
export interface ChangedWords {
  readonly overText: boolean;
  readonly words: Int32Array;
  readonly count: number;
}

/** How a kept mask is stored (per state). */
const ABSENT = 0;
const DENSE = 1;
/** [word index, word, word index, word, ...] over all zeros. */
const OVER_ZERO = 2;
/** [word index, word, ...] over the text mask. */
const OVER_TEXT = 3;

export class MaskCache {
  /** Per state: its sparse pairs, or its dense row's view. */
  private data: (Uint32Array | undefined)[] = [];
  /** Per state kept densely: its row in `dense`. */
  private rowOf = new Int32Array(64);
  private readonly dense: DenseRows;
  private kind = new Uint8Array(64);
  private used = new Float64Array(64);
  private clock = 0;
  private bytes = 0;
  private count = 0;
  /** Entries kept densely (their bytes are in `bytes` as well as in the rows). */
  private denseCount = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    private readonly textMask: Uint32Array,
    /** Most masks kept. */
    private readonly maxEntries: number,
    /** Most bytes of mask data kept. */
    private readonly maxBytes: number,
  ) {
    this.dense = new DenseRows(textMask.length);
  }

  get size(): number {
    return this.count;
  }

  get hits(): number {
    return this.hitCount;
  }

  get misses(): number {
    return this.missCount;
  }

  /** Writes the kept mask of `state` into `out` and returns true, or returns false (counted as a miss). */
  write(state: number, out: Uint32Array): boolean {
    const kind = state < this.kind.length ? this.kind[state]! : ABSENT;
    if (kind === ABSENT) {
      this.missCount++;
      return false;
    }
    this.hitCount++;
    this.used[state] = ++this.clock;
    this.fill(state, out);
    return true;
  }

  /** Writes the kept mask of `state` (present) into `out`. */
  private fill(state: number, out: Uint32Array): void {
    const data = this.data[state]!;
    if (this.kind[state] === DENSE) {
      out.set(data);
      return;
    }
    if (this.kind[state] === OVER_ZERO) out.fill(0);
    else out.set(this.textMask);
    for (let i = 0; i < data.length; i += 2) out[data[i]!] = data[i + 1]!;
  }

  /** Keeps a copy of `mask` (dense, width/32 words) as the mask of `state`. `changed`, when the
   *  caller knows where the mask differs from a base, spares a pass over the whole mask. */
  set(state: number, mask: Uint32Array, changed?: ChangedWords): void {
    if (changed !== undefined) {
      // Over the base the caller chose, the one nearer the mask (mask-computer.ts: the text mask
      // when it accepts most text tokens): if it differs from that base in many words, it does
      // from the other as well, and is kept densely without a pass to count them.
      if (!isSparse(changed.count, mask.length)) {
        this.keepDense(state, mask);
        return;
      }
      const data = new Uint32Array(changed.count * 2);
      for (let i = 0; i < changed.count; i++) {
        const w = changed.words[i]!;
        data[2 * i] = w;
        data[2 * i + 1] = mask[w]!;
      }
      this.keep(state, changed.overText ? OVER_TEXT : OVER_ZERO, data);
      return;
    }
    const text = this.textMask;
    let overZero = 0;
    let overText = 0;
    for (let w = 0; w < mask.length; w++) {
      const v = mask[w]!;
      if (v !== 0) overZero++;
      if (v !== text[w]) overText++;
    }
    const sparse = Math.min(overZero, overText);
    if (!isSparse(sparse, mask.length)) {
      this.keepDense(state, mask);
      return;
    }
    const kind = overZero <= overText ? OVER_ZERO : OVER_TEXT;
    const data = new Uint32Array(sparse * 2);
    let at = 0;
    for (let w = 0; w < mask.length; w++) {
      const v = mask[w]!;
      if (kind === OVER_ZERO ? v !== 0 : v !== text[w]) {
        data[at++] = w;
        data[at++] = v;
      }
    }
    this.keep(state, kind, data);
  }

  private keepDense(state: number, mask: Uint32Array): void {
    this.ensureCapacity(state + 1);
    if (this.kind[state] !== ABSENT) this.drop(state);
    // Room first, so that the rows of the masks dropped for it are reused, not added to.
    if (this.count >= this.maxEntries || this.bytes + mask.byteLength > this.maxBytes) this.evict(mask.byteLength);
    const row = this.dense.add(mask);
    this.rowOf[state] = row;
    this.keep(state, DENSE, this.dense.view(row));
  }

  private keep(state: number, kind: number, data: Uint32Array): void {
    this.ensureCapacity(state + 1);
    if (this.kind[state] !== ABSENT) this.drop(state);
    this.kind[state] = kind;
    this.data[state] = data;
    if (kind === DENSE) this.denseCount++;
    this.used[state] = ++this.clock;
    this.bytes += data.byteLength;
    this.count++;
    if (this.count > this.maxEntries || this.bytes > this.maxBytes) this.evict();
  }

  /** The `limit` kept masks used most recently, most recent first, as [state, dense mask] (new
   *  arrays, made only for those; what a serialized grammar keeps warm). Does not count as use. */
  entries(limit = Infinity): Array<[number, Uint32Array]> {
    const states: number[] = [];
    for (let s = 0; s < this.kind.length; s++) if (this.kind[s] !== ABSENT) states.push(s);
    states.sort((a, b) => this.used[b]! - this.used[a]!);
    return states.slice(0, limit).map((state) => {
      const out = new Uint32Array(this.textMask.length);
      this.fill(state, out);
      return [state, out];
    });
  }

  /** Bytes held: kept masks (dense rows, free ones too) and the per-state tables. */
  memoryBytes(): number {
    const sparseBytes = this.bytes - this.denseCount * this.textMask.byteLength;
    return sparseBytes + this.dense.byteLength + this.kind.byteLength + this.used.byteLength + this.rowOf.byteLength + this.data.length * 8;
  }

  private drop(state: number): void {
    if (this.kind[state] === DENSE) {
      this.dense.release(this.rowOf[state]!);
      this.denseCount--;
    }
    this.bytes -= this.data[state]!.byteLength;
    this.count--;
    this.data[state] = undefined;
    this.kind[state] = ABSENT;
  }

  /** Drops the least recently used masks until both bounds have a quarter of their room free,
   *  counting a mask of `incoming` bytes about to be kept. */
  private evict(incoming = 0): void {
    const kept: number[] = [];
    for (let s = 0; s < this.kind.length; s++) if (this.kind[s] !== ABSENT) kept.push(s);
    kept.sort((a, b) => this.used[a]! - this.used[b]!);
    const newcomers = incoming > 0 ? 1 : 0;
    const entries = Math.floor((this.maxEntries * 3) / 4) - newcomers;
    const bytes = Math.floor((this.maxBytes * 3) / 4) - incoming;
    for (const s of kept) {
      if (this.count <= entries && this.bytes <= bytes) break;
      this.drop(s);
    }
  }

  private ensureCapacity(n: number): void {
    if (n <= this.kind.length) return;
    const size = Math.max(n, this.kind.length * 2);
    const kind = new Uint8Array(size);
    kind.set(this.kind);
    this.kind = kind;
    const used = new Float64Array(size);
    used.set(this.used);
    this.used = used;
    const rowOf = new Int32Array(size);
    rowOf.set(this.rowOf);
    this.rowOf = rowOf;
  }
}

/** Whether `differing` words (two stored words each) take at most a quarter of the dense size. */
function isSparse(differing: number, words: number): boolean {
  return differing * 2 * 4 <= words;
}
