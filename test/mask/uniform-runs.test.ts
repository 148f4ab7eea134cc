import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar, type TokenGrammar } from "../../src/mask/index.js";
import { BYTE_GROUP, NUM_BYTE_GROUPS, RUN_GROUPS } from "../../src/mask/byte-groups.js";
import { MaskComputer } from "../../src/mask/mask-computer.js";
import { MAX_SUBTREE_HEIGHT, subtreeGroups } from "../../src/mask/subtree-groups.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import { TokenTrie } from "../../src/tokens/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { compareShortcut, sampledStates } from "../support/mask-shortcuts.js";
import { bruteForceMask, firstDifference } from "../support/token-walk.js";

/** Strings whose states read runs of a class (counted or not, some about to run out), beside
 *  states that read none: keys, numbers, enums, free strings. */
const SCHEMAS: Record<string, JsonSchemaObject> = {
  counted: { type: "object", properties: { id: { type: "string", pattern: "^[0-9a-zA-Z_-]{1,40}$" }, n: { type: "integer" } }, required: ["id", "n"] },
  short: { type: "array", items: { type: "string", pattern: "^[a-z]{2,6}$" } },
  bounded: { type: "object", properties: { a: { type: "string", maxLength: 12 }, b: { type: "string", minLength: 2, maxLength: 30 } }, required: ["a", "b"] },
  formats: { type: "object", properties: { u: { type: "string", format: "uri" }, e: { enum: ["x-y", "zz"] } }, required: ["u", "e"] },
};

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("uniform-run masks", () => {
  let vocabulary: Vocabulary;
  beforeAll(async () => {
    vocabulary = await fixtureVocabulary();
  });

  const compile = (schema: JsonSchemaObject): TokenGrammar => compileGrammar(schema, vocabulary, { mode: "jsonschema", cache: false }).tokens;

  it("gives the masks the walk without the shortcut gives, over sampled states of several grammars", () => {
    let taken = 0;
    let others = 0;
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const grammar = compile(schema);
      const counts = compareShortcut(grammar, { uniformRuns: false }, sampledStates(grammar, name.length, 16, 30), name, 1);
      taken += counts.taken;
      others += counts.others;
    }
    // Both kinds were compared: states that took the shortcut, and states that did not.
    expect(taken).toBeGreaterThanOrEqual(20);
    expect(others).toBeGreaterThanOrEqual(20);
  });

  it("is the brute-force mask in counted classes at every count, up to the last character", () => {
    const grammar = compile({ type: "object", properties: { id: { type: "string", pattern: "^[A-Za-z0-9]{1,9}$" } }, required: ["id"] });
    const computer = new MaskComputer(grammar.automaton, grammar.index);
    const plain = new MaskComputer(grammar.automaton, grammar.index, { uniformRuns: false });
    let fewer = 0;
    for (let count = 0; count <= 9; count++) {
      const state = grammar.stepBytes(grammar.automaton.start, encode(`{"id":"${"x".repeat(count)}`));
      expect(state).toBeGreaterThanOrEqual(0);
      const mask = new Uint32Array(grammar.maskWords);
      computer.compute(state, mask);
      expect(firstDifference(mask, bruteForceMask(grammar, state)), `${count} characters read`).toBe(-1);
      plain.compute(state, new Uint32Array(grammar.maskWords));
      if (computer.lastVisited < plain.lastVisited) fewer++;
    }
    // The shortcut was taken, not only where the run is long.
    expect(fewer).toBeGreaterThanOrEqual(6);
  });

  it("visits a small part of the trie in a long counted class, where the walk visits tens of thousands of nodes", () => {
    const grammar = compile({ type: "string", pattern: "^[0-9a-zA-Z_-]{1,255}$" });
    const state = grammar.stepBytes(grammar.automaton.start, encode('"ab'));
    const withRuns = new MaskComputer(grammar.automaton, grammar.index);
    const without = new MaskComputer(grammar.automaton, grammar.index, { uniformRuns: false });
    const a = new Uint32Array(grammar.maskWords);
    const b = new Uint32Array(grammar.maskWords);
    withRuns.compute(state, a);
    without.compute(state, b);
    expect(firstDifference(a, b)).toBe(-1);
    expect(without.lastVisited).toBeGreaterThan(20_000);
    expect(withRuns.lastVisited * 5).toBeLessThan(without.lastVisited);
  });

  it("annotates each trie node with the groups of the bytes below it and its height", () => {
    const words = ["ab", "abc", "ab-9", "a", "x\"y", "q" + "z".repeat(300), "é"];
    const trie = TokenTrie.of(words.length, (i) => encode(words[i]!));
    const { groupsBelow, groupSets, height } = subtreeGroups(trie);
    for (let node = 0; node < trie.numNodes; node++) {
      const below = [0, 0];
      let tallest = 0;
      for (let d = node + 1; d < trie.subtreeEnd[node]!; d++) {
        const g = BYTE_GROUP[trie.byte[d]!]!;
        below[g >> 5]! |= 1 << (g & 31);
        tallest = Math.max(tallest, trie.depth[d]! - trie.depth[node]!);
      }
      const id = groupsBelow[node]!;
      expect([groupSets[id * 2]! | 0, groupSets[id * 2 + 1]! | 0], `node ${node}`).toEqual(below);
      expect(height[node], `node ${node}`).toBe(Math.min(tallest, MAX_SUBTREE_HEIGHT));
    }
  });

  it("lets runs hold printable ASCII but the quote and the backslash, in whole groups", () => {
    const inRun = (b: number): boolean => (RUN_GROUPS[BYTE_GROUP[b]! >> 5]! & (1 << (BYTE_GROUP[b]! & 31))) !== 0;
    for (let b = 0; b < 256; b++) expect(inRun(b), `byte ${b}`).toBe(b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c);
    expect(Math.max(...BYTE_GROUP) + 1).toBe(NUM_BYTE_GROUPS);
  });
});
