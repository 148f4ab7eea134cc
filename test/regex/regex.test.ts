import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton, clearSharedAutomata, type GrammarAutomaton } from "../../src/automaton/index.js";
import { PocketExtractError } from "../../src/errors.js";
import { PatternError, parseRegex, patternLanguage } from "../../src/regex/index.js";
import { bothPatterns } from "../../src/schema-compiler/patterns.js";
import { accepts, grammar, jsonString } from "../automaton/helpers.js";

/** The automaton of "strings in which `pattern` finds a match". */
const contentDfa = (pattern: string, maxStates?: number): GrammarAutomaton =>
  buildAutomaton(grammar(jsonString(0, Infinity, { pattern })), maxStates === undefined ? {} : { maxStates });
const matches = (dfa: GrammarAutomaton, s: string): boolean => accepts(dfa, JSON.stringify(s));

const ALPHABET = ["a", "b", "c", "d", "é", "中", "😀", "1", "9", " ", "\n", "-", "_", "\u2028", "\t"];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((a) => a.join(""));

/** Random patterns over the supported subset, as source text. */
const atom = fc.constantFrom(
  "a", "b", "c", "é", "中", "😀", ".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "[ab]", "[^a]", "[a-c]", "[^\\d\\s]",
  "[é-😀]", "\\x61", "\\u0062", "\\u{1F600}", "\\uD83D\\uDE00", "\\.", "[\\-a]", "[.]", "\\n", "[\\w-]", "\\p{Nd}", "\\P{Nd}",
);
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "+?", "??", "{1,3}?");
/** Random patterns; with `anchors`, `^` and `$` also stand anywhere (as terms of their own). */
const patternOf = (anchors: boolean): fc.Arbitrary<string> =>
  fc.letrec<{ alt: string; seq: string; term: string }>((tie) => ({
    alt: fc.array(tie("seq"), { minLength: 1, maxLength: 2 }).map((xs) => xs.join("|")),
    seq: fc.array(tie("term"), { minLength: 0, maxLength: 3 }).map((xs) => xs.join("")),
    term: fc.oneof(
      { depthSize: "small" },
      fc.tuple(atom, quantifier).map(([a, q]) => a + q),
      fc.tuple(fc.constantFrom("(", "(?:", "(?<g>"), tie("alt"), quantifier).map(([open, inner, q]) => `${open}${inner})${q}`),
      ...(anchors ? [fc.constantFrom("^", "$")] : []),
    ),
  })).alt;
/** Group names must be unique in a pattern: generated ones become plain groups. */
const unnamed = (p: string): string => p.replace(/\(\?<g>/g, "(");
const pattern = patternOf(false);
const anchored = fc.tuple(fc.boolean(), pattern, fc.boolean()).map(([s, p, e]) => `${s ? "^" : ""}${p.includes("(?<g>") ? unnamed(p) : p}${e ? "$" : ""}`);
const anchorsAnywhere = patternOf(true).map(unnamed);
/** Look-aheads after a leading `^`, a look-behind before a trailing `$`, beside a plain alternative. */
const withLookArounds = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom("?=", "?!"), anchorsAnywhere), { maxLength: 2 }),
    anchorsAnywhere,
    fc.option(fc.tuple(fc.constantFrom("?<=", "?<!"), anchorsAnywhere)),
    fc.option(anchorsAnywhere),
  )
  .map(([aheads, body, behind, other]) => {
    const head = `^${aheads.map(([kind, p]) => `(${kind}${p})`).join("")}`;
    const tail = behind === null ? "" : `(${behind[0]}${behind[1]})$`;
    return `${head}${body}${tail}${other === null ? "" : `|${other}`}`;
  });

/** Checks an automaton per pattern against RegExp on generated patterns and strings: by default
 *  the string token searching for the pattern, which must accept what RegExp matches; returns
 *  how many patterns were over the (lowered) state limit, a legitimate typed outcome. */
function agreeOnGenerated(
  patterns: fc.Arbitrary<string>,
  runs: number,
  automatonOf: (p: string) => GrammarAutomaton = (p) => contentDfa(p, 20_000),
  accepted: (re: RegExp, s: string) => boolean = (re, s) => re.test(s),
): number {
  let tooLarge = 0;
  fc.assert(
    fc.property(patterns, fc.array(text, { minLength: 5, maxLength: 5 }), (p, strings) => {
      const re = new RegExp(p, "u");
      let dfa: GrammarAutomaton;
      try {
        dfa = automatonOf(p);
      } catch (e) {
        if (e instanceof PocketExtractError && e.code === "AUTOMATON_TOO_LARGE") return void tooLarge++;
        if (e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE") {
          // The automaton has nothing to accept: neither may RegExp's verdict.
          for (const s of strings) expect(accepted(re, s), `${p} on ${JSON.stringify(s)}`).toBe(false);
          return;
        }
        throw e;
      }
      for (const s of strings) expect(matches(dfa, s), `${p} on ${JSON.stringify(s)}`).toBe(accepted(re, s));
    }),
    { numRuns: runs },
  );
  return tooLarge;
}

describe("regex -> automaton agrees with RegExp (u flag, search semantics)", () => {
  it("on generated patterns and strings", () => {
    // Byte-level subset construction over wide classes can exceed the (lowered) limit: that is a
    // legitimate, typed outcome, but it must stay rare; every pattern that compiles must agree.
    // The reference is V8's backtracking RegExp, which takes seconds on a few random patterns
    // (about 3 in 20,000 samples; one 8-character string took 5.6 s), hence the time limit; the
    // automaton's own work is bounded by its budget (tested below).
    const runs = 200;
    const tooLarge = agreeOnGenerated(anchored, runs);
    console.log(`generated patterns: ${runs - tooLarge} compiled and agreed, ${tooLarge} over the state limit`);
    // About 13% are over (397 of 3,000 runs, against 376 on the tree before): a fifth was 2.8
    // standard deviations above and failed one run in a few hundred; a quarter is 5 above, so
    // this fails only when the rate itself grows.
    expect(tooLarge).toBeLessThan(runs / 4);
  }, 300_000);

  it("with ^ and $ anywhere (ECMAScript without the m flag: position 0 and the end)", () => {
    const runs = 200;
    const tooLarge = agreeOnGenerated(anchorsAnywhere, runs);
    console.log(`patterns with anchors anywhere: ${runs - tooLarge} compiled and agreed, ${tooLarge} over the state limit`);
    expect(tooLarge).toBeLessThan(runs / 5);
  }, 300_000);

  it("with look-aheads after a leading ^ and look-behinds before a trailing $", () => {
    const runs = 200;
    const tooLarge = agreeOnGenerated(withLookArounds, runs);
    console.log(`patterns with look-arounds: ${runs - tooLarge} compiled and agreed, ${tooLarge} over the state limit`);
    expect(tooLarge).toBeLessThan(runs / 5);
  }, 300_000);

  it("on common JSON Schema patterns", () => {
    const cases: [string, string[]][] = [
      ["^\\d{4}-\\d{2}-\\d{2}$", ["2024-01-31", "2024-1-31", "x2024-01-31", "2024-01-311"]],
      ["^[A-Z]{2}\\d+$", ["AB12", "ab12", "AB", "ABC1"]],
      ["@", ["a@b", "ab", "@"]],
      ["^(\\([0-9]{3}\\))?[0-9]{3}-[0-9]{4}$", ["(888)555-1212", "555-1212", "(888)555-1212 ext. 532"]],
      ["^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", ["me@example.com", "me@example", "m e@x.io"]],
      ["a|^b|c$", ["xa", "bx", "xb", "cx", "xc"]],
      ["^$", ["", "a"]],
      ["", ["", "anything"]],
      ["[^]", ["", "a"]],
      ["^\\p{Script=Han}+$", ["中文", "中a"]],
      ["^\\p{L}\\P{Lu}*$", ["Ab", "AB", "中a", "1a"]],
      ["x{2,3}", ["x", "xx", "axxxa"]],
      ["(?:^|\\r?\\n)abc", ["abc", "x\nabc", "xabc", "x\r\nabcd", "ab"]],
      ["(^a|b)+c", ["ac", "bc", "abbc", "xac", "xbc", "aac", "xabc"]],
      ["^(^a|b)*$", ["abb", "ab", "bab", "", "ba", "aab"]],
      ["^(a$|b)*$", ["bba", "bab", "a", "", "aa"]],
      ["^(^a|b$|c)*$", ["acb", "acbc", "cab", "ab", "a", "b", ""]],
      ["a$|^b", ["xa", "ax", "bx", "xb"]],
      ["^(?=.*[a-z])(?=.*\\d)[a-z\\d]{4,}$", ["abc1", "abcd", "1234", "ab1", "a1b2c3", "a1b2c3!"]],
      ["^(?!.*\\.\\.)[a-z.]+$", ["a.b", "a..b", ".", "", "ab.."]],
      ["^(?!(?:foo|bar)$)\\w+$", ["foo", "bar", "food", "baz", ""]],
      ["^[a-z-]+(?<!-)$", ["ab", "ab-", "a-b", "-"]],
      ["^(?=a)|b(?<!ab)$", ["a", "xb", "ab", "b", "c"]],
    ];
    for (const [p, strings] of cases) {
      const dfa = contentDfa(p);
      const re = new RegExp(p, "u");
      for (const s of strings) expect(matches(dfa, s), `${p} on ${JSON.stringify(s)}`).toBe(re.test(s));
    }
  });
});

const errorOf = (p: string): PatternError => {
  try {
    parseRegex(p);
    contentDfa(p);
  } catch (e) {
    if (e instanceof PatternError) return e;
    throw e;
  }
  throw new Error(`pattern ${p} was accepted`);
};

describe("strings a pattern does not match (not: {pattern}, the string token's excluded patterns)", () => {
  it("accepts exactly the strings in which the pattern finds no match", () => {
    const excluding = (p: string): GrammarAutomaton => buildAutomaton(grammar(jsonString(0, Infinity, { excludePatterns: [p] })), { maxStates: 20_000 });
    const tooLarge = agreeOnGenerated(anchorsAnywhere, 150, excluding, (re, s) => !re.test(s));
    expect(tooLarge).toBeLessThan(30);
  }, 300_000);
});

/**
 * Checks `combined` (one pattern for all of `patterns`) on `strings`: it matches exactly where
 * every pattern does. Returns false when its automaton is past the test's size limit.
 */
function matchesAll(combined: string | undefined, patterns: readonly string[], strings: readonly string[]): boolean {
  const what = patterns.join(" and ");
  expect(combined, what).toBeDefined();
  const res = patterns.map((p) => new RegExp(p, "u"));
  const all = (s: string): boolean => res.every((re) => re.test(s));
  let dfa: GrammarAutomaton;
  try {
    dfa = contentDfa(combined!, 20_000);
  } catch (e) {
    if (e instanceof PocketExtractError && e.code === "AUTOMATON_TOO_LARGE") return false;
    if (!(e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE")) throw e;
    for (const s of strings) expect(all(s), `${what} on ${JSON.stringify(s)}`).toBe(false);
    return true;
  }
  for (const s of strings) expect(matches(dfa, s), `${what} on ${JSON.stringify(s)}`).toBe(all(s));
  return true;
}

describe("two patterns as one (allOf)", () => {
  it("matches exactly the strings both patterns match", () => {
    let tooLarge = 0;
    fc.assert(
      fc.property(anchorsAnywhere, anchorsAnywhere, fc.array(text, { minLength: 5, maxLength: 5 }), (a, b, strings) => {
        if (!matchesAll(bothPatterns(a, b), [a, b], strings)) tooLarge++;
      }),
      { numRuns: 150 },
    );
    expect(tooLarge).toBeLessThan(30);
  }, 300_000);

  it("combines a combined pattern again without nesting look-aheads (allOf with three patterns)", () => {
    let tooLarge = 0;
    fc.assert(
      fc.property(anchorsAnywhere, anchorsAnywhere, anchorsAnywhere, fc.array(text, { minLength: 5, maxLength: 5 }), (a, b, c, strings) => {
        const ab = bothPatterns(a, b);
        expect(ab, `${a} and ${b}`).toBeDefined();
        expect(bothPatterns(c, ab!), "either side may be the combined one").toBeDefined();
        if (!matchesAll(bothPatterns(ab!, c), [a, b, c], strings)) tooLarge++;
      }),
      { numRuns: 80 },
    );
    expect(tooLarge).toBeLessThan(20);
  }, 300_000);
});

describe("edge cases", () => {
  it("reads a pattern once: the same source gives the same language, and a refused one is refused again", () => {
    const written = "^[a-z]+\\:$"; // read as its Unicode-mode form, `^[a-z]+:$`
    const first = patternLanguage(written);
    expect(patternLanguage(written)).toBe(first);
    for (let i = 0; i < 2; i++) expect(() => patternLanguage("(a")).toThrow(PatternError);
    // clearSharedAutomata lets go of what was read, as of the automata.
    clearSharedAutomata();
    expect(patternLanguage(written)).not.toBe(first);
    expect(patternLanguage(written)).toEqual(first);
  });

  it("refuses, as unsatisfiable, patterns whose anchors leave no match", () => {
    for (const p of ["/^[0-9]{4}$/", "x(^|$)y", "a^", "$a", "^(?!)", "^(?=a)(?!a)"]) {
      expect(() => contentDfa(p), p).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE" }));
      expect(["", "a", "x", "/2024/", "xy"].some((s) => new RegExp(p, "u").test(s)), p).toBe(false);
    }
  });


  it("treats a lone brace as a literal (Annex B), refuses `{,n}` (a quantifier in Python), and an empty class matches nothing", () => {
    const brace = contentDfa("a{x,2}");
    expect(matches(brace, "xa{x,2}")).toBe(true);
    expect(matches(brace, "aa")).toBe(false);
    expect(() => contentDfa("a{,2}")).toThrow(expect.objectContaining({ code: "PATTERN_UNSUPPORTED" }));
    expect(() => contentDfa("[]")).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE" }));
  });
});

describe("unsupported and invalid patterns", () => {
  it("rejects misplaced look-arounds, back-references and word boundaries with their position", () => {
    const cases: [string, string, number][] = [
      ["a(?=b)", "look-ahead", 1],
      ["(?!b)", "look-ahead", 0],
      ["x(?<=b)", "look-behind", 1],
      ["(?<!b)", "look-behind", 0],
      ["(a)\\1", "back-reference", 3],
      ["(?<n>a)\\k<n>", "back-reference", 7],
      ["\\bword", "word boundary", 0],
      ["a\\B", "non-word-boundary", 1],
      ["a(?!b)$", "look-ahead", 1],
      ["^a(?<=b)", "look-behind", 2],
      ["^(?:(?!a)b)*$", "look-ahead", 4],
      ["^(?=(?!a)b)", "look-ahead", 4],
      ["(^a){17}", "anchor in a group repeated", 1],
      ["\\Aabc\\z", "unknown escape \\A", 0],
      ["(?i)a", "modifier", 0],
    ];
    for (const [p, what, position] of cases) {
      const e = errorOf(p);
      expect(e.code, p).toBe("PATTERN_UNSUPPORTED");
      expect(e.message, p).toContain(what);
      expect(e.position, p).toBe(position);
      expect(e).toBeInstanceOf(PocketExtractError);
    }
  });

  it("rejects syntax errors as PATTERN_INVALID", () => {
    for (const p of ["(a", "a)", "[a", "*a", "a{3,2}", "[z-a]", "\\", "a**", "\\u{110000}", "\\p{NotAProperty}x"]) {
      const e = errorOf(p);
      expect(["PATTERN_INVALID", "PATTERN_UNSUPPORTED"], p).toContain(e.code);
    }
    expect(errorOf("(a").code).toBe("PATTERN_INVALID");
  });

  it("bounds the work of exploding quantifiers", () => {
    const t0 = performance.now();
    let code: string | undefined;
    try {
      buildAutomaton(grammar(jsonString(0, Infinity, { pattern: "^(a{1,100}){1,100}$" })));
    } catch (e) {
      code = e instanceof PocketExtractError ? e.code : undefined;
    }
    expect(code).toBe("AUTOMATON_TOO_LARGE");
    console.log(`(a{1,100}){1,100} rejected in ${(performance.now() - t0).toFixed(0)} ms`);
  });
});
