/**
 * Per trie node, what the uniform-run shortcut of the mask walk (mask-computer.ts) needs to know
 * of the bytes below the node: the byte groups (byte-groups.ts) of every byte on a path below it,
 * as an id into a table of distinct group sets (a few hundred for a 64K vocabulary, so an id fits
 * two bytes where the set would take eight), and its height, the most bytes on a path below it.
 */
import type { TokenTrie } from "../tokens/index.js";
import { BYTE_GROUP } from "./byte-groups.js";

/** Heights are kept up to this; a taller subtree reads as this tall (never shortcut). */
export const MAX_SUBTREE_HEIGHT = 255;

export interface SubtreeGroups {
  /** Per node: the id of the set of groups below it. */
  readonly groupsBelow: Uint16Array;
  /** Per set id: the set as two words (groups 0-31, 32-63). */
  readonly groupSets: Uint32Array;
  /** Per node: bytes on its longest path below it (0 for a leaf), at most MAX_SUBTREE_HEIGHT. */
  readonly height: Uint8Array;
  readonly memoryBytes: number;
}

/** Bottom-up over the preorder numbering (children are numbered after their parent). */
export function subtreeGroups(trie: TokenTrie): SubtreeGroups {
  const n = trie.numNodes;
  const { byte, subtreeEnd } = trie;
  const low = new Uint32Array(n);
  const high = new Uint32Array(n);
  const height = new Uint8Array(n);
  for (let node = n - 1; node >= 0; node--) {
    let lo = 0;
    let hi = 0;
    let h = 0;
    for (let child = node + 1; child < subtreeEnd[node]!; child = subtreeEnd[child]!) {
      const g = BYTE_GROUP[byte[child]!]!;
      if (g < 32) lo |= 1 << g;
      else hi |= 1 << (g - 32);
      lo |= low[child]!;
      hi |= high[child]!;
      h = Math.max(h, Math.min(MAX_SUBTREE_HEIGHT, height[child]! + 1));
    }
    low[node] = lo;
    high[node] = hi;
    height[node] = h;
  }
  // Id 0 is every group: what a node gets if some vocabulary had more distinct sets than ids
  // (no state reads every group alike, so such a node is walked as before).
  const ids = new Map<number, number>();
  const sets: number[] = [0xffffffff, 0xffffffff];
  const groupsBelow = new Uint16Array(n);
  for (let node = 0; node < n; node++) {
    // Groups 32 and up are few (byte-groups.ts): the pair packs into one exact number key.
    const key = high[node]! * 2 ** 32 + low[node]!;
    let id = ids.get(key);
    if (id === undefined && sets.length / 2 <= 0xffff) {
      id = sets.length / 2;
      ids.set(key, id);
      sets.push(low[node]!, high[node]!);
    }
    groupsBelow[node] = id ?? 0;
  }
  const groupSets = Uint32Array.from(sets);
  return { groupsBelow, groupSets, height, memoryBytes: groupsBelow.byteLength + groupSets.byteLength + height.byteLength };
}
