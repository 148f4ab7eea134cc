/**
 * A growable list of int32s for scratch that is emptied and refilled many times: `clear` keeps
 * the buffer. (Emptying a JS array with `length = 0` drops its backing store, so every refill
 * allocated again; on the first document's path, where states are built per token, that was
 * most of the garbage.)
 */
export class IntList {
  private data = new Int32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  pop(): number {
    return this.data[--this.length]!;
  }

  at(i: number): number {
    return this.data[i]!;
  }

  clear(): void {
    this.length = 0;
  }

  /** Sorts the items ascending and drops repeats, in place. */
  sortUnique(): void {
    const data = this.data;
    const n = this.length;
    if (n < 2) return;
    if (n <= 16) {
      // Insertion sort: kernels and closures are mostly a few items, and a view to sort costs
      // an allocation.
      for (let i = 1; i < n; i++) {
        const v = data[i]!;
        let j = i - 1;
        for (; j >= 0 && data[j]! > v; j--) data[j + 1] = data[j]!;
        data[j + 1] = v;
      }
    } else {
      data.subarray(0, n).sort();
    }
    let m = 1;
    for (let i = 1; i < n; i++) if (data[i] !== data[m - 1]) data[m++] = data[i]!;
    this.length = m;
  }

  /** The items, sharing this list's buffer (valid until the next push or clear). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  /** The items, as a new array. */
  copy(): Int32Array {
    return this.data.slice(0, this.length);
  }
}
