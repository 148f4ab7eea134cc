/**
 * GPT-2 byte-level BPE alphabet: the fixed bijection between the 256 byte values and 256
 * printable code points that byte-level tokenizers (GPT-2, Qwen, MNN-Pocket) use to spell token
 * strings. Used to recover each token's exact bytes. Not a tokenizer: no merges, no pre-tokenizing.
 */

/** Code point standing for each byte value (index = byte). */
const BYTE_TO_CODE_POINT: readonly number[] = (() => {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const table = new Array<number>(256);
  let next = 256;
  for (let b = 0; b < 256; b++) table[b] = printable(b) ? b : next++;
  return table;
})();

/** Reverse table: code point -> byte (code points used are all < 324). */
const CODE_POINT_TO_BYTE: Int16Array = (() => {
  const table = new Int16Array(324).fill(-1);
  BYTE_TO_CODE_POINT.forEach((cp, b) => {
    table[cp] = b;
  });
  return table;
})();

/**
 * Exact bytes of a byte-level token string, or undefined when it contains a character outside
 * the byte-level alphabet (the token is then not a byte-level token).
 */
export function byteLevelToBytes(piece: string): Uint8Array | undefined {
  const out = new Uint8Array(piece.length);
  for (let i = 0; i < piece.length; i++) {
    const cp = piece.charCodeAt(i);
    const b = CODE_POINT_TO_BYTE[cp] ?? -1;
    if (b < 0) return undefined;
    out[i] = b;
  }
  return out;
}

/** Byte-level spelling of a byte string (inverse of `byteLevelToBytes`). */
export function bytesToByteLevel(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(BYTE_TO_CODE_POINT[b]!);
  return s;
}
