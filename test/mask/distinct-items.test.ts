/**
 * uniqueItems over unbounded strings, kept by the matcher (src/mask/distinct-items.ts,
 * distinct-guard.ts) on the 64K fixture vocabulary: acceptance equals ajv's verdict under the
 * canonical and random tokenizations, every token a mask allows leads to a document that can be
 * completed (and the matcher's completion is one), rollback restores masks exactly, serialized
 * grammars keep the constraint, and the compile report says who enforces it.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar, loadCompiledGrammar, type Matcher, type TokenGrammar } from "../../src/mask/index.js";
import { DISTINCT_ALL } from "../../src/automaton/index.js";
import { DistinctItems } from "../../src/mask/distinct-items.js";
import type { MaskAutomaton } from "../../src/mask/mask-types.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { hasBit, nthSetBit, popcount } from "../../src/util/bitset.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import { compileValidator } from "../../src/validate/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { firstDifference, randomTokenization } from "../support/token-walk.js";

const strings = { type: "string" } as const;
const SCHEMAS: Record<string, JsonSchemaObject> = {
  plain: { type: "array", uniqueItems: true, items: strings },
  nonEmpty: { type: "array", uniqueItems: true, items: { type: "string", minLength: 1 }, minItems: 2, maxItems: 6 },
  nested: { type: "array", items: { type: "array", uniqueItems: true, items: strings }, maxItems: 3 },
  inObject: {
    type: "object",
    properties: { tags: { type: "array", uniqueItems: true, items: { $ref: "#/definitions/tag" } }, name: strings },
    required: ["tags"],
    definitions: { tag: { type: "string", minLength: 1 } },
  },
  // Two ways to be an array: a duplicate leaves the one without uniqueItems, which then ends
  // the array after three items.
  either: { anyOf: [{ type: "array", uniqueItems: true, items: strings }, { type: "array", items: strings, maxItems: 3 }] },
};

/** Short strings from few characters (duplicates are frequent), with escapes and multi-byte
 *  characters (values decode differently than they are written; tokens split them). */
const item = fc.string({ unit: fc.constantFrom("a", "b", '"', "\\", "\n", "é", "蓝"), maxLength: 3 });
const array = fc.array(item, { maxLength: 6 });
const DOCUMENTS: Record<string, fc.Arbitrary<unknown>> = {
  plain: array,
  nonEmpty: array,
  nested: fc.array(array, { maxLength: 3 }),
  inObject: fc.record({ tags: array, name: item }, { requiredKeys: ["tags"] }),
  either: array,
};

let vocab: Vocabulary;
const grammars = new Map<string, TokenGrammar>();

beforeAll(async () => {
  vocab = await fixtureVocabulary();
  for (const [name, schema] of Object.entries(SCHEMAS)) grammars.set(name, compileGrammar(schema, vocab, { mode: "jsonschema", format: "compact" }).tokens);
});

/** Feeds `ids` checking each against the mask; true when all are allowed and the document is complete. */
function accepts(matcher: Matcher, ids: readonly number[], mask: Uint32Array): boolean {
  for (const id of ids) {
    matcher.fillMask(mask);
    const allowed = hasBit(mask, id);
    expect(matcher.allows(id), `allows agrees with the mask on ${id}`).toBe(allowed);
    if (!allowed) return false;
    expect(matcher.accept(id)).toBe(true);
  }
  return matcher.isComplete();
}

describe("uniqueItems over unbounded strings, kept by the matcher", () => {
  it("accepts a document exactly when ajv finds it valid (canonical and random tokenizations)", () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      const grammar = grammars.get(name)!;
      const validate = compileValidator(schema);
      const mask = new Uint32Array(grammar.maskWords);
      fc.assert(
        fc.property(DOCUMENTS[name]!, fc.integer(), (value, seed) => {
          const text = JSON.stringify(value);
          const valid = validate(value);
          expect(accepts(grammar.matcher(), vocab.encode(text), mask), `${name} canonical: ${text}`).toBe(valid);
          const random = randomTokenization(grammar, new TextEncoder().encode(text), mulberry32(seed));
          expect(accepts(grammar.matcher(), random, mask), `${name} random: ${text}`).toBe(valid);
        }),
        { numRuns: 150, seed: 19 },
      );
    }
  });

  it("refuses a repeated item however it is written or split, and allows a fresh one", () => {
    const grammar = grammars.get("plain")!;
    const mask = new Uint32Array(grammar.maskWords);
    expect(accepts(grammar.matcher(), vocab.encode('["a\\"b","a\\"b"]'), mask)).toBe(false);
    expect(accepts(grammar.matcher(), vocab.encode('["\\n","\\\\n"]'), mask)).toBe(true);
    expect(accepts(grammar.matcher(), vocab.encode('["蓝","蓝色","蓝"]'), mask)).toBe(false);
    const bytes = new TextEncoder().encode('["蓝","a","蓝"]');
    for (let seed = 1; seed <= 5; seed++) expect(accepts(grammar.matcher(), randomTokenization(grammar, bytes, mulberry32(seed)), mask)).toBe(false);
  });

  it("never dead-ends: every allowed token of sampled states leads to a valid completion", () => {
    // Walks start inside arrays that already hold items (the states where tokens are refused).
    const starts: Record<string, string> = { plain: '["a","b","', nonEmpty: '["a","b","', nested: '[["a","b"],["a","', inObject: '{"tags":["a","b","', either: '["a","a","' };
    for (const [name, grammar] of grammars) {
      const validate = compileValidator(SCHEMAS[name]!);
      const mask = new Uint32Array(grammar.maskWords);
      for (let seed = 1; seed <= 3; seed++) {
        const random = mulberry32(seed);
        const matcher = grammar.matcher();
        const start = seed === 1 ? "" : starts[name]!;
        for (const id of vocab.encode(start)) expect(matcher.accept(id)).toBe(true);
        let text = [...new TextEncoder().encode(start)];
        for (let step = 0; step < 12 && !matcher.isClosed(); step++) {
          matcher.fillMask(mask);
          for (const eos of vocab.eosIds) mask[eos >>> 5]! &= ~(1 << (eos & 31));
          const n = popcount(mask);
          if (n === 0) break;
          // Allowed tokens with a quote (the ones that can end items), and a few others.
          for (const id of setBits(mask)) {
            if (random() > (vocab.bytes(id).includes(0x22) ? 0.15 : 0.001)) continue;
            expect(matcher.accept(id)).toBe(true);
            const completion = matcher.shortestCompletion();
            expect(matcher.acceptBytes(completion.bytes), `${name}: completing after token ${id}`).toBe(true);
            expect(matcher.isComplete()).toBe(true);
            const doc = utf8.decode(Uint8Array.from([...text, ...vocab.bytes(id), ...completion.bytes]));
            expect(validate(JSON.parse(doc)), `${name}: ${doc}`).toBe(true);
            matcher.rollback(2);
          }
          const id = nthSetBit(mask, Math.floor(random() * n));
          expect(matcher.accept(id)).toBe(true);
          text = [...text, ...vocab.bytes(id)];
        }
      }
    }
  }, 600_000);

  it("compares decoded values: an escaped spelling of an earlier item repeats it", () => {
    // The grammars write canonical escapes only; the tracker itself decodes any JSON escape.
    const everyConfigurationDistinct = { distinctMark: () => DISTINCT_ALL } as unknown as MaskAutomaton;
    const read = (text: string): boolean => {
      const items = new DistinctItems(everyConfigurationDistinct);
      return [...new TextEncoder().encode(text)].every((b) => items.step(b, 0));
    };
    expect(read('["a","\\u0061"]')).toBe(false);
    expect(read('["\\ud83d\\ude00","😀"]')).toBe(false);
    expect(read('["\\/","/"]')).toBe(false);
    expect(read('["a","\\u0062","\\\\u0061"]')).toBe(true);
  });

  it("rolls back exactly: masks after a rollback equal a fresh matcher's at the same text", () => {
    const grammar = grammars.get("nonEmpty")!;
    const a = new Uint32Array(grammar.maskWords);
    const b = new Uint32Array(grammar.maskWords);
    const ids = vocab.encode('["ab","cd","ef","ab x"]');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: ids.length }), fc.integer({ min: 0, max: ids.length }), (upTo, back) => {
        const m = grammar.matcher();
        for (const id of ids.slice(0, upTo)) expect(m.accept(id)).toBe(true);
        const keep = Math.max(0, upTo - back);
        m.rollback(upTo - keep);
        const fresh = grammar.matcher();
        for (const id of ids.slice(0, keep)) expect(fresh.accept(id)).toBe(true);
        m.fillMask(a);
        fresh.fillMask(b);
        expect(firstDifference(a, b)).toBe(-1);
        expect(m.shortestCompletion().bytes).toEqual(fresh.shortestCompletion().bytes);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it("a serialized grammar carries the distinct arrays, before and after it rebuilds", () => {
    const schema = SCHEMAS.inObject!;
    const original = compileGrammar(schema, vocab, { mode: "jsonschema", format: "compact", cache: false });
    const loaded = loadCompiledGrammar(original.serialize(), vocab).tokens;
    const mask = new Uint32Array(loaded.maskWords);
    expect(loaded.automaton.hasDistinct).toBe(true);
    expect(accepts(loaded.matcher(), vocab.encode('{"tags":["x","x"]}'), mask)).toBe(false);
    // Past the serialized states (a name the original never reached): rebuilt from the source.
    expect(accepts(loaded.matcher(), vocab.encode('{"tags":["y","z","y"],"name":"q"}'), mask)).toBe(false);
    expect(accepts(loaded.matcher(), vocab.encode('{"tags":["y","z"],"name":"q"}'), mask)).toBe(true);
  });

  it("the compile report says the matcher enforces it; bounded or patterned strings stay checked after decoding", () => {
    const report = (items: object): { after: string[]; notes: string } => {
      const r = compileSchema({ type: "array", uniqueItems: true, items }, { mode: "jsonschema" }).report;
      return { after: r.validatedAfter.map((u) => u.keyword), notes: JSON.stringify(r) };
    };
    const open = report({ type: "string", minLength: 1 });
    expect(open.after).toEqual([]);
    expect(open.notes).toContain("the matcher refuses an item equal to an earlier one");
    expect(report({ type: "string", maxLength: 10 }).after).toEqual(["uniqueItems"]);
    expect(report({ type: "string", pattern: "^a" }).after).toEqual(["uniqueItems"]);
    expect(report({ type: "object" }).after).toEqual(["uniqueItems"]);
  });
});

const utf8 = new TextDecoder();

function* setBits(mask: Uint32Array): Generator<number> {
  for (let w = 0; w < mask.length; w++) for (let bits = mask[w]!; bits !== 0; bits &= bits - 1) yield (w << 5) | (31 - Math.clz32(bits & -bits));
}
