/**
 * Bitset helpers for token masks: bit i of word i >>> 5 set = token i allowed. Range fills are
 * word-wise because the trie walk accepts whole subtrees (contiguous trie-order ranges) at once.
 */

export function wordsFor(bits: number): number {
  return (bits + 31) >>> 5;
}

/** Set bits [from, to). */
export function setRange(bits: Uint32Array, from: number, to: number): void {
  if (from >= to) return;
  const fw = from >>> 5;
  const lw = (to - 1) >>> 5;
  const fmask = ~0 << (from & 31);
  const lmask = ~0 >>> (31 - ((to - 1) & 31));
  if (fw === lw) {
    bits[fw]! |= fmask & lmask;
    return;
  }
  bits[fw]! |= fmask;
  for (let w = fw + 1; w < lw; w++) bits[w] = 0xffffffff;
  bits[lw]! |= lmask;
}

export function hasBit(bits: Uint32Array, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}

export function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function popcount(bits: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) n += popcount32(bits[w]!);
  return n;
}

/** The k-th (0-based) set bit, or -1 when fewer than k + 1 bits are set. */
export function nthSetBit(bits: Uint32Array, k: number): number {
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]!;
    const count = popcount32(v);
    if (k >= count) {
      k -= count;
      continue;
    }
    for (; k > 0; k--) v &= v - 1;
    return (w << 5) + 31 - Math.clz32(v & -v);
  }
  return -1;
}

/** Calls `fn(i)` for every set bit (or, with `want = 0`, every clear bit) below `limit`. */
export function forEachBit(bits: Uint32Array, limit: number, want: 0 | 1, fn: (i: number) => void): void {
  const words = wordsFor(limit);
  for (let w = 0; w < words; w++) {
    let v = want ? bits[w]! : ~bits[w]!;
    if (w === words - 1 && (limit & 31) !== 0) v &= ~0 >>> (32 - (limit & 31));
    while (v !== 0) {
      const low = v & -v;
      fn((w << 5) + 31 - Math.clz32(low));
      v ^= low;
    }
  }
}
