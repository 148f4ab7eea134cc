import { beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton, clearSharedAutomata } from "../../../src/automaton/index.js";
import { Budget, type ByteDfa } from "../../../src/automaton/fsa/index.js";
import { clearPatternSearches, patternPieceBuilds, patternSearch, SHARED_PATTERN_SEARCHES, sharedPatternSources } from "../../../src/automaton/strings/pattern-search.js";
import { accepts, grammar, jsonString } from "../helpers.js";

const search = (pattern: string, budget = new Budget(1 << 16, 1 << 22)): ByteDfa | null => patternSearch(pattern, budget, `pattern ${pattern}`);
const sameTables = (a: ByteDfa, b: ByteDfa): void => {
  expect([a.numStates, a.start, a.numClasses]).toEqual([b.numStates, b.start, b.numClasses]);
  expect(a.classOf).toEqual(b.classOf);
  expect(a.trans).toEqual(b.trans);
  expect(a.accepting).toEqual(b.accepting);
};

beforeEach(() => clearSharedAutomata());

describe("pattern search automata shared process-wide", () => {
  it("keeps at most SHARED_PATTERN_SEARCHES patterns and evicts the least recently used", () => {
    for (let i = 0; i < SHARED_PATTERN_SEARCHES; i++) search(`^p${i}$`);
    expect(sharedPatternSources()).toHaveLength(SHARED_PATTERN_SEARCHES);
    search("^p0$"); // used again: now the most recent
    search("^one-more$");
    const kept = new Set(sharedPatternSources());
    expect(kept.size).toBeLessThanOrEqual(SHARED_PATTERN_SEARCHES);
    expect(kept.has("^p0$")).toBe(true);
    expect(kept.has("^one-more$")).toBe(true);
    // The oldest untouched patterns went first; the newest stayed.
    expect(kept.has("^p1$")).toBe(false);
    expect(kept.has(`^p${SHARED_PATTERN_SEARCHES - 1}$`)).toBe(true);
    // Whatever was evicted, later ones are built again alike.
    expect(accepts(search("^p1$")!, "p1")).toBe(true);
  });

  it("hands every caller its own copy: a change to one never reaches the next", () => {
    const first = search("^[a-c]+x")!;
    const fresh = (() => {
      clearPatternSearches();
      return search("^[a-c]+x")!;
    })();
    first.trans.fill(-1);
    first.accepting.fill(1);
    first.classOf.fill(0);
    fresh.trans.fill(0);
    const again = search("^[a-c]+x")!;
    expect(accepts(again, "abx")).toBe(true);
    expect(accepts(again, "abxyz")).toBe(true);
    expect(accepts(again, "dx")).toBe(false);
    clearPatternSearches();
    sameTables(again, search("^[a-c]+x")!);
  });

  it("still applies the caller's state limit to a shared automaton", () => {
    const big = "^(a|b)*a(a|b){6}$";
    const states = search(big)!.numStates;
    expect(() => search(big, new Budget(states - 1, 1 << 22))).toThrowError(expect.objectContaining({ code: "AUTOMATON_TOO_LARGE" }));
    expect(search(big, new Budget(states, 1 << 22))!.numStates).toBe(states);
  });

  it("gives string automata built from a shared search the same tables as built afresh", () => {
    // Two specs (two schemas, say) with the same pattern: the second finds the first's search.
    const pattern = "^(?!x)[a-z]{2,}(-[a-z0-9]+)*$";
    const specs = [jsonString(0, Infinity, { pattern }), jsonString(3, 12, { pattern, exclude: ["ab", "abc"] }), jsonString(0, Infinity, { excludePatterns: [pattern, "^q"] })];
    const warm = specs.map((spec) => buildAutomaton(grammar(spec)));
    const cold = specs.map((spec) => {
      clearSharedAutomata();
      return buildAutomaton(grammar(spec));
    });
    const regex = new RegExp(pattern, "u");
    const text = fc.stringMatching(/^[a-z0-9x-]{0,14}$/);
    fc.assert(
      fc.property(text, (s) => {
        const expected = [regex.test(s), regex.test(s) && s.length >= 3 && s.length <= 12 && s !== "ab" && s !== "abc", !regex.test(s) && !s.startsWith("q")];
        specs.forEach((_, i) => {
          expect(accepts(warm[i]!, JSON.stringify(s))).toBe(expected[i]);
          expect(accepts(cold[i]!, JSON.stringify(s))).toBe(expected[i]);
        });
      }),
      { numRuns: 800 },
    );
  });

  it("builds a look-ahead shared by combined patterns once, with the same tables as built afresh", () => {
    // allOf combinations (bothPatterns) over the same patterns: `[aA]\d` is a piece of each.
    const combined = ["^(?=[^]*(?:[aA]\\d))[^]*(?:xy)", "^(?=[^]*(?:[aA]\\d))[^]*(?:z$)", "^(?=[^]*(?:[aA]\\d))(?=[^]*(?:xy))[^]*(?:z$)"];
    const before = patternPieceBuilds();
    const warm = combined.map((p) => search(p)!);
    // Seven pieces, four distinct: the look-ahead for `[aA]\d` (in all three), `xy` searched (1)
    // and looked ahead for (3), `z$` searched (2, 3).
    expect(patternPieceBuilds() - before).toBe(4);
    combined.forEach((p, i) => {
      clearPatternSearches();
      sameTables(warm[i]!, search(p)!);
    });
    const regexes = combined.map((p) => new RegExp(p, "u"));
    fc.assert(
      fc.property(fc.stringMatching(/^[aA1xyz]{0,8}$/), (s) => {
        warm.forEach((dfa, i) => expect(accepts(dfa, s)).toBe(regexes[i]!.test(s)));
      }),
      { numRuns: 500 },
    );
  });
});
