/**
 * The output decoded so far, up to its last whole character: a token can end inside a UTF-8
 * sequence (byte-level vocabularies split CJK characters), and a partial must not show the
 * replacement character for the half that has arrived.
 */
const decoder = new TextDecoder();

export function wholeCharacters(bytes: Uint8Array): string {
  let end = bytes.length;
  // Find the lead byte of the last sequence (at most 3 bytes back) and cut it if it is short.
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (length > back) end = bytes.length - back;
    break;
  }
  return decoder.decode(bytes.subarray(0, end));
}
