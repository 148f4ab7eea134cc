/**
 * Verbatim values agree with their grounding: the verbatim grammar admits exactly the substrings
 * of the text that start and end at word boundaries (Latin words whole, CJK characters one by
 * one) and not on whitespace, and grounding reports every one of them `found` with a span that
 * reads the value. Checked against a brute-force oracle over every substring of generated
 * zh/en texts, for the plain verbatim automaton and for the bounded one (substrings.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton, type GrammarAutomaton } from "../../../src/automaton/index.js";
import { VerbatimAutomaton } from "../../../src/automaton/strings/index.js";
import { PocketExtractError } from "../../../src/errors.js";
import { isWordCodePoint } from "../../../src/util/word-chars.js";
import { groundFields } from "../../../src/ground/index.js";
import { accepts, grammar, uncompletableStates } from "../helpers.js";

const PIECES = ["Emily", "Em", "Chen", "a", "I", "42", "2026", "x7", "王小明", "杭州", "的", "，", "。", " ", "  ", "-", "'", "\"", "(", ")", "Ｅｍ", "é", "😀", "\n", "\\", "\t"];
const textArb = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((xs) => xs.join(""));

const isSpace = (ch: string): boolean => /^\s$/u.test(ch);

/** The oracle: every substring a verbatim value may be, by code point positions. */
function admissible(text: string): Set<string> {
  const cps = Array.from(text);
  const word = (i: number): boolean => i >= 0 && i < cps.length && isWordCodePoint(cps[i]!.codePointAt(0)!);
  const boundary = (i: number): boolean => !(word(i - 1) && word(i));
  const out = new Set<string>();
  for (let i = 0; i < cps.length; i++) {
    if (!boundary(i) || isSpace(cps[i]!)) continue;
    for (let j = i + 1; j <= cps.length; j++) if (boundary(j) && !isSpace(cps[j - 1]!)) out.add(cps.slice(i, j).join(""));
  }
  return out;
}

function allSubstrings(text: string): Set<string> {
  const cps = Array.from(text);
  const out = new Set<string>();
  for (let i = 0; i < cps.length; i++) for (let j = i + 1; j <= cps.length; j++) out.add(cps.slice(i, j).join(""));
  return out;
}

/** The verbatim grammar of `text`, or null when it admits no value (SCHEMA_UNSATISFIABLE). */
function verbatimGrammar(text: string, maxLength = Infinity): GrammarAutomaton | null {
  try {
    return buildAutomaton(grammar({ kind: "jsonString", minLength: 0, maxLength, substringOf: text }));
  } catch (e) {
    if (e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE") return null;
    throw e;
  }
}

describe("verbatim grammar: word-aligned substrings, each one found by grounding", () => {
  it("admits exactly the word-aligned substrings, and grounding finds each with its own span", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const want = admissible(text);
        const dfa = verbatimGrammar(text);
        expect(dfa === null).toBe(want.size === 0);
        if (dfa === null) return;
        for (const s of allSubstrings(text)) expect(accepts(dfa, JSON.stringify(s)), `${JSON.stringify(s)} in ${JSON.stringify(text)}`).toBe(want.has(s));
        const values = [...want];
        const reports = groundFields(values, text);
        reports.forEach((r, k) => {
          expect(r.status, `${JSON.stringify(values[k])} in ${JSON.stringify(text)}`).toBe("found");
          expect(text.slice(r.best!.start, r.best!.end)).toBe(values[k]);
          expect(r.best!.match).toBe("exact");
        });
      }),
      { numRuns: 300 },
    );
  });

  it("the bounded form (maxLength) admits the word-aligned substrings within the bound", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 8 }), (text, max) => {
        const dfa = verbatimGrammar(text, max);
        const want = new Set([...admissible(text)].filter((s) => Array.from(s).length <= max));
        expect(dfa === null).toBe(want.size === 0);
        if (dfa === null) return;
        for (const s of allSubstrings(text)) expect(accepts(dfa, JSON.stringify(s)), JSON.stringify(s)).toBe(want.has(s));
      }),
      { numRuns: 150 },
    );
  });

  it("every state of the automaton can still finish a value (distances are exact)", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const dfa = verbatimGrammar(text);
        if (dfa !== null) expect(uncompletableStates(dfa, 2000), JSON.stringify(text)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it("no part words: Em is not a value of 'Emily Chen', Emily and Emily Chen are; 王 is a value of 王小明", () => {
    const dfa = verbatimGrammar("Call Emily Chen (王小明).")!;
    for (const ok of ["Emily", "Emily Chen", "Chen (王", "王", "小明", "Call Emily", ".", "(王小明)."]) expect(accepts(dfa, JSON.stringify(ok)), ok).toBe(true);
    for (const bad of ["Em", "mily", "Emily ", " Chen", "Cal", "hen (王"]) expect(accepts(dfa, JSON.stringify(bad)), bad).toBe(false);
  });

  it("a text of whitespace has no verbatim value", () => {
    expect(VerbatimAutomaton.of(" \n\t", "verbatim string")).toBeNull();
    expect(VerbatimAutomaton.of("", "verbatim string")).toBeNull();
  });
});
