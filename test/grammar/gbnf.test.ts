/**
 * Grammar text forms: GBNF printing and parsing round-trip to the same language (checked by exact
 * DFA equivalence of the built automata), the llama.cpp-compatible expansion, syntax errors, and
 * the Lark printer.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton, type GrammarAutomaton } from "../../src/automaton/index.js";
import { alt, chars, jsonString, lit, loadGrammarFile, parseGbnf, printGbnf, printLark, ref, repeat, seq, type Expr, type Grammar } from "../../src/grammar/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";

/** Exact language equality of two DFAs: breadth-first search over state pairs. */
function equivalent(a: GrammarAutomaton, b: GrammarAutomaton): boolean {
  const seen = new Set<string>();
  const queue: [number, number][] = [[a.start, b.start]];
  while (queue.length > 0) {
    const [x, y] = queue.pop()!;
    const key = `${x},${y}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const accX = x >= 0 && a.isAccepting(x);
    const accY = y >= 0 && b.isAccepting(y);
    if (accX !== accY) return false;
    if (x < 0 && y < 0) continue;
    for (let byte = 0; byte < 256; byte++) queue.push([x < 0 ? -1 : a.step(x, byte), y < 0 ? -1 : b.step(y, byte)]);
  }
  return true;
}

const roundTrip = (g: Grammar): void => {
  const text = printGbnf(g);
  const back = parseGbnf(text);
  expect(printGbnf(back)).toBe(text);
  expect(equivalent(buildAutomaton(g), buildAutomaton(back))).toBe(true);
};

describe("GBNF round trip", () => {
  it("grammars/*.gbnf files", () => {
    for (const [file, start] of [["json", "value"], ["datetime", "date-time"], ["datetime", "duration"], ["network", "email"], ["network", "ipv6"], ["network", "uri-reference"], ["uuid", "uuid"]] as const) {
      const g = loadGrammarFile(file);
      roundTrip({ start, rules: g.rules });
    }
  });
  it("compiled schemas (strings with patterns and exclusions, unicode and control characters)", () => {
    const schema = {
      type: "object",
      properties: { "ключ\"\n": { const: "😀\u0001\\" }, b: { type: "string", pattern: "^[a-z]+\"$" }, c: { type: "integer", minimum: -20, maximum: 1234 } },
      patternProperties: { "^x-": { type: "boolean" } },
      additionalProperties: { type: "array", items: { enum: [1, "two", null] }, maxItems: 3 },
    };
    for (const format of ["compact", "flexible"] as const) roundTrip(compileSchema(schema, { mode: "jsonschema", format }).grammar);
  });
  it("random expressions", () => {
    const unit = fc.integer({ min: 0, max: 0x2fff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c));
    const range = fc.tuple(fc.integer({ min: 0, max: 0x10ffff }), fc.nat(300)).filter(([lo]) => lo < 0xd800 || lo > 0xdfff).map(([lo, n]) => [lo, Math.min(0x10ffff, lo + n)] as const);
    const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
      e: fc.oneof(
        { maxDepth: 3, depthIdentifier: "e" },
        fc.string({ unit, maxLength: 4 }).map(lit),
        fc.uniqueArray(range, { minLength: 1, maxLength: 3, selector: (r) => r[0] }).map((rs) => {
          const sorted = [...rs].sort((x, y) => x[0] - y[0]);
          const merged: [number, number][] = [];
          for (const [lo, hi] of sorted) {
            const last = merged[merged.length - 1];
            if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
            else merged.push([lo, hi]);
          }
          return chars(...merged);
        }),
        fc.array(tie("e"), { maxLength: 3 }).map((items) => seq(...items)),
        fc.array(tie("e"), { minLength: 1, maxLength: 3 }).map((items) => alt(...items)),
        fc.tuple(tie("e"), fc.nat(2), fc.oneof(fc.nat(2), fc.constant(Infinity))).map(([e, min, extra]) => repeat(e, min, min + extra)),
        fc.record({ min: fc.nat(2), extra: fc.nat(3), exclude: fc.array(fc.string({ unit, maxLength: 2 }), { maxLength: 2 }) }).map((o) => jsonString({ minLength: o.min, maxLength: o.min + o.extra, exclude: o.exclude })),
        fc.constant(ref("helper")),
      ),
    })).e;
    fc.assert(
      fc.property(exprArb, (e) => {
        const g: Grammar = { start: "start", rules: new Map<string, Expr>([["start", e], ["helper", alt(lit("h"), seq(lit("\\"), chars([0x22, 0x22])))]]) };
        let dfa: GrammarAutomaton;
        try {
          dfa = buildAutomaton(g);
        } catch {
          return; // empty language or over budget: nothing to compare
        }
        const back = parseGbnf(printGbnf(g));
        expect(equivalent(dfa, buildAutomaton(back))).toBe(true);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe("GBNF dialect", () => {
  it("parses comments, multi-line rules and negated classes", () => {
    const g = parseGbnf('# comment\nroot ::= "a"\n  | b # trailing\nb ::= [^a-z]{2,}\n');
    const dfa = buildAutomaton(g);
    expect(equivalent(dfa, buildAutomaton({ start: "r", rules: new Map([["r", alt(lit("a"), repeat(chars([0, 0x60], [0x7b, 0xd7ff], [0xe000, 0x10ffff]), 2, Infinity))]]) }))).toBe(true);
  });
  it("syntax errors are GRAMMAR_SYNTAX with a line number", () => {
    expect(() => parseGbnf('root ::= "a\n')).toThrow(expect.objectContaining({ code: "GRAMMAR_SYNTAX" }));
    expect(() => parseGbnf("root ::= x\n")).toThrow(/undefined rule "x"/);
    expect(() => parseGbnf('root ::= "a"\nroot ::= "b"\n')).toThrow(/line 2/);
    expect(() => parseGbnf("root ::= [z-a]")).toThrow(/reversed range/);
  });
});

describe("Lark printing", () => {
  it("writes rules, repetition ranges and %json strings", () => {
    const g = compileSchema({ type: "object", properties: { a: { type: "string", maxLength: 5, pattern: "^x" } }, required: ["a"] }, { nullEscape: false }).grammar;
    const text = printLark(g);
    expect(text.split("\n")[0]).toBe('start: "{\\"a\\":" %json {"type":"string","maxLength":5,"pattern":"^x"} "}"');
    const exprText = printLark({ start: "s", rules: new Map([["s", repeat(chars([0x61, 0x7a]), 2, 4)]]) });
    expect(exprText).toBe("start: /[a-z]/ ~ 2..4\n");
  });
});
