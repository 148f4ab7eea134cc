import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton } from "../../../src/automaton/index.js";
import { Budget, ClassBytes, stepByte } from "../../../src/automaton/fsa/index.js";
import { CountedStringAutomaton } from "../../../src/automaton/strings/counted-string.js";
import { JsonStrings, plainBudgets, type JsonStringSpec } from "../../../src/automaton/strings/index.js";
import { accepts, distancesToAccept, grammar, jsonString } from "../helpers.js";

/** Regex pieces with escapes, controls, quotes, and 2-, 3- and 4-byte characters. */
const PIECES = ["a", "b", "[a-c]", "é", "中", "😀", '"', "\\\\", "\\n", "\\u0001", ".", "[^a]", "(ab|c)", "\\d", " "];
const QUANTIFIERS = ["", "", "*", "+", "?", "{1,3}", "{2}"];
const pattern = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...QUANTIFIERS)), { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([open, parts, close]) => `${open ? "^" : ""}${parts.map(([p, q]) => p + q).join("")}${close ? "$" : ""}`);
const bounds = fc
  .tuple(fc.integer({ min: 0, max: 6 }), fc.option(fc.integer({ min: 0, max: 8 })))
  .filter(([min, extra]) => min > 0 || extra !== null)
  .map(([min, extra]) => [min, extra === null ? Infinity : min + extra] as const);

describe("patterns under length bounds computed on demand", () => {
  it("agree with the built automaton at every byte on life, distance, acceptance, single bytes and plain budgets", () => {
    let budgetsClaimed = 0;
    fc.assert(
      fc.property(pattern, bounds, fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (p, [min, max], choices) => {
        const spec = jsonString(min, max, { pattern: p }) as JsonStringSpec;
        const budget = new Budget(1e6, 1e9);
        // countedFrom 0: every bounded pattern is computed.
        const computed = new JsonStrings(budget, 0).get(spec);
        const reference = new JsonStrings(budget).table(spec);
        if (reference === null) {
          expect(computed).toBeNull();
          return;
        }
        expect(computed).toBeInstanceOf(CountedStringAutomaton);
        const lazy = computed as CountedStringAutomaton;
        const distance = distancesToAccept(reference);
        const plain = plainBudgets(reference);
        const bytes = new ClassBytes(reference.classOf, reference.numClasses);
        expect(lazy.shortest).toBe(distance[reference.start]);
        let s = reference.start;
        let t = lazy.start;
        for (const choice of choices) {
          expect(lazy.tables.dist(t)).toBe(distance[s]);
          const live: number[] = [];
          for (let b = 0; b < 256; b++) {
            const next = stepByte(reference, s, b);
            expect(lazy.tables.next(t, lazy.classOf[b]!) >= 0, `byte ${b}`).toBe(next >= 0);
            if (next >= 0) live.push(b);
          }
          const row = s;
          expect(lazy.tables.singleByte(t)).toBe(bytes.singleByte((c) => reference.trans[row * reference.numClasses + c]!));
          for (let pos = 0; pos < 4; pos++) {
            const claimed = lazy.tables.plainBudget(t, pos);
            // A lower bound of what the built automaton survives (its budgets are exact).
            expect(claimed).toBeLessThanOrEqual(plain[s * 4 + pos]!);
            if (claimed > 0) budgetsClaimed++;
          }
          if (live.length === 0) return;
          const byte = live[choice % live.length]!;
          s = stepByte(reference, s, byte);
          t = lazy.tables.next(t, lazy.classOf[byte]!);
        }
      }),
      { numRuns: 300 },
    );
    // The budgets are not vacuous: plain text after a pattern's fixed part is claimed.
    expect(budgetsClaimed).toBeGreaterThan(0);
  });

  it("compile a long maximum without a table and enforce it exactly", () => {
    const url = jsonString(0, 2000, { pattern: "^([Hh][Tt][Tt][Pp][Ss]?)://.+$" });
    // By default too: a table would have ~19 x 2001 content states before JSON encoding.
    expect(new JsonStrings(new Budget(1e6, 1e9)).get(url as JsonStringSpec)).toBeInstanceOf(CountedStringAutomaton);
    const automaton = buildAutomaton(grammar(url));
    const address = (length: number): string => JSON.stringify(`https://${"中".repeat(length - 8)}`);
    expect(accepts(automaton, address(2000))).toBe(true);
    expect(accepts(automaton, address(2001))).toBe(false);
    expect(accepts(automaton, JSON.stringify("ftp://x"))).toBe(false);
    // The minimum counts too, escapes as one character each.
    const short = buildAutomaton(grammar(jsonString(300, 32767, { pattern: "^a" })));
    expect(accepts(short, JSON.stringify(`a${"\n".repeat(298)}`))).toBe(false);
    expect(accepts(short, JSON.stringify(`a${"\n".repeat(299)}`))).toBe(true);
  });

  it("take any maximum a schema can write, with or without a pattern (state ids stay small)", () => {
    for (const max of [1e9, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      for (const extra of [{}, { pattern: "^ab" }]) {
        const automaton = buildAutomaton(grammar(jsonString(2, max, extra)));
        expect(accepts(automaton, JSON.stringify(`ab${"中".repeat(300)}`)), `${max} ${JSON.stringify(extra)}`).toBe(true);
        expect(accepts(automaton, JSON.stringify("a"))).toBe(false);
        expect(automaton.ruleStates).toBeLessThan(2000);
      }
    }
  });

  it("is null when no text of the pattern fits the bounds", () => {
    const strings = new JsonStrings(new Budget(1e6, 1e9), 0);
    expect(strings.get(jsonString(0, 3, { pattern: "^abcd" }) as JsonStringSpec)).toBeNull();
    expect(strings.get(jsonString(5, Infinity, { pattern: "^a{1,4}$" }) as JsonStringSpec)).toBeNull();
  });
});
