import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar, type TokenGrammar } from "../../src/mask/index.js";
import { MaskCache } from "../../src/mask/mask-cache.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { nthSetBit, popcount } from "../../src/util/bitset.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { bruteForceMask, firstDifference } from "../support/token-walk.js";

const WORDS = 64;
const text = Uint32Array.from({ length: WORDS }, (_, w) => (w === 0 ? 0xfffffffe : 0xffffffff));
const written = (cache: MaskCache, state: number): Uint32Array | undefined => {
  const out = new Uint32Array(WORDS).fill(0xdeadbeef);
  return cache.write(state, out) ? out : undefined;
};

describe("MaskCache", () => {
  it("gives back exactly what it kept, whichever base it stores a mask over", () => {
    const cache = new MaskCache(text, 100, 1 << 20);
    const fewAllowed = new Uint32Array(WORDS);
    fewAllowed[3] = 0x10;
    fewAllowed[60] = 0x80000001;
    const fewRefused = text.slice();
    fewRefused[7] = 0xfffffeff;
    fewRefused[0] = 0xffffffff; // an end-of-generation bit outside the text mask
    const mixed = Uint32Array.from({ length: WORDS }, (_, w) => (w % 2 === 0 ? 0x0f0f0f0f : 0));
    const all = [fewAllowed, fewRefused, mixed, new Uint32Array(WORDS), text.slice()];
    all.forEach((mask, state) => cache.set(state, mask));
    all.forEach((mask, state) => expect(firstDifference(written(cache, state)!, mask)).toBe(-1));
    // Two words per differing word for the few-allowed and few-refused masks, none for all-zero and
    // all-text, the mixed one densely (in the first chunk of dense rows, four rows); then the
    // per-state tables (kind, last use, dense row, slot: 64 states).
    expect(cache.memoryBytes()).toBe(2 * 2 * 4 + 2 * 2 * 4 + 4 * WORDS * 4 + 64 * (1 + 8 + 4) + all.length * 8);
    expect(written(cache, 99)).toBeUndefined();
    expect([cache.hits, cache.misses]).toEqual([5, 1]);
  });

  it("stores a mask from the words its caller says changed, as it would from a scan", () => {
    const fewAllowed = new Uint32Array(WORDS);
    fewAllowed[3] = 0x10;
    fewAllowed[60] = 0x80000001;
    const fewRefused = text.slice();
    fewRefused[7] = 0xfffffeff;
    fewRefused[0] = 0xffffffff;
    const mixed = Uint32Array.from({ length: WORDS }, (_, w) => (w % 2 === 0 ? 0x0f0f0f0f : 0));
    const told = new MaskCache(text, 100, 1 << 20);
    const scanned = new MaskCache(text, 100, 1 << 20);
    const changed = (mask: Uint32Array, overText: boolean) => {
      const words = Int32Array.from(mask.keys()).filter((w) => mask[w] !== (overText ? text[w] : 0)).reverse();
      return { overText, words, count: words.length };
    };
    told.set(0, fewAllowed, changed(fewAllowed, false));
    told.set(1, fewRefused, changed(fewRefused, true));
    // Too many changed words over the base given: stored from a scan of the whole mask instead.
    told.set(2, mixed, changed(mixed, false));
    [fewAllowed, fewRefused, mixed].forEach((mask, state) => {
      scanned.set(state, mask);
      expect(firstDifference(written(told, state)!, mask)).toBe(-1);
    });
    expect(told.memoryBytes()).toBe(scanned.memoryBytes());
  });

  it("drops the least recently used masks past its byte bound, and keeps within it", () => {
    const denseBytes = WORDS * 4;
    const cache = new MaskCache(text, 1000, 4 * denseBytes);
    const dense = (seed: number): Uint32Array => Uint32Array.from({ length: WORDS }, (_, w) => (w * 2654435761 + seed) >>> 0);
    for (let s = 0; s < 4; s++) cache.set(s, dense(s));
    expect(written(cache, 0)).toBeDefined(); // state 0 is now the most recently used
    cache.set(4, dense(4));
    // The rows of the masks dropped are reused: no dense rows past the bound.
    expect(cache.memoryBytes()).toBeLessThanOrEqual(4 * denseBytes + 64 * 13 + 5 * 8);
    expect(written(cache, 0)).toBeDefined();
    expect(written(cache, 4)).toBeDefined();
    expect(written(cache, 1)).toBeUndefined();
    expect(cache.size).toBeLessThanOrEqual(3);
  });

  it("drops the least recently used masks past its entry bound", () => {
    const cache = new MaskCache(text, 8, 1 << 20);
    for (let s = 0; s < 9; s++) cache.set(s, text);
    expect(cache.size).toBe(6);
    expect(written(cache, 0)).toBeUndefined();
    expect(written(cache, 8)).toBeDefined();
  });
});

describe("TokenGrammar mask cache on the 64K fixture vocabulary", () => {
  let vocab: Vocabulary;
  beforeAll(async () => {
    vocab = await fixtureVocabulary();
  });

  const schema = {
    type: "object",
    properties: { name: { type: "string" }, code: { type: "string", pattern: "^[A-Z]{2}-\\d{3}$" }, n: { type: "integer" }, tags: { type: "array", items: { enum: ["a", "bb", "ccc"] } } },
    required: ["name", "code"],
    additionalProperties: false,
  };

  /** Random walks over allowed tokens; checks every mask (cached or recomputed after eviction) against brute force. */
  function walkAndCheck(grammar: TokenGrammar, seeds: number): number {
    const mask = new Uint32Array(grammar.maskWords);
    let checked = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const random = mulberry32(seed);
      const matcher = grammar.matcher();
      for (let i = 0; i < 30 && !matcher.isClosed(); i++) {
        matcher.fillMask(mask);
        expect(firstDifference(mask, bruteForceMask(grammar, matcher.state)), `seed ${seed} step ${i}`).toBe(-1);
        checked++;
        for (const eos of vocab.eosIds) mask[eos >>> 5]! &= ~(1 << (eos & 31));
        const n = popcount(mask);
        if (n === 0) break;
        expect(matcher.accept(nthSetBit(mask, Math.floor(random() * n)))).toBe(true);
      }
    }
    return checked;
  }

  it("serves exact masks from the cache, and again after evicting under tight bounds", () => {
    const roomy = compileGrammar(schema, vocab, { mode: "jsonschema", format: "compact", cache: false }).tokens;
    expect(walkAndCheck(roomy, 3) + walkAndCheck(roomy, 3)).toBeGreaterThan(60);
    expect(roomy.stats().maskHits).toBeGreaterThan(0);

    const tight = compileGrammar(schema, vocab, { mode: "jsonschema", format: "compact", cache: false, maxCachedMasks: 4, maxMaskCacheBytes: 16 * 1024 }).tokens;
    expect(walkAndCheck(tight, 3)).toBeGreaterThan(30);
    expect(tight.stats().cachedMasks).toBeLessThanOrEqual(4);
  });
});
