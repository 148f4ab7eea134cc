/**
 * Reusable temporary typed arrays. Allocating a fresh large typed array costs page faults and
 * GC pressure that dominated build time (trim and minimize need ~10 temporaries per call), so
 * each module keeps one pool and reuses its buffers across calls. Views are only valid until the
 * same slot is requested again; contents are not cleared. Buffers above RETAIN_LIMIT elements
 * are not kept, so a one-off huge build does not pin memory.
 */
const RETAIN_LIMIT = 1 << 20;

export class ScratchPool {
  private readonly buffers: Int32Array[] = [];

  /** An Int32Array view of `size` elements for `slot`, with unspecified contents. */
  int32(slot: number, size: number): Int32Array {
    const buf = this.buffers[slot];
    if (buf !== undefined && buf.length >= size) return buf.subarray(0, size);
    const fresh = new Int32Array(Math.max(size, 1024));
    if (size <= RETAIN_LIMIT) this.buffers[slot] = fresh;
    return fresh.subarray(0, size);
  }
}
