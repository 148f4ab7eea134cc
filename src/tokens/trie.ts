/**
 * Token trie: a prefix tree over the byte strings of all regular tokens (special tokens and ids
 * without bytes are left out), laid out flat in typed arrays in DFS preorder so that every
 * node's subtree is a contiguous node range and a contiguous range of `order` (token ids sorted
 * by bytes). The mask engine walks it; the layout is a contract with src/mask/. Knows nothing of
 * grammars.
 */
import { PocketExtractError } from "../errors.js";
import { packBytes } from "./packed.js";
import type { Vocabulary } from "./vocabulary.js";

const MAX_TOKEN_BYTES = 0xffff;

/** The vocabulary's tokens in a flat byte trie, in the order the mask engine walks it. */
export class TokenTrie {
  /** Node 0 = root (empty prefix); nodes in DFS preorder, children in increasing byte order. */
  readonly numNodes: number;
  /** byte[n] = the byte on the edge into n (0 for root). */
  readonly byte: Uint8Array;
  /** depth[n] = length of n's byte path (root 0). */
  readonly depth: Uint16Array;
  /** Preorder index just past n's last descendant: first child is n+1 (if < subtreeEnd[n]); next sibling is subtreeEnd[n]. */
  readonly subtreeEnd: Int32Array;
  /**
   * Tokens whose bytes start with n's path are order[tokenStart[n] .. tokenEnd(n)), and those whose
   * bytes equal it (usually 0 or 1) order[tokenStart[n] .. ownEnd(n)). One entry more than nodes
   * (numTokens): in preorder the node after n's own tokens starts where they end (its first child,
   * or the node after its subtree when it is a leaf), and the node after its subtree starts where
   * its subtree's tokens end, so both ends are read off this one array.
   */
  readonly tokenStart: Int32Array;
  /** Trie order position -> token id. */
  readonly order: Int32Array;
  readonly numTokens: number;
  readonly maxDepth: number;
  /** Bytes of memory held by the typed arrays. */
  readonly memoryBytes: number;

  private constructor(arrays: {
    byte: Uint8Array;
    depth: Uint16Array;
    subtreeEnd: Int32Array;
    tokenStart: Int32Array;
    order: Int32Array;
    maxDepth: number;
  }) {
    this.byte = arrays.byte;
    this.depth = arrays.depth;
    this.subtreeEnd = arrays.subtreeEnd;
    this.tokenStart = arrays.tokenStart;
    this.order = arrays.order;
    this.numNodes = arrays.byte.length;
    this.numTokens = arrays.order.length;
    this.maxDepth = arrays.maxDepth;
    this.memoryBytes = [this.byte, this.depth, this.subtreeEnd, this.tokenStart, this.order].reduce(
      (n, a) => n + a.byteLength,
      0,
    );
  }

  /** Builds the trie of `vocab`'s regular tokens: sort their byte strings, then one pass. */
  static build(vocab: Vocabulary): TokenTrie {
    return TokenTrie.of(vocab.size, (id) => (vocab.isSpecial(id) ? undefined : vocab.bytes(id)));
  }

  /** The trie of byte strings 0..count-1 (undefined or empty: left out); `order` holds their
   *  indexes, or `ids[index]` when given (a trie of some other strings of tokens, such as the
   *  mask engine's token tails). */
  static of(count: number, bytesOf: (i: number) => Uint8Array | undefined, ids?: Int32Array): TokenTrie {
    const { data, offsets } = packBytes(count, bytesOf);
    const kept: number[] = [];
    for (let i = 0; i < count; i++) {
      const len = offsets[i + 1]! - offsets[i]!;
      if (len > MAX_TOKEN_BYTES) throw new PocketExtractError("VOCABULARY_MISMATCH", `token ${ids?.[i] ?? i} is ${len} bytes long; the trie allows ${MAX_TOKEN_BYTES}`);
      if (len > 0) kept.push(i);
    }
    const compare = (a: number, b: number): number => {
      const ea = offsets[a + 1]!;
      const eb = offsets[b + 1]!;
      for (let i = offsets[a]!, j = offsets[b]!; i < ea && j < eb; i++, j++) {
        if (data[i] !== data[j]) return data[i]! - data[j]!;
      }
      return ea - offsets[a]! - (eb - offsets[b]!) || a - b;
    };
    const order = Int32Array.from(kept).sort(compare);

    const capacity = data.length + 1;
    const byte = new Uint8Array(capacity);
    const depth = new Uint16Array(capacity);
    const subtreeEnd = new Int32Array(capacity);
    const tokenStart = new Int32Array(capacity + 1);
    const path = new Int32Array(MAX_TOKEN_BYTES + 1); // path[d] = open node at depth d
    let numNodes = 1;
    let open = 0; // depth of the deepest open node
    let maxDepth = 0;
    let prev = -1;
    const close = (downTo: number): void => {
      for (; open > downTo; open--) subtreeEnd[path[open]!] = numNodes;
    };
    for (let pos = 0; pos < order.length; pos++) {
      const id = order[pos]!;
      const start = offsets[id]!;
      const len = offsets[id + 1]! - start;
      let lcp = 0;
      if (prev >= 0) {
        const pStart = offsets[prev]!;
        const max = Math.min(len, offsets[prev + 1]! - pStart);
        while (lcp < max && data[start + lcp] === data[pStart + lcp]) lcp++;
      }
      close(lcp);
      for (let d = lcp + 1; d <= len; d++) {
        const n = numNodes++;
        byte[n] = data[start + d - 1]!;
        depth[n] = d;
        tokenStart[n] = pos;
        path[d] = n;
      }
      open = len;
      if (len > maxDepth) maxDepth = len;
      prev = id;
    }
    close(0);
    subtreeEnd[0] = numNodes;
    tokenStart[numNodes] = order.length;

    return new TokenTrie({
      byte: byte.slice(0, numNodes),
      depth: depth.slice(0, numNodes),
      subtreeEnd: subtreeEnd.slice(0, numNodes),
      tokenStart: tokenStart.slice(0, numNodes + 1),
      order: ids === undefined ? order : order.map((i) => ids[i]!),
      maxDepth,
    });
  }

  /** End (exclusive, in `order`) of the tokens whose bytes start with node n's path. */
  tokenEnd(n: number): number {
    return this.tokenStart[this.subtreeEnd[n]!]!;
  }

  /** End (exclusive, in `order`) of the tokens whose bytes equal node n's path. */
  ownEnd(n: number): number {
    return this.tokenStart[n + 1]!;
  }

  /** The node whose path is `bytes`, or -1. */
  find(bytes: Uint8Array): number {
    let n = 0;
    for (const b of bytes) {
      let child = n + 1;
      const end = this.subtreeEnd[n]!;
      while (child < end && this.byte[child]! < b) child = this.subtreeEnd[child]!;
      if (child >= end || this.byte[child] !== b) return -1;
      n = child;
    }
    return n;
  }
}
