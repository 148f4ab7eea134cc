import { beforeAll, describe, expect, it } from "vitest";
import { clearSharedAutomata } from "../../src/automaton/index.js";
import { patternSearchBuilds, sharedPatternSources } from "../../src/automaton/strings/pattern-search.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import { compileGrammar, type TokenGrammar } from "../../src/mask/index.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { nthSetBit, popcount } from "../../src/util/bitset.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { firstDifference } from "../support/token-walk.js";

/** Two schemas with the same patterns in different places: the second compiles with the first's
 *  search automata (pattern-search.ts). */
const KEY = "^x-[a-z]+$";
const CODE = "^[A-Z]{2}\\d";
const FIRST: JsonSchemaObject = {
  type: "object",
  properties: { code: { type: "string", pattern: CODE } },
  patternProperties: { [KEY]: { type: "integer" } },
  additionalProperties: false,
};
const SECOND: JsonSchemaObject = {
  type: "object",
  properties: { id: { type: "string", pattern: KEY, maxLength: 9 }, codes: { type: "array", items: { type: "string", pattern: CODE } } },
  patternProperties: { [CODE]: { type: "string" } },
  required: ["id"],
};
const OPTIONS = { mode: "jsonschema", format: "compact", cache: false } as const;

/** The masks along random walks of allowed tokens, the same walks on both grammars (each step
 *  takes the nth allowed token of the first grammar, so a difference shows at the step it is). */
function compareWalks(a: TokenGrammar, b: TokenGrammar, seed: number, walks: number, steps: number): void {
  const random = mulberry32(seed);
  const maskA = new Uint32Array(a.maskWords);
  const maskB = new Uint32Array(b.maskWords);
  for (let w = 0; w < walks; w++) {
    const [ma, mb] = [a.matcher(), b.matcher()];
    for (let i = 0; i < steps && !ma.isClosed(); i++) {
      ma.fillMask(maskA);
      mb.fillMask(maskB);
      expect(firstDifference(maskA, maskB), `walk ${w} step ${i}`).toBe(-1);
      const allowed = popcount(maskA);
      if (allowed === 0) break;
      const id = nthSetBit(maskA, Math.floor(random() * allowed));
      if (a.index.eosIds.includes(id)) break;
      expect(ma.accept(id)).toBe(mb.accept(id));
    }
  }
}

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

describe("schemas sharing a pattern's search automaton", () => {
  it("mask and accept like grammars compiled with nothing shared", () => {
    clearSharedAutomata();
    const before = patternSearchBuilds();
    compileGrammar(FIRST, vocab, OPTIONS);
    expect(patternSearchBuilds() - before).toBe(2);
    expect(sharedPatternSources()).toEqual(expect.arrayContaining([KEY, CODE]));
    const builds = patternSearchBuilds();
    const warm = compileGrammar(SECOND, vocab, OPTIONS).tokens;
    compareWalks(warm, warm, 3, 5, 30); // reaches the rules left for documents to build
    // Both patterns were searched for the first schema: the second builds neither again.
    expect(patternSearchBuilds()).toBe(builds);
    clearSharedAutomata();
    const cold = compileGrammar(SECOND, vocab, OPTIONS).tokens;
    compareWalks(warm, cold, 7, 40, 30);
    // And the first schema compiled again, after the second.
    const again = compileGrammar(FIRST, vocab, OPTIONS).tokens;
    clearSharedAutomata();
    compareWalks(again, compileGrammar(FIRST, vocab, OPTIONS).tokens, 11, 40, 30);
  });
});
