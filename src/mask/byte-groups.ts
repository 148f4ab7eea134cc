/**
 * A fixed partition of the 256 bytes into groups that character classes tend to take whole: the
 * digits, the upper and the lower ASCII letters, each other printable ASCII byte alone, the
 * control bytes, the UTF-8 continuation bytes and the bytes above them. The trie's subtrees are
 * summarized by the groups their bytes fall in (subtree-groups.ts) and a state's runs by the
 * groups it reads whole (uniform-runs.ts): few enough groups that the trie's subtrees share a
 * few hundred distinct summaries, fine enough that `[A-Za-z0-9_-]` or a URI's bytes are unions
 * of groups.
 */

/** Groups of the partition; a set of groups is two 32-bit words (bit g of word g >> 5). */
export const NUM_BYTE_GROUPS = 39;

/** byte -> its group. */
export const BYTE_GROUP: Uint8Array = makeGroups();

/** group -> its lowest byte (one byte to ask about a group before asking about all of them). */
export const GROUP_FIRST_BYTE: Uint8Array = (() => {
  const first = new Uint8Array(NUM_BYTE_GROUPS);
  for (let b = 255; b >= 0; b--) first[BYTE_GROUP[b]!] = b;
  return first;
})();

/** The groups a uniform run (uniform-runs.ts) may read: printable ASCII but the quote and the
 *  backslash. Runs are string contents, where a quote, a backslash, a control byte or a UTF-8
 *  byte each lead somewhere of their own (an end, an escape, an error, a character's middle):
 *  a subtree holding one is walked, and no state is described, nor its moves on them built. */
export const RUN_GROUPS: readonly [number, number] = groupsOf((b) => b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c);

/** The groups all of whose bytes pass `test`, as two words. */
function groupsOf(test: (b: number) => boolean): [number, number] {
  const whole = [0, 0];
  const some = [0, 0];
  for (let b = 0; b < 256; b++) {
    const g = BYTE_GROUP[b]!;
    const bit = 1 << (g & 31);
    if (test(b)) whole[g >> 5]! |= bit;
    else some[g >> 5]! |= bit;
  }
  return [whole[0]! & ~some[0]!, whole[1]! & ~some[1]!];
}

function makeGroups(): Uint8Array {
  const group = new Uint8Array(256);
  const [digits, upper, lower, control, continuation, high] = [0, 1, 2, 3, 4, 5];
  let next = 6;
  for (let b = 0; b < 256; b++) {
    if (b >= 0x30 && b <= 0x39) group[b] = digits;
    else if (b >= 0x41 && b <= 0x5a) group[b] = upper;
    else if (b >= 0x61 && b <= 0x7a) group[b] = lower;
    else if (b < 0x20 || b === 0x7f) group[b] = control;
    else if (b >= 0x80 && b <= 0xbf) group[b] = continuation;
    else if (b >= 0xc0) group[b] = high;
    else group[b] = next++;
  }
  if (next !== NUM_BYTE_GROUPS) throw new Error(`byte groups: ${next}, expected ${NUM_BYTE_GROUPS}`);
  return group;
}
