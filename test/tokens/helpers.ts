/** Shared test helpers for the vocabulary layer: the fixture vocabulary, a tiny tokenizer, a trie checker. */
import { ensureFixtureTokenizer, FIXTURE_WIDTH } from "../../fixtures/vocab/index.js";
import { bytesToByteLevel, loadTokenizerJson, type TokenTrie, type Vocabulary } from "../../src/tokens/index.js";

let fixture: Promise<Vocabulary> | undefined;
export function fixtureVocabulary(): Promise<Vocabulary> {
  fixture ??= ensureFixtureTokenizer().then((path) => loadTokenizerJson(path, { width: FIXTURE_WIDTH }));
  return fixture;
}

/** A minimal valid byte-level BPE tokenizer.json: 256 byte tokens, merge h+i -> 256, `<|endoftext|>` at 300. */
export function tinyTokenizerJson(): Record<string, unknown> & { model: Record<string, unknown> } {
  const vocab: Record<string, number> = {};
  for (let b = 0; b < 256; b++) vocab[bytesToByteLevel(Uint8Array.of(b))] = b;
  vocab.hi = 256;
  const byteLevel = { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: true };
  return {
    version: "1.0",
    added_tokens: [{ id: 300, content: "<|endoftext|>", special: true, normalized: false, lstrip: false, rstrip: false, single_word: false }],
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: { type: "BPE", dropout: null, unk_token: null, vocab, merges: [["h", "i"]] },
  };
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export const startsWith = (bytes: Uint8Array, prefix: Uint8Array): boolean =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);

/** Byte path of node n, read from the first token of its range (every token there has it as prefix). */
export function nodePath(trie: TokenTrie, vocab: Vocabulary, n: number): Uint8Array {
  return vocab.bytes(trie.order[trie.tokenStart[n]!]!).subarray(0, trie.depth[n]);
}

/**
 * Checks every layout invariant of a trie against its vocabulary in time linear in the trie, and
 * returns the violations found (first 20): order is the sorted permutation of the regular tokens;
 * preorder/subtreeEnd/depth/byte agree with an explicit DFS; each node's token range holds exactly
 * the tokens with its path as prefix (sorted order + the neighbours just outside the range); own
 * ranges hold exactly the tokens equal to the path; find() of every token lands on its node.
 */
export function trieViolations(trie: TokenTrie, vocab: Vocabulary): string[] {
  const bad: string[] = [];
  const check = (ok: boolean, what: () => string): void => {
    if (!ok && bad.length < 20) bad.push(what());
  };
  const expected: number[] = [];
  for (let id = 0; id < vocab.size; id++) if (!vocab.isSpecial(id) && vocab.bytes(id).length > 0) expected.push(id);
  check(trie.numTokens === expected.length, () => `numTokens ${trie.numTokens} != ${expected.length}`);
  check([...trie.order].sort((a, b) => a - b).join() === expected.join(), () => "order is not a permutation of the regular tokens");
  for (let i = 1; i < trie.numTokens; i++) {
    check(compareBytes(vocab.bytes(trie.order[i - 1]!), vocab.bytes(trie.order[i]!)) <= 0, () => `order not sorted at ${i}`);
  }
  const arrays = [trie.byte, trie.depth, trie.subtreeEnd];
  for (const a of arrays) check(a.length === trie.numNodes, () => "array length != numNodes");
  check(trie.tokenStart.length === trie.numNodes + 1 && trie.tokenStart[trie.numNodes] === trie.numTokens, () => "tokenStart lacks its end entry");
  check(trie.memoryBytes === [...arrays, trie.tokenStart, trie.order].reduce((n, a) => n + a.byteLength, 0), () => "memoryBytes wrong");
  check(trie.depth[0] === 0 && trie.byte[0] === 0 && trie.tokenStart[0] === 0 && trie.tokenEnd(0) === trie.numTokens, () => "root fields wrong");

  // Explicit DFS: children of n are n+1, subtreeEnd[n+1], ... until subtreeEnd[n].
  let visited = 0;
  let maxDepth = 0;
  const path: number[] = [];
  const s = trie.tokenStart;
  const e = Array.from({ length: trie.numNodes }, (_, n) => trie.tokenEnd(n));
  const o = Array.from({ length: trie.numNodes }, (_, n) => trie.ownEnd(n));
  const visit = (n: number): void => {
    check(n === visited++, () => `node ${n} visited at preorder position ${visited - 1}`);
    check(trie.depth[n] === path.length, () => `depth[${n}] = ${trie.depth[n]}, path length ${path.length}`);
    maxDepth = Math.max(maxDepth, trie.depth[n]!);
    const prefix = Uint8Array.from(path);
    check(s[n]! <= o[n]! && o[n]! <= e[n]! && (n === 0 || s[n]! < e[n]!), () => `node ${n}: bad range ${s[n]} ${o[n]} ${e[n]}`);
    for (let p = s[n]!; p < e[n]!; p++) {
      const bytes = vocab.bytes(trie.order[p]!);
      check(startsWith(bytes, prefix), () => `node ${n}: token at ${p} lacks the prefix`);
      check((bytes.length === prefix.length) === (p < o[n]!), () => `node ${n}: own range wrong at ${p}`);
    }
    check(s[n] === 0 || !startsWith(vocab.bytes(trie.order[s[n]! - 1]!), prefix), () => `node ${n}: token before range has the prefix`);
    check(e[n] === trie.numTokens || !startsWith(vocab.bytes(trie.order[e[n]!]!), prefix), () => `node ${n}: token after range has the prefix`);
    let lastByte = -1;
    let childStart = o[n];
    for (let c = n + 1; c < trie.subtreeEnd[n]!; c = trie.subtreeEnd[c]!) {
      check(trie.byte[c]! > lastByte, () => `node ${c}: children of ${n} not in increasing byte order`);
      check(s[c] === childStart, () => `node ${c}: tokenStart ${s[c]}, expected ${childStart}`);
      lastByte = trie.byte[c]!;
      path.push(trie.byte[c]!);
      visit(c);
      path.pop();
      childStart = e[c];
    }
    check(childStart === e[n], () => `node ${n}: children's ranges end at ${childStart}, not ${e[n]}`);
    check(visited === trie.subtreeEnd[n], () => `node ${n}: subtreeEnd ${trie.subtreeEnd[n]}, subtree ends at ${visited}`);
  };
  visit(0);
  check(visited === trie.numNodes, () => `DFS visited ${visited} of ${trie.numNodes} nodes`);
  check(trie.maxDepth === maxDepth, () => `maxDepth ${trie.maxDepth}, deepest node ${maxDepth}`);
  for (let p = 0; p < trie.numTokens; p++) {
    const n = trie.find(vocab.bytes(trie.order[p]!));
    check(n >= 0 && s[n]! <= p && p < o[n]!, () => `find(bytes of token ${trie.order[p]}) = ${n} does not own it`);
  }
  return bad;
}
