/**
 * Interning of state pairs (a, b) -> dense ids for product constructions. Uses a flat typed
 * array when the pair space is small enough (the common case: a content DFA times a counter),
 * a Map otherwise.
 */
const FLAT_LIMIT = 1 << 22;

export class PairIndex {
  private readonly flat: Int32Array | null;
  private readonly map = new Map<number, number>();

  /** a ranges over [0, sizeA), b over [0, sizeB). */
  constructor(
    sizeA: number,
    private readonly sizeB: number,
  ) {
    this.flat = sizeA * sizeB <= FLAT_LIMIT ? new Int32Array(sizeA * sizeB).fill(-1) : null;
  }

  get(a: number, b: number): number {
    const key = a * this.sizeB + b;
    return this.flat !== null ? this.flat[key]! : (this.map.get(key) ?? -1);
  }

  set(a: number, b: number, id: number): void {
    const key = a * this.sizeB + b;
    if (this.flat !== null) this.flat[key] = id;
    else this.map.set(key, id);
  }
}
