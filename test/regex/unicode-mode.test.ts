import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton } from "../../src/automaton/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { PatternError, unicodeModeSource } from "../../src/regex/index.js";
import { validate } from "../../src/validate/index.js";
import { accepts, grammar, jsonString } from "../automaton/helpers.js";
import { expectLanguage } from "../schema-compiler/support/expect.js";

/** Patterns valid only without the u flag: escapes of characters that need none, lone braces. */
const annexBAtom = fc.constantFrom("\\:", "\\_", "\\-", "\\<", "\\>", "\\'", '\\"', "\\@", "\\ ", "\\=", "\\!", "\\,", "\\~", "\\#", "[\\@\\-a]", "[\\:_]", "{", "}", "a{x}", "]", "a", "b", ":", "\\d", "[^a]", ".");
const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,2}");
const annexBPattern = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(annexBAtom, quantifier), { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([s, items, e]) => `${s ? "^" : ""}${items.map(([a, q]) => (a.endsWith("}") && q.startsWith("{") ? a : a + q)).join("")}${e ? "$" : ""}`)
  .filter((p) => {
    try {
      new RegExp(p);
      return true;
    } catch {
      return false;
    }
  });
/** BMP text only: without the u flag an astral character is two units, which no other dialect reads. */
const text = fc.array(fc.constantFrom("a", "b", ":", "_", "-", "<", ">", "'", '"', "@", " ", "=", "!", ",", "~", "#", "{", "}", "]", "x", "1"), { maxLength: 8 }).map((a) => a.join(""));

describe("patterns valid only without the u flag (Annex B)", () => {
  it("read in Unicode mode as they read without it: grammar and validator both agree with RegExp without the u flag", () => {
    fc.assert(
      fc.property(annexBPattern, fc.array(text, { minLength: 4, maxLength: 4 }), (p, strings) => {
        const reference = new RegExp(p);
        const source = unicodeModeSource(p);
        expect(() => new RegExp(source, "u"), p).not.toThrow();
        const dfa = buildAutomaton(grammar(jsonString(0, Infinity, { pattern: p })));
        const schema = { type: "string", pattern: p };
        for (const s of strings) {
          const expected = reference.test(s);
          expect(accepts(dfa, JSON.stringify(s)), `${p} on ${JSON.stringify(s)}`).toBe(expected);
          expect(validate(s, schema).ok, `validator: ${p} on ${JSON.stringify(s)}`).toBe(expected);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it("compile in a schema, pattern and patternProperties alike", () => {
    const schema = { type: "object", properties: { time: { type: "string", pattern: "^\\d{2}\\:\\d{2}$" } }, patternProperties: { "^x\\-": { type: "integer" } }, additionalProperties: false };
    const compiled = compileSchema(schema);
    expect(compiled.grammar.rules.size).toBeGreaterThan(0);
    expect(validate({ time: "12:30", "x-a": 1 }, schema).ok).toBe(true);
    expect(validate({ time: "12-30" }, schema).ok).toBe(false);
    expect(validate({ "x-a": "text" }, schema).ok).toBe(false);
  });

  it("are decided the same way on enum values at compile time", () => {
    expectLanguage({ enum: ["a:b", "x:y"], pattern: "^a\\:" }, { mode: "jsonschema" }, ["a:b"], ["x:y"]);
  });

  it("keep patterns already valid in Unicode mode as written", () => {
    for (const p of ["^\\d+$", "\\u{1F600}", "\\p{L}", "[\\-a]", "\\/", "a{2}", "[^]"]) expect(unicodeModeSource(p)).toBe(p);
  });

  it("refuse, with a typed error, what other dialects read differently", () => {
    const cases: [string, string][] = [
      ["\\Z", "Unicode mode rejects it"], // an anchor in Python, the letter Z without the u flag
      ["\\a{", "Unicode mode rejects it"], // a bell in Python
      ["a{,2}", "'{,n}'"], // a quantifier in Python, text without the u flag
      ["\\p{L}{", "\\p escape"], // the letters p{L} without the u flag
      ["\\u{41}{", "\\u escape"], // 41 u's without the u flag
      ["[\\w-.]{", "Unicode mode rejects it"], // a class escape as a range bound
    ];
    for (const [p, detail] of cases) {
      let error: unknown;
      try {
        unicodeModeSource(p);
      } catch (e) {
        error = e;
      }
      expect(error, p).toBeInstanceOf(PatternError);
      expect((error as PatternError).code, p).toBe("PATTERN_UNSUPPORTED");
      expect((error as PatternError).message, p).toContain(detail);
      expect(() => compileSchema({ type: "string", pattern: p }), p).toThrow(expect.objectContaining({ code: "PATTERN_UNSUPPORTED", keyword: "pattern" }));
    }
    expect(() => unicodeModeSource("(a")).toThrow(expect.objectContaining({ code: "PATTERN_INVALID" }));
    expect(() => compileSchema({ type: "string", pattern: "(a" })).toThrow(expect.objectContaining({ code: "SCHEMA_INVALID" }));
  });
});
