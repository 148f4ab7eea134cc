import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenTrie, vocabularyFromBytes, type Vocabulary } from "../../src/tokens/index.js";
import { fixtureVocabulary, nodePath, startsWith, trieViolations } from "./helpers.js";

/** Brute force: does any regular token start with `prefix`? */
const anyTokenStartsWith = (vocab: Vocabulary, prefix: Uint8Array): boolean => {
  for (let id = 0; id < vocab.size; id++) {
    const b = vocab.bytes(id);
    if (!vocab.isSpecial(id) && b.length > 0 && startsWith(b, prefix)) return true;
  }
  return false;
};

/** Random small vocabularies over a 4-byte alphabet (many shared prefixes, duplicates, empty ids, specials). */
const smallVocab = fc
  .array(fc.record({ bytes: fc.array(fc.constantFrom(0, 1, 2, 255), { maxLength: 6 }), special: fc.boolean() }), { maxLength: 60 })
  .map((tokens) => {
    const specialIds = tokens.flatMap((t, id) => (t.special && t.bytes.length > 0 ? [id] : []));
    return vocabularyFromBytes({
      width: tokens.length + 3,
      bytes: (id) => (id < tokens.length ? Uint8Array.from(tokens[id]!.bytes) : undefined),
      specialIds,
      eosIds: [],
    });
  });

describe("TokenTrie on random vocabularies", () => {
  it("satisfies every layout invariant", () => {
    fc.assert(
      fc.property(smallVocab, (vocab) => {
        expect(trieViolations(TokenTrie.build(vocab), vocab)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("find agrees with a brute-force prefix scan", () => {
    fc.assert(
      fc.property(smallVocab, fc.array(fc.constantFrom(0, 1, 2, 3, 255), { maxLength: 7 }), (vocab, raw) => {
        const trie = TokenTrie.build(vocab);
        const query = Uint8Array.from(raw);
        const n = trie.find(query);
        // The root (empty prefix) exists even in an empty trie.
        expect(n >= 0).toBe(query.length === 0 || anyTokenStartsWith(vocab, query));
        if (n > 0) expect([...nodePath(trie, vocab, n)]).toEqual([...query]);
        if (query.length === 0) expect(n).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe("TokenTrie on the 64K fixture", () => {
  it("builds over the 65,510 regular tokens and satisfies every layout invariant", async () => {
    const vocab = await fixtureVocabulary();
    const trie = TokenTrie.build(vocab);
    expect(trie.numTokens).toBe(65510);
    expect(trie.order.includes(65510)).toBe(false);
    expect(trieViolations(trie, vocab)).toEqual([]);
  });

  it("find agrees with a brute-force scan for random prefixes of tokens and random bytes", async () => {
    const vocab = await fixtureVocabulary();
    const trie = TokenTrie.build(vocab);
    const prefixOfToken = fc
      .tuple(fc.integer({ min: 0, max: 65509 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean())
      .map(([id, cut, extra, extend]) => {
        const b = vocab.bytes(id);
        const prefix = b.subarray(0, cut % (b.length + 1));
        return extend ? Uint8Array.of(...prefix, extra) : prefix;
      });
    fc.assert(
      fc.property(fc.oneof(prefixOfToken, fc.uint8Array({ maxLength: 4 })), (query) => {
        const n = trie.find(query);
        expect(n >= 0).toBe(anyTokenStartsWith(vocab, query));
        if (n >= 0) {
          expect(trie.depth[n]).toBe(query.length);
          expect([...nodePath(trie, vocab, n)]).toEqual([...query]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
