/**
 * `printLlamaGbnf` checked against llama.cpp's own GBNF parser and matcher (node-llama-cpp's
 * grammar: `llama.createGrammar` parses the text, `isTextCompatible` runs the complete text
 * through llama.cpp's matcher). For each schema the printed grammar must load, and llama.cpp must
 * accept exactly the documents our automaton accepts; where the printer widens (listed in its
 * header), it must accept at least those.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { acceptsText, buildAutomaton } from "../../src/automaton/index.js";
import { jsonString, type Expr, type Grammar } from "../../src/grammar/index.js";
import { printLlamaGbnf, toLlamaGbnf } from "../../src/regex/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { Order, Person } from "../cli/fixtures/order.js";

const personJson: unknown = JSON.parse(readFileSync(new URL("../cli/fixtures/person.json", import.meta.url), "utf8"));

let llama: Llama;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
});

/** llama.cpp's verdict on a complete text (an internal node-llama-cpp method: the addon's matcher). */
type Matcher = (text: string) => boolean;
async function loadInLlama(gbnf: string): Promise<Matcher> {
  const grammar = await llama.createGrammar({ grammar: gbnf });
  const addon = (grammar as unknown as { _grammar: { isTextCompatible(text: string): boolean } })._grammar;
  return (text) => addon.isTextCompatible(text);
}

/** The grammar the extractor decodes with (as `inspect` compiles it). */
const extractionGrammar = (schema: unknown): Grammar => compileSchema(schema, { mode: "extraction", format: "compact" }).grammar;

async function expectSameVerdicts(grammar: Grammar, samples: readonly string[], minAccepted = 1): Promise<void> {
  const { text, approximations } = toLlamaGbnf(grammar);
  expect(approximations).toEqual([]);
  expect(text).not.toMatch(/%json-string|^#/m);
  const llamaAccepts = await loadInLlama(text);
  const ours = buildAutomaton(grammar);
  let accepted = 0;
  for (const sample of samples) {
    const verdict = acceptsText(ours, sample);
    accepted += verdict ? 1 : 0;
    expect(llamaAccepts(sample), sample).toBe(verdict);
  }
  expect(accepted).toBeGreaterThanOrEqual(minAccepted);
}

describe("printLlamaGbnf loads in llama.cpp and accepts what our grammar accepts", () => {
  it("the CLI test schemas (zod Order and Person, person.json)", async () => {
    await expectSameVerdicts(extractionGrammar(Order), [
      '{"product":"laptop","quantity":3,"price":999.5,"note":"gift"}',
      '{"product":"笔记本电脑","quantity":3,"price":null}',
      '{"product":"a \\"quoted\\" \\\\ name\\n","quantity":1,"price":-2}',
      '{"product":null,"quantity":3,"price":null}',
      '{"product":"x","quantity":0,"price":null}',
      '{"product":"x","quantity":3}',
      '{"product":"x\\/y","quantity":3,"price":null}',
      '{"product":"\\u0041","quantity":3,"price":null}',
      '{"product":"' + "x".repeat(200) + '","quantity":3,"price":null}',
      '{"product":"' + "x".repeat(201) + '","quantity":3,"price":null}',
      '{"product":"tab\there","quantity":3,"price":null}',
      '{"product":"\\u001f\\u000b\\b","quantity":3,"price":null}',
      '{"product":"\\u001F","quantity":3,"price":null}',
    ], 5);
    await expectSameVerdicts(extractionGrammar(Person), ['{"name":"Alice","age":31}', '{"name":"Bob","age":null}', '{"name":"Bob","age":3.5}', '{"age":3,"name":"B"}', "{}"]);
    await expectSameVerdicts(extractionGrammar(personJson), ['{"name":"Alice","age":31}', '{"name":"' + "n".repeat(40) + '","age":0}', '{"name":"' + "n".repeat(41) + '","age":0}', '{"name":"A","age":-1}']);
  });

  it("strings with bounds and patterns, enums, numbers and nested arrays", async () => {
    const schema = z.object({
      code: z.string().regex(/^[A-Z]{2}\d+$/),
      slug: z.string().min(2).max(5),
      kind: z.enum(["book", "film", "书"]),
      score: z.number().min(0).max(10),
      count: z.number().int().min(-5).max(1200),
      grid: z.array(z.array(z.number().int()).max(3)).min(1).max(2),
      tags: z.array(z.string().max(3)),
      year: z.string().regex(/^(19|20)\d\d$/),
    });
    const base = { code: "AB12", slug: "ab", kind: "book", score: 7.5, count: 12, grid: [[1, 2]], tags: ["a"], year: "1999" };
    const doc = (patch: Record<string, unknown>): string => JSON.stringify({ ...base, ...patch });
    await expectSameVerdicts(extractionGrammar(schema), [
      doc({}),
      doc({ code: `AB${"1".repeat(198)}` }),
      doc({ code: `AB${"1".repeat(199)}` }),
      doc({ code: "A12" }),
      doc({ code: "AB" }),
      doc({ slug: "a" }),
      doc({ slug: "abcde" }),
      doc({ slug: "abcdef" }),
      doc({ kind: "书" }),
      doc({ kind: "books" }),
      doc({ score: 10 }),
      doc({ score: 10.5 }),
      doc({ count: -5 }),
      doc({ count: -6 }),
      doc({ count: 1200 }),
      doc({ count: 1201 }),
      doc({ grid: [] }),
      doc({ grid: [[], [1, 2, 3]] }),
      doc({ grid: [[1, 2, 3, 4]] }),
      doc({ grid: [[1], [2], [3]] }),
      doc({ tags: [] }),
      doc({ tags: ["abcd"] }),
      doc({ year: "2026" }),
      doc({ year: "2126" }),
    ], 8);
  });

  it("excluded names, long bounds and empty languages (IR strings)", async () => {
    const unit = fc.constantFrom("a", "b", "ab", "\\", '"', "\n", "é", "😀", "\u0001");
    const spec = fc.record({ min: fc.nat(2), extra: fc.oneof(fc.nat(3), fc.constant(Infinity)), exclude: fc.array(fc.string({ unit, maxLength: 3 }), { maxLength: 3 }) });
    const texts = fc.array(fc.string({ unit, maxLength: 5 }), { minLength: 12, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(spec, texts, async ({ min, extra, exclude }, contents) => {
        const g: Grammar = { start: "s", rules: new Map<string, Expr>([["s", jsonString({ minLength: min, maxLength: min + extra, exclude })]]) };
        await expectSameVerdicts(g, [...contents, ...exclude].map((c) => JSON.stringify(c)), 0);
      }),
      { numRuns: 40, seed: 11 },
    );
    const long: Grammar = { start: "s", rules: new Map<string, Expr>([["s", jsonString({ minLength: 2500, maxLength: 4321 })]]) };
    await expectSameVerdicts(long, [2499, 2500, 3000, 4321, 4322].map((n) => JSON.stringify("y".repeat(n))), 3);
  });
});

describe("widenings are marked", () => {
  it("a pattern under bounds it does not imply, exclusions next to a pattern, excluded patterns, verbatim sources", async () => {
    const cases: { spec: Parameters<typeof jsonString>[0]; mark: RegExp; inOurs: string[]; notInOurs: string[] }[] = [
      { spec: { pattern: "a|b", maxLength: 3 }, mark: /length 0\.\.3 not enforced on pattern "a\|b"/, inOurs: ["xab", "a"], notInOurs: ["xxxxa"] },
      { spec: { pattern: "^x", exclude: ["xy"], maxLength: 9 }, mark: /excluded names "xy" not enforced/, inOurs: ["x", "xz"], notInOurs: ["xy"] },
      { spec: { excludePatterns: ["^a"], maxLength: 4 }, mark: /excluded patterns "\^a" not enforced/, inOurs: ["b", "ba"], notInOurs: ["ab"] },
      { spec: { substringOf: "Emily Chen", maxLength: 20 }, mark: /verbatim text/, inOurs: ["Emily", "Chen", "Emily Chen"], notInOurs: ["hen Emily"] },
    ];
    for (const { spec, mark, inOurs, notInOurs } of cases) {
      const g: Grammar = { start: "s", rules: new Map<string, Expr>([["s", jsonString(spec)]]) };
      const text = printLlamaGbnf(g);
      expect(text.split("\n")[0]).toMatch(/^# APPROXIMATION: /);
      expect(text).toMatch(mark);
      const llamaAccepts = await loadInLlama(text);
      const ours = buildAutomaton(g);
      for (const s of inOurs.map((t) => JSON.stringify(t))) expect([acceptsText(ours, s), llamaAccepts(s)], s).toEqual([true, true]);
      // The widening is real: llama.cpp accepts these, ours does not.
      for (const s of notInOurs.map((t) => JSON.stringify(t))) expect([acceptsText(ours, s), llamaAccepts(s)], s).toEqual([false, true]);
      expect(llamaAccepts("not a string")).toBe(false);
    }
  });
});
