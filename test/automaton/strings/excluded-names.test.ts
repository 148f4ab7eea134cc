import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton, type GrammarAutomaton } from "../../../src/automaton/index.js";
import { Budget, encodeText, stepByte, type ByteDfa } from "../../../src/automaton/fsa/index.js";
import { JsonStrings, type JsonStringSpec } from "../../../src/automaton/strings/index.js";
import { accepts, distancesToAccept, grammar, jsonString, uncompletableStates } from "../helpers.js";

/** Names and texts with escapes, controls, and 2-, 3- and 4-byte characters. */
const ALPHABET = ["a", "b", "Z", '"', "\\", "\n", "\u0001", "\u007f", "é", "中", "😀", "/"];
const word = (maxLength: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength }).map((a) => a.join(""));

/** Byte walk of a text through both automata: life, acceptance and distance agree at every byte. */
function expectSameWalk(lazy: GrammarAutomaton, built: ByteDfa, distance: number[], text: string): void {
  let s = built.start;
  let t = lazy.start;
  for (const byte of encodeText(text)) {
    expect(lazy.isAccepting(t), text).toBe(built.accepting[s] === 1);
    expect(lazy.distToAccept(t), text).toBe(distance[s]);
    const next = stepByte(built, s, byte);
    const lazyNext = lazy.step(t, byte);
    expect(lazyNext >= 0, `${text} at byte ${byte}`).toBe(next >= 0);
    if (next < 0) return;
    s = next;
    t = lazyNext;
  }
  expect(lazy.isAccepting(t), text).toBe(built.accepting[s] === 1);
}

describe("strings other than some names, computed on demand", () => {
  it("accept exactly what the built automaton accepts, at the same distances", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(word(4), { minLength: 1, maxLength: 6 }), fc.array(word(5), { maxLength: 6 }), (min, names, others) => {
        const spec = jsonString(min, Infinity, { exclude: names }) as JsonStringSpec;
        const lazy = buildAutomaton(grammar(spec));
        const built = new JsonStrings(new Budget(1e6, 1e9)).table(spec)!;
        const distance = distancesToAccept(built);
        // The names, names one character longer or shorter, and other texts, as tokens.
        const texts = [...names, ...names.map((n) => `${n}a`), ...names.map((n) => [...n].slice(0, -1).join("")), ...others, "x".repeat(min)];
        for (const text of texts) {
          const token = JSON.stringify(text);
          expect(accepts(lazy, token), `${token} with ${JSON.stringify(names)}, min ${min}`).toBe(accepts(built, token));
          expectSameWalk(lazy, built, distance, token);
        }
        expect(uncompletableStates(lazy, 300)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("refuse every spelling of an excluded name and nothing else", () => {
    const lazy = buildAutomaton(grammar(jsonString(0, Infinity, { exclude: ["", "id", 'a"b', "x\ny"] })));
    for (const excluded of ['""', '"id"', '"a\\"b"', '"x\\ny"']) expect(accepts(lazy, excluded), excluded).toBe(false);
    for (const other of ['"i"', '"idx"', '"a\\\\b"', '"x y"', '"Id"']) expect(accepts(lazy, other), other).toBe(true);
  });
});
