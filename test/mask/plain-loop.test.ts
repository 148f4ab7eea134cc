import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar } from "../../src/mask/index.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { hasBit, popcount } from "../../src/util/bitset.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { compareShortcut, sampledStates } from "../support/mask-shortcuts.js";
import { bruteForceMask, firstDifference } from "../support/token-walk.js";

/** Schemas with free string bodies (plain loops) beside strings that only look like one: a
 *  pattern, bounded lengths, enums, keys, and a format. */
const SCHEMAS: Record<string, JsonSchemaObject> = {
  freeValues: {
    type: "object",
    properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } }, n: { type: "integer" } },
    required: ["name"],
  },
  bounded: { type: "object", properties: { a: { type: "string", maxLength: 40 }, b: { type: "string", minLength: 3 } }, required: ["a", "b"] },
  pattern: { type: "array", items: { type: "string", pattern: "^[a-z ]*x" } },
  mixed: {
    anyOf: [
      { type: "string" },
      { type: "object", additionalProperties: { type: "string" } },
      { type: "string", format: "email" },
      { enum: ["ab\"c", "d\\e"] },
    ],
  },
};

describe("plain-loop masks (free string bodies)", () => {
  let vocabulary: Vocabulary;
  beforeAll(async () => {
    vocabulary = await fixtureVocabulary();
  });

  it("gives the masks the whole-trie walk gives, over sampled states of several grammars", () => {
    let loops = 0;
    let others = 0;
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const grammar = compileGrammar(schema, vocabulary, { mode: "jsonschema", cache: false }).tokens;
      // The shortcut visits far fewer nodes; that is how loop states are told apart here.
      const counts = compareShortcut(grammar, { plainLoops: false }, sampledStates(grammar, name.length, 12, 40), name, 1 / 2);
      loops += counts.taken;
      others += counts.others;
    }
    // Both kinds were compared: the free strings' bodies and everything else.
    expect(loops).toBeGreaterThanOrEqual(4);
    expect(others).toBeGreaterThan(20);
  });

  it("is the brute-force mask inside a free string, after escapes and multi-byte characters", () => {
    const grammar = compileGrammar({ type: "object", properties: { s: { type: "string" } }, required: ["s"] }, vocabulary, { mode: "jsonschema", cache: false }).tokens;
    for (const prefix of ['{"s":"', '{"s":"ab', '{"s":"a\\n', '{"s":"\u00e9', '{"s":"\u4e2d']) {
      const state = grammar.stepBytes(grammar.automaton.start, new TextEncoder().encode(prefix));
      expect(state).toBeGreaterThanOrEqual(0);
      expect(firstDifference(grammar.maskOf(state), bruteForceMask(grammar, state)), prefix).toBe(-1);
    }
    // A body ending mid-character (a lead byte read): continuation states are loop states too.
    const midChar = grammar.stepBytes(grammar.automaton.start, Uint8Array.of(...new TextEncoder().encode('{"s":"'), 0xe4));
    expect(firstDifference(grammar.maskOf(midChar), bruteForceMask(grammar, midChar))).toBe(-1);
  });

  it("splits the vocabulary into all-plain tokens and tails from the first other byte", () => {
    const grammar = compileGrammar({ type: "string" }, vocabulary, { mode: "jsonschema", cache: false }).tokens;
    const { plainMask, tails } = grammar.index.plainTails;
    const quote = vocabulary.encode('"')[0]!;
    const word = vocabulary.encode("hello")[0]!;
    expect(hasBit(plainMask, word)).toBe(true);
    expect(hasBit(plainMask, quote)).toBe(false);
    const tailTokens = tails.reduce((n, t) => n + t.trie.numTokens, 0);
    expect(popcount(plainMask) + tailTokens).toBe(popcount(grammar.index.textMask));
    expect(Array.from(tails[0]!.trie.order)).toContain(quote);
  });
});
