/**
 * Per-node UTF-8 annotations of a token trie (what lets the mask walk accept whole subtrees of
 * plain text, see mask-types.ts `utf8Pos` and `skipChars`), for the vocabulary's trie and the
 * tail tries of plain-tails.ts alike, beside the byte groups below each node (subtree-groups.ts).
 */
import { plainLeadPending } from "../automaton/index.js";
import type { TokenTrie } from "../tokens/index.js";
import type { SubtreeGroups } from "./subtree-groups.js";

/** The annotations the mask walk reads beside a trie. */
export interface AnnotatedTrie {
  readonly trie: TokenTrie;
  readonly utf8Pos: Int8Array;
  readonly skipChars: Int16Array;
  readonly subtrees: SubtreeGroups;
}

const UNSAFE = -1;
const CAP = 0x7fff;

/**
 * Bottom-up over the preorder numbering: plain[p][n] = the most characters started by any path
 * below n read from UTF-8 position p, or UNSAFE if some path leaves "plain text".
 */
export function annotateTrie(trie: TokenTrie): { utf8Pos: Int8Array; skipChars: Int16Array } {
  const n = trie.numNodes;
  const { byte, subtreeEnd } = trie;
  const plain: [Int16Array, Int16Array, Int16Array, Int16Array] = [new Int16Array(n), new Int16Array(n), new Int16Array(n), new Int16Array(n)];
  for (let node = n - 1; node >= 0; node--) {
    let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (let child = node + 1; child < subtreeEnd[node]!; child = subtreeEnd[child]!) {
      const b = byte[child]!;
      // From a character boundary.
      if (c0 !== UNSAFE) {
        const pending = plainLeadPending(b);
        const below = pending < 0 ? UNSAFE : plain[pending]![child]!;
        c0 = below === UNSAFE ? UNSAFE : Math.max(c0, Math.min(CAP, below + 1));
      }
      // Inside a character: only a continuation byte keeps the path plain.
      const isCont = b >= 0x80 && b <= 0xbf;
      c1 = c1 === UNSAFE || !isCont || plain[0][child] === UNSAFE ? UNSAFE : Math.max(c1, plain[0][child]!);
      c2 = c2 === UNSAFE || !isCont || plain[1][child] === UNSAFE ? UNSAFE : Math.max(c2, plain[1][child]!);
      c3 = c3 === UNSAFE || !isCont || plain[2][child] === UNSAFE ? UNSAFE : Math.max(c3, plain[2][child]!);
    }
    plain[0][node] = c0;
    plain[1][node] = c1;
    plain[2][node] = c2;
    plain[3][node] = c3;
  }

  const utf8Pos = new Int8Array(n);
  const skipChars = new Int16Array(n);
  utf8Pos[0] = 0;
  skipChars[0] = plain[0][0]!;
  // Preorder: a parent is numbered before its children, so one forward pass sets positions.
  const parentStack: number[] = [0];
  for (let node = 1; node < n; node++) {
    const d = trie.depth[node]!;
    parentStack.length = d;
    const parent = parentStack[d - 1]!;
    const pp = utf8Pos[parent]!;
    const b = byte[node]!;
    let pos: number;
    if (pp < 0) pos = -1;
    else if (pp > 0) pos = b >= 0x80 && b <= 0xbf ? pp - 1 : -1;
    else if (b < 0x80) pos = 0;
    else if (b >= 0xc2 && b <= 0xdf) pos = 1;
    else if (b >= 0xe0 && b <= 0xef) pos = 2;
    else if (b >= 0xf0 && b <= 0xf4) pos = 3;
    else pos = -1;
    utf8Pos[node] = pos;
    skipChars[node] = pos < 0 ? UNSAFE : plain[pos]![node]!;
    parentStack.push(node);
  }
  return { utf8Pos, skipChars };
}
