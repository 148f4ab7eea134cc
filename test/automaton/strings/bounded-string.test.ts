import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton } from "../../../src/automaton/index.js";
import { Budget } from "../../../src/automaton/fsa/index.js";
import { JsonStrings, type JsonStringSpec } from "../../../src/automaton/strings/index.js";
import { accepts, grammar, jsonString, uncompletableStates } from "../helpers.js";

/** Texts near the bounds, with escapes, controls, and 2-, 3- and 4-byte characters. */
const ALPHABET = ["a", "Z", " ", '"', "\\", "\n", "\u0001", "\u001f", "\u007f", "é", "中", "\u2028", "😀", "/"];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((a) => a.join(""));
/** Token bytes that are not canonical JSON (must all be refused). */
const NON_CANONICAL = ['"\\/"', '"\\u0041"', '"\\U000a"', '"\\u000A"', '"\u0001"', '"a', 'a"'];

describe("length-only strings computed on demand", () => {
  it("accept exactly what the built automaton accepts", () => {
    const bounds = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.option(fc.integer({ min: 0, max: 8 }))).map(([min, extra]) => [min, extra === null ? Infinity : min + extra] as const);
    fc.assert(
      fc.property(bounds, fc.array(text, { minLength: 1, maxLength: 8 }), ([min, max], texts) => {
        const spec = jsonString(min, max) as JsonStringSpec;
        const lazy = buildAutomaton(grammar(spec));
        const built = new JsonStrings(new Budget(1e6, 1e9)).table(spec)!;
        for (const t of [...texts, "x".repeat(min), "x".repeat(Math.min(max, 20))]) {
          const token = JSON.stringify(t);
          expect(accepts(lazy, token), `${token} in [${min}, ${max}]`).toBe(accepts(built, token));
        }
        for (const token of NON_CANONICAL) expect(accepts(lazy, token)).toBe(false);
        expect(uncompletableStates(lazy, 300)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it("compiles maxLength 32767 (no table) and enforces it", () => {
    const automaton = buildAutomaton(grammar(jsonString(0, 32767)));
    expect(accepts(automaton, JSON.stringify("中".repeat(32767)))).toBe(true);
    expect(accepts(automaton, JSON.stringify("中".repeat(32768)))).toBe(false);
  });
});
