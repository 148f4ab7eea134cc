/**
 * "Plain text": the bytes a JSON string body takes without escaping, in well-formed UTF-8. Both
 * sides of the subtree skip agree on this definition: the trie annotations (which subtrees are
 * plain) and the state analysis (which states survive plain text).
 */

/** Bytes that are always fine inside a JSON string body, at a character boundary. */
function isPlainAscii(b: number): boolean {
  return b >= 0x20 && b < 0x80 && b !== 0x22 && b !== 0x5c;
}

/**
 * UTF-8 position after a lead byte: how many continuation bytes it announces, or -1 when the
 * byte cannot start a character. Lead bytes whose second byte is range-restricted (E0, ED, F0,
 * F4) are not "plain": they are walked byte by byte, never skipped.
 */
export function plainLeadPending(b: number): number {
  if (isPlainAscii(b)) return 0;
  if (b >= 0xc2 && b <= 0xdf) return 1;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return 2;
  if (b >= 0xf1 && b <= 0xf3) return 3;
  return -1;
}
