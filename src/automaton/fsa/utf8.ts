/**
 * UTF-8 for automata: splitting a code point range into byte-range sequences (the classic
 * utf8-ranges construction) and encoding single code points. Strict UTF-8 only: surrogates
 * (U+D800..U+DFFF) are never produced and every sequence is the shortest form, so an automaton
 * built from these sequences rejects overlong and surrogate encodings by construction.
 * Not for decoding or validating byte strings.
 */

const SURROGATE_LO = 0xd800;
const SURROGATE_HI = 0xdfff;

/** One byte range per position: a sequence [[lo0,hi0],[lo1,hi1],...] matches lo_i <= b_i <= hi_i. */
export type ByteRangeSeq = readonly (readonly [number, number])[];

/** UTF-8 bytes of one scalar value (caller guarantees it is not a surrogate). */
export function encodeCodePoint(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** UTF-8 bytes of a JS string's code points. */
export function encodeText(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(...encodeCodePoint(ch.codePointAt(0)!));
  return out;
}

/** Largest scalar value encodable in n bytes. */
const MAX_BY_LENGTH = [0x7f, 0x7ff, 0xffff];

/**
 * Byte-range sequences that together match exactly the UTF-8 encodings of the scalar values in
 * [lo, hi] (surrogates removed). The sequences are pairwise disjoint.
 */
export function utf8Sequences(lo: number, hi: number): ByteRangeSeq[] {
  const out: ByteRangeSeq[] = [];
  const stack: [number, number][] = [];
  // Remove surrogates first: they have no UTF-8 encoding.
  if (lo <= SURROGATE_HI && hi >= SURROGATE_LO) {
    if (hi > SURROGATE_HI) stack.push([SURROGATE_HI + 1, hi]);
    if (lo < SURROGATE_LO) stack.push([lo, SURROGATE_LO - 1]);
  } else if (lo <= hi) {
    stack.push([lo, hi]);
  }
  while (stack.length > 0) {
    let [s, e] = stack.pop()!;
    for (;;) {
      // Split where the encoded length changes.
      let split = false;
      for (const max of MAX_BY_LENGTH) {
        if (s <= max && max < e) {
          stack.push([max + 1, e]);
          e = max;
          split = true;
          break;
        }
      }
      if (split) continue;
      if (e <= 0x7f) {
        out.push([[s, e]]);
        break;
      }
      // Split until every continuation position spans a full or aligned sub-range.
      for (let i = 1; i < 4 && !split; i++) {
        const m = (1 << (6 * i)) - 1;
        if ((s & ~m) !== (e & ~m)) {
          if ((s & m) !== 0) {
            stack.push([(s | m) + 1, e]);
            e = s | m;
            split = true;
          } else if ((e & m) !== m) {
            stack.push([e & ~m, e]);
            e = (e & ~m) - 1;
            split = true;
          }
        }
      }
      if (split) continue;
      const a = encodeCodePoint(s);
      const b = encodeCodePoint(e);
      out.push(a.map((x, k) => [x, b[k]!] as const));
      break;
    }
  }
  return out;
}
