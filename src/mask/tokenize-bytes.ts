/**
 * Turns bytes the grammar dictates (a forced run, a shortest completion) into token ids. The
 * tokenizer's own split is preferred because the model was trained on it; bytes that are not
 * complete UTF-8 text, or whose split would pass through special tokens, fall back to a greedy
 * longest match over the trie, which always succeeds for a byte-level vocabulary.
 */
import { PocketExtractError } from "../errors.js";
import type { VocabIndex } from "./mask-types.js";

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

export function tokenizeBytes(index: VocabIndex, bytes: Uint8Array): number[] {
  if (bytes.length === 0) return [];
  let text: string | undefined;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    try {
      const ids = index.vocabulary.encode(text);
      if (sameBytes(index, ids, bytes)) return ids;
    } catch {
      // A vocabulary without an encoder (engine-provided) uses the trie below.
    }
  }
  return greedyLongestMatch(index, bytes);
}

function sameBytes(index: VocabIndex, ids: readonly number[], bytes: Uint8Array): boolean {
  const { byteOffsets, byteData } = index;
  let at = 0;
  for (const id of ids) {
    if (id < 0 || id >= index.width) return false;
    const from = byteOffsets[id]!;
    const to = byteOffsets[id + 1]!;
    if (to === from) return false; // special or byte-less token
    for (let i = from; i < to; i++) if (byteData[i] !== bytes[at++]) return false;
  }
  return at === bytes.length;
}

export function greedyLongestMatch(index: VocabIndex, bytes: Uint8Array): number[] {
  const { byte, subtreeEnd, tokenStart, order } = index.trie;
  const ids: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let node = 0;
    let bestId = -1;
    let bestLen = 0;
    for (let i = at; i < bytes.length; i++) {
      let child = node + 1;
      while (child < subtreeEnd[node]! && byte[child] !== bytes[i]) child = subtreeEnd[child]!;
      if (child >= subtreeEnd[node]!) break;
      node = child;
      if (tokenStart[node + 1]! > tokenStart[node]!) {
        bestId = order[tokenStart[node]!]!;
        bestLen = i - at + 1;
      }
    }
    if (bestId < 0) {
      throw new PocketExtractError(
        "TOKENIZER_UNSUPPORTED",
        `no token spells byte 0x${bytes[at]!.toString(16)}: the vocabulary is not byte-level, so grammar-forced bytes cannot be tokenized`,
      );
    }
    ids.push(bestId);
    at += bestLen;
  }
  return ids;
}
