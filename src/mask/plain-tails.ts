/**
 * What the mask of a "plain loop" state needs of the vocabulary, made once per vocabulary. A
 * plain loop state (a free string body) comes back to itself after every plain-text character
 * (plain-text.ts), through one state per UTF-8 position inside a character, so:
 *  - every token made only of plain text is allowed: one precomputed mask (`plainMask`);
 *  - any other token reads plain text up to its first other byte (a quote, a backslash, a
 *    control byte, a lead byte walked byte by byte) and lands in the loop's state for the UTF-8
 *    position there; only the rest, its tail, depends on the state. Tails are kept in tries of
 *    their own, one per position, and walked from that position's state.
 * Walking the tails visits a few hundred nodes where the vocabulary trie has thousands on the
 * paths to those bytes, and builds no states for the plain text before them.
 */
import { plainLeadPending } from "../automaton/index.js";
import { TokenTrie } from "../tokens/index.js";
import { hasBit, setBit, wordsFor } from "../util/index.js";
import { subtreeGroups } from "./subtree-groups.js";
import { annotateTrie, type AnnotatedTrie } from "./trie-annotations.js";

export interface PlainTails {
  /** Id order: the tokens whose bytes are all plain text from a character boundary. */
  readonly plainMask: Uint32Array;
  /** tails[p]: the other tokens' bytes from their first non-plain byte, where it comes at UTF-8
   *  position p (continuation bytes still due); `order` holds token ids. */
  readonly tails: readonly AnnotatedTrie[];
  readonly memoryBytes: number;
}

/** What makePlainTails reads of the vocabulary index being built. */
export interface TokenBytes {
  readonly width: number;
  readonly byteOffsets: Uint32Array;
  readonly byteData: Uint8Array;
  /** The ids with text bytes (the tokens of the vocabulary trie). */
  readonly textMask: Uint32Array;
}

/** Splits the vocabulary's text tokens into all-plain ones and tails (vocab-index.ts makes this
 *  once per vocabulary). */
export function makePlainTails({ byteOffsets, byteData, width, textMask }: TokenBytes): PlainTails {
  const plainMask = new Uint32Array(wordsFor(width));
  const tailIds: number[][] = [[], [], [], []];
  const tailBytes: Uint8Array[][] = [[], [], [], []];
  for (let id = 0; id < width; id++) {
    if (!hasBit(textMask, id)) continue;
    const start = byteOffsets[id]!;
    const end = byteOffsets[id + 1]!;
    let pos = 0;
    let at = start;
    for (; at < end; at++) {
      const next = plainStep(pos, byteData[at]!);
      if (next < 0) break;
      pos = next;
    }
    if (at === end) {
      setBit(plainMask, id);
      continue;
    }
    tailIds[pos]!.push(id);
    tailBytes[pos]!.push(byteData.subarray(at, end));
  }
  const tails = tailIds.map((ids, p) => {
    const trie = TokenTrie.of(ids.length, (i) => tailBytes[p]![i], Int32Array.from(ids));
    return { trie, ...annotateTrie(trie), subtrees: subtreeGroups(trie) };
  });
  let memoryBytes = plainMask.byteLength;
  for (const t of tails) memoryBytes += t.trie.memoryBytes + t.utf8Pos.byteLength + t.skipChars.byteLength + t.subtrees.memoryBytes;
  return { plainMask, tails, memoryBytes };
}

/** The UTF-8 position after plain byte `b` read at position `pos`, or -1 when `b` is not plain
 *  text there (plain-text.ts; the same steps the loop check in mask-computer.ts verifies). */
export function plainStep(pos: number, b: number): number {
  if (pos === 0) return plainLeadPending(b);
  return b >= 0x80 && b <= 0xbf ? pos - 1 : -1;
}
