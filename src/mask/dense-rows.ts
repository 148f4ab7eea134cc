/**
 * Rows of one width in a few chunks of memory, reused once freed: the mask cache keeps a dense
 * mask by copying it into a free row, where a copy of its own (an 8 KB array for a 64K
 * vocabulary) cost more than the copy itself, and brought garbage-collection work onto the
 * first document's tokens. Chunks grow geometrically up to MAX_CHUNK_ROWS rows and are never
 * moved, so a row's view stays valid until it is freed.
 */

const FIRST_CHUNK_ROWS = 4;
const MAX_CHUNK_ROWS = 64;

export class DenseRows {
  /** rows[r]: row r's view into its chunk. */
  private readonly rows: Uint32Array[] = [];
  private readonly free: number[] = [];
  private bytes = 0;

  constructor(private readonly width: number) {}

  /** Copies `values` (width words) into a free row; returns the row. */
  add(values: Uint32Array): number {
    if (this.free.length === 0) this.addChunk();
    const row = this.free.pop()!;
    this.rows[row]!.set(values);
    return row;
  }

  /** The row's words (valid until it is freed). */
  view(row: number): Uint32Array {
    return this.rows[row]!;
  }

  /** Makes `row` free for reuse. */
  release(row: number): void {
    this.free.push(row);
  }

  /** Bytes of all chunks, rows in use or free. */
  get byteLength(): number {
    return this.bytes;
  }

  private addChunk(): void {
    const count = Math.min(MAX_CHUNK_ROWS, Math.max(FIRST_CHUNK_ROWS, this.rows.length));
    const chunk = new Uint32Array(count * this.width);
    this.bytes += chunk.byteLength;
    // Pushed last first, so rows are handed out in order.
    for (let i = 0; i < count; i++) this.rows.push(chunk.subarray(i * this.width, (i + 1) * this.width));
    for (let r = this.rows.length - 1; r >= this.rows.length - count; r--) this.free.push(r);
  }
}
