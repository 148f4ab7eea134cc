/**
 * Byte classes seen as byte sets: how many bytes each holds and its first byte, to tell the only
 * byte a state moves on (what jump-forward and forced tokens read).
 */
import { MANY_BYTES, NO_BYTE } from "./rule-tables.js";

export class ClassBytes {
  private readonly size: Int32Array;
  private readonly first: Int16Array;

  /** `byteClasses`: the classes bytes map to (call columns, after them, are not bytes). */
  constructor(
    classOf: Uint8Array,
    private readonly byteClasses: number,
  ) {
    this.size = new Int32Array(byteClasses);
    this.first = new Int16Array(byteClasses);
    for (let b = 255; b >= 0; b--) {
      this.size[classOf[b]!]!++;
      this.first[classOf[b]!] = b;
    }
  }

  /** The only byte on which `next` (class -> next state or -1) moves, NO_BYTE or MANY_BYTES. */
  singleByte(next: (cls: number) => number): number {
    let live = 0;
    let byte: number = NO_BYTE;
    for (let c = 0; c < this.byteClasses && live <= 1; c++) {
      if (next(c) >= 0) {
        live += this.size[c]!;
        byte = this.first[c]!;
      }
    }
    return live > 1 ? MANY_BYTES : byte;
  }
}
