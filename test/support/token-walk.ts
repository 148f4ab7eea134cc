/** Test helpers that drive a Matcher by hand: brute-force masks and random tokenizations. */
import type { Matcher, TokenGrammar } from "../../src/mask/index.js";
import { hasBit } from "../../src/util/bitset.js";

/** The mask of a state computed the slow way: step every token's bytes through the automaton. */
export function bruteForceMask(grammar: TokenGrammar, state: number): Uint32Array {
  const out = new Uint32Array(grammar.maskWords);
  const { width } = grammar.vocabulary;
  for (let id = 0; id < width; id++) {
    const isEos = grammar.index.eosIds.includes(id);
    const ok = isEos ? grammar.automaton.isAccepting(state) : grammar.stepToken(state, id) >= 0;
    if (ok) out[id >>> 5]! |= 1 << (id & 31);
  }
  return out;
}

/** First id where two masks differ, or -1. */
export function firstDifference(a: Uint32Array, b: Uint32Array): number {
  for (let w = 0; w < a.length; w++) {
    if (a[w] !== b[w]) return (w << 5) + 31 - Math.clz32((a[w]! ^ b[w]!) & -(a[w]! ^ b[w]!));
  }
  return -1;
}

/** Split `bytes` into vocabulary tokens, choosing uniformly among the tokens that fit at each point. */
export function randomTokenization(grammar: TokenGrammar, bytes: Uint8Array, random: () => number): number[] {
  const { trie } = grammar.index;
  const ids: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    const choices: number[] = [];
    let node = 0;
    for (let i = at; i < bytes.length; i++) {
      let child = node + 1;
      while (child < trie.subtreeEnd[node]! && trie.byte[child] !== bytes[i]) child = trie.subtreeEnd[child]!;
      if (child >= trie.subtreeEnd[node]!) break;
      node = child;
      for (let k = trie.tokenStart[node]!; k < trie.ownEnd(node); k++) choices.push(trie.order[k]!);
    }
    const id = choices[Math.floor(random() * choices.length)]!;
    ids.push(id);
    at += grammar.vocabulary.bytes(id).length;
  }
  return ids;
}

/** Accept `ids` one by one, checking each against the mask first; returns the index that failed, or -1. */
export function acceptAllChecked(matcher: Matcher, ids: readonly number[], mask: Uint32Array): number {
  for (let i = 0; i < ids.length; i++) {
    matcher.fillMask(mask);
    if (!hasBit(mask, ids[i]!)) return i;
    if (!matcher.accept(ids[i]!)) return i;
  }
  return -1;
}
