import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton } from "../../../src/automaton/index.js";
import { Budget, encodeText } from "../../../src/automaton/fsa/index.js";
import { textsDfa } from "../../../src/automaton/strings/json-string.js";
import { accepts, grammar, INTERESTING_CODE_POINTS, jsonString } from "../helpers.js";

const codePoint = fc.oneof(
  fc.constantFrom(...INTERESTING_CODE_POINTS),
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0, max: 0x10ffff }).filter((cp) => cp < 0xd800 || cp > 0xdfff),
);
const text = (maxLength: number) => fc.array(codePoint, { maxLength }).map((cps) => String.fromCodePoint(...cps));
const length = (s: string): number => Array.from(s).length;

describe("jsonString", () => {
  it("accepts exactly the canonical encodings of strings within the length bounds", () => {
    const bounds: [number, number][] = [[0, Infinity], [0, 3], [2, 5], [4, Infinity], [1, 1]];
    const dfas = bounds.map(([min, max]) => buildAutomaton(grammar(jsonString(min, max))));
    fc.assert(
      fc.property(text(8), (s) => {
        bounds.forEach(([min, max], i) => {
          expect(accepts(dfas[i]!, JSON.stringify(s))).toBe(length(s) >= min && length(s) <= max);
        });
      }),
      { numRuns: 1500 },
    );
  });

  it("writes control characters, quotes and backslashes the way JSON.stringify does", () => {
    const dfa = buildAutomaton(grammar(jsonString()));
    for (let cp = 0; cp < 0x80; cp++) expect(accepts(dfa, JSON.stringify(String.fromCharCode(cp)))).toBe(true);
    for (const nonCanonical of ['"\\/"', '"\\u0041"', '"\\u001F"', '"\\u000a"', '"\\u0022"', '"\n"', '"\t"', '"\\x"', '"\\"', '"a""', '"\u0001"']) {
      expect(accepts(dfa, nonCanonical)).toBe(false);
    }
    expect(accepts(dfa, '"\\u001f\\u0000\\b\\f\\n\\r\\t\\"\\\\"')).toBe(true);
  });

  it("counts code points, not bytes or UTF-16 units", () => {
    const dfa = buildAutomaton(grammar(jsonString(2, 2)));
    expect(accepts(dfa, JSON.stringify("😀中"))).toBe(true);
    expect(accepts(dfa, JSON.stringify("\n\u0001"))).toBe(true);
    expect(accepts(dfa, JSON.stringify("😀"))).toBe(false);
    expect(accepts(dfa, JSON.stringify("😀😀😀"))).toBe(false);
  });

  it("subtracts excluded names and patterns", () => {
    const dfa = buildAutomaton(grammar(jsonString(0, Infinity, { exclude: ["name", "price"], excludePatterns: ["^x-"] })));
    for (const ok of ["", "nam", "names", "Price", "y-x-"]) expect(accepts(dfa, JSON.stringify(ok))).toBe(true);
    for (const bad of ["name", "price", "x-", "x-anything"]) expect(accepts(dfa, JSON.stringify(bad))).toBe(false);
  });

  it("combines a pattern with length bounds", () => {
    const dfa = buildAutomaton(grammar(jsonString(3, 6, { pattern: "^[a-c]+$" })));
    fc.assert(
      fc.property(fc.stringMatching(/^[a-d]{0,8}$/), (s) => {
        expect(accepts(dfa, JSON.stringify(s))).toBe(/^[a-c]+$/.test(s) && s.length >= 3 && s.length <= 6);
      }),
    );
  });
});

describe("textsDfa", () => {
  it("accepts exactly its texts, with one state per distinct prefix (repeats and prefixes of one another included)", () => {
    const word = fc.array(fc.constantFrom("a", "b", "é", '"', "😀"), { maxLength: 4 }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), fc.array(word, { maxLength: 8 }), (texts, others) => {
        const dfa = textsDfa(texts, new Budget(1e6, 1e9), "test");
        for (const text of [...texts, ...others, ...texts.map((t) => `${t}a`), ...texts.map((t) => [...t].slice(0, -1).join(""))]) {
          expect(accepts(dfa, text), text).toBe(texts.includes(text));
        }
        const prefixes = new Set(texts.flatMap((t) => {
          const bytes = encodeText(t);
          return bytes.map((_, n) => bytes.slice(0, n + 1).join(",")).concat([""]);
        }));
        expect(dfa.numStates).toBe(prefixes.size);
      }),
    );
  });
});
