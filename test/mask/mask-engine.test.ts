import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar, type TokenGrammar } from "../../src/mask/index.js";
import { PocketExtractError } from "../../src/errors.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { hasBit, nthSetBit, popcount } from "../../src/util/bitset.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import { compileValidator } from "../../src/validate/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { acceptAllChecked, bruteForceMask, firstDifference, randomTokenization } from "../support/token-walk.js";

const SCHEMAS: Record<string, JsonSchemaObject> = {
  flat: {
    type: "object",
    properties: {
      name: { type: "string", maxLength: 12 },
      age: { type: "integer", minimum: 0, maximum: 150 },
      vip: { type: "boolean" },
    },
    required: ["name", "age"],
    additionalProperties: false,
  },
  enumArray: { type: "array", items: { enum: ["red", "green", "蓝色"] }, minItems: 1, maxItems: 4 },
  pattern: { type: "string", pattern: "^[A-Z]{2}-\\d{3}$" },
  nested: {
    type: "object",
    properties: {
      items: {
        type: "array",
        items: {
          type: "object",
          properties: { sku: { type: "string", minLength: 2, maxLength: 6 }, qty: { type: "number" } },
          required: ["sku"],
          additionalProperties: false,
        },
        maxItems: 3,
      },
      note: { type: ["string", "null"], maxLength: 30 },
    },
    required: ["items"],
    additionalProperties: false,
  },
  freeString: { type: "string" },
  // Twelve optional members: after a value the state holds the chain of the remaining members'
  // optional rules, each calling the next in tail position (grammar-automaton.ts).
  manyOptional: {
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`k${i}`, [{ type: "integer" }, { type: "string", maxLength: 5 }, { type: "object", properties: { x: { type: "boolean" } } }][i % 3]!]),
    ),
    additionalProperties: false,
  },
  // A pattern under a long maximum: computed, not tabulated (counted-string.ts).
  url: { type: "string", pattern: "^https?://[a-z.]+/", maxLength: 300 },
  // A recursive rule too big to build minimal (100 copies of the child call): expanded state by
  // state, read per depth left.
  tree: {
    $ref: "#/$defs/node",
    $defs: {
      node: {
        type: "object",
        properties: {
          ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, { type: "string", maxLength: 8 }])),
          children: { type: "array", items: { $ref: "#/$defs/node" }, maxItems: 100 },
        },
        additionalProperties: false,
      },
    },
  },
};

let vocab: Vocabulary;
const grammars = new Map<string, TokenGrammar>();

beforeAll(async () => {
  vocab = await fixtureVocabulary();
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    grammars.set(name, compileGrammar(schema, vocab, { mode: "jsonschema", format: "compact" }).tokens);
  }
});

/** A random walk over allowed tokens that finishes with the shortest completion after `steps`. */
function randomDocument(grammar: TokenGrammar, seed: number, steps: number, onState?: (state: number) => void): string {
  const random = mulberry32(seed);
  const matcher = grammar.matcher();
  const mask = new Uint32Array(grammar.maskWords);
  const ids: number[] = [];
  for (let i = 0; i < steps && !matcher.isClosed(); i++) {
    onState?.(matcher.state);
    matcher.fillMask(mask);
    for (const eos of vocab.eosIds) mask[eos >>> 5]! &= ~(1 << (eos & 31));
    const n = popcount(mask);
    if (n === 0) break;
    const id = nthSetBit(mask, Math.floor(random() * n));
    expect(matcher.accept(id)).toBe(true);
    ids.push(id);
  }
  for (const id of matcher.shortestCompletion().tokens) {
    expect(matcher.accept(id)).toBe(true);
    ids.push(id);
  }
  expect(matcher.isComplete()).toBe(true);
  return vocab.decode(ids);
}

describe("mask engine on the 64K fixture vocabulary", () => {
  it("computes exactly the brute-force mask in every state a random walk visits", () => {
    let checked = 0;
    for (const [name, grammar] of grammars) {
      const seen = new Set<number>();
      for (let seed = 1; seed <= 3; seed++) {
        randomDocument(grammar, seed, 25, (state) => {
          if (seen.has(state) || seen.size >= 12) return;
          seen.add(state);
          const fast = grammar.maskOf(state);
          const slow = bruteForceMask(grammar, state);
          const diff = firstDifference(fast, slow);
          expect(diff, `${name}: state ${state} differs at token ${diff} ${JSON.stringify(vocab.decode([Math.max(diff, 0)]))}`).toBe(-1);
          checked++;
        });
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("computes the same exact masks with rules left for documents to build (byte classes from the grammar)", () => {
    let checked = 0;
    for (const name of ["nested", "tree", "url"]) {
      const lazy = compileGrammar(SCHEMAS[name], vocab, { mode: "jsonschema", format: "compact", eagerStates: 0, cache: false }).tokens;
      const eager = compileGrammar(SCHEMAS[name], vocab, { mode: "jsonschema", format: "compact", eagerStates: Infinity, cache: false }).tokens;
      // Classes read off the grammar refine the built rules' classes, and are far fewer than 256.
      expect(lazy.automaton.numClasses).toBeGreaterThanOrEqual(eager.automaton.numClasses);
      expect(lazy.automaton.numClasses).toBeLessThan(128);
      const validate = compileValidator(SCHEMAS[name]!);
      for (let seed = 1; seed <= 3; seed++) {
        const text = randomDocument(lazy, seed, 25, (state) => {
          expect(firstDifference(lazy.maskOf(state), bruteForceMask(lazy, state)), `${name}: state ${state}`).toBe(-1);
          checked++;
        });
        expect(validate(JSON.parse(text)), `${name}: ${text}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("is sound: random allowed-token walks always end in documents that validate", () => {
    for (const [name, grammar] of grammars) {
      const validate = compileValidator(SCHEMAS[name]!);
      for (let seed = 0; seed < 40; seed++) {
        const text = randomDocument(grammar, seed * 7919 + 1, 5 + (seed % 30));
        const value: unknown = JSON.parse(text);
        expect(validate(value), `${name} seed ${seed}: ${text} ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it("is complete: valid instances are accepted under canonical and random tokenizations", () => {
    const instances: [string, unknown][] = [
      ["flat", { name: "王小明", age: 31 }],
      ["flat", { name: "Ann \"A\" \\ B", age: 0, vip: true }],
      ["enumArray", ["蓝色", "red", "red"]],
      ["pattern", "AB-123"],
      ["nested", { items: [{ sku: "x1", qty: -1.5e3 }, { sku: "长度六个字符" }], note: null }],
      ["freeString", "tab\tnewline\n emoji 😀 and \u0001 control"],
      ["manyOptional", { k1: "ab", k5: { x: true }, k6: 7, k11: {} }],
      ["manyOptional", { k10: "x" }],
      ["url", `https://example.com/${"路径".repeat(140)}`],
      ["tree", { field0: "a", children: [{ children: [{ field11: "深" }] }, {}] }],
      ["tree", { children: Array(100).fill({ children: [{}] }) }],
    ];
    const mask = new Uint32Array(65536 / 32);
    fc.assert(
      fc.property(fc.constantFrom(...instances), fc.integer(), ([name, value], seed) => {
        const grammar = grammars.get(name)!;
        const text = JSON.stringify(value);
        const canonical = grammar.matcher();
        expect(acceptAllChecked(canonical, vocab.encode(text), mask)).toBe(-1);
        expect(canonical.isComplete()).toBe(true);
        const random = grammar.matcher();
        const split = randomTokenization(grammar, new TextEncoder().encode(text), mulberry32(seed));
        expect(acceptAllChecked(random, split, mask)).toBe(-1);
        expect(random.isComplete()).toBe(true);
        random.fillMask(mask);
        for (const eos of vocab.eosIds) expect(hasBit(mask, eos)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("rejects invalid instances at some token or leaves them incomplete", () => {
    const invalid: [string, string][] = [
      ["flat", JSON.stringify({ name: "this name is far too long", age: 3 })],
      ["flat", JSON.stringify({ age: 3 })],
      ["flat", JSON.stringify({ name: "a", age: 151 })],
      ["enumArray", JSON.stringify([])],
      ["enumArray", JSON.stringify(["blue"])],
      ["pattern", JSON.stringify("AB-12")],
      ["nested", JSON.stringify({ items: [{ sku: "x" }] })],
      ["freeString", "\"raw \u0001 control\""],
      ["manyOptional", JSON.stringify({ k5: { x: 1 } })],
      ["manyOptional", JSON.stringify({ k6: 1, k2: 2 })],
      ["url", JSON.stringify(`https://example.com/${"x".repeat(281)}`)],
      ["url", JSON.stringify("ftp://example.com/")],
      ["tree", JSON.stringify({ children: [{ children: [{ children: [{ children: [{ children: [{ children: [{ children: [{ children: [{ children: [{}] }] }] }] }] }] }] }] }] })],
      ["tree", JSON.stringify({ field0: "too long a value" })],
      ["tree", JSON.stringify({ children: Array(101).fill({}) })],
    ];
    for (const [name, text] of invalid) {
      const matcher = grammars.get(name)!.matcher();
      const ids = vocab.encode(text);
      const failed = ids.findIndex((id) => !matcher.accept(id));
      expect(failed >= 0 || !matcher.isComplete(), `${name}: ${text} was accepted`).toBe(true);
    }
  });

  it("forces exactly the unique continuation, and the forced tokens spell it", () => {
    const grammar = grammars.get("flat")!;
    const matcher = grammar.matcher();
    const run = matcher.forced();
    const spelled = new TextDecoder().decode(run.bytes);
    expect(spelled.length).toBeGreaterThan(0);
    expect('{"name":"'.startsWith(spelled)).toBe(true);
    expect(vocab.decode([...run.tokens])).toBe(spelled);
    // Every forced byte is the only byte the automaton allows at that point.
    let state = matcher.state;
    for (const b of run.bytes) {
      const live = [...Array(256).keys()].filter((x) => grammar.stepBytes(state, Uint8Array.of(x)) >= 0);
      expect(live).toEqual([b]);
      state = grammar.stepBytes(state, Uint8Array.of(b));
    }
    for (const id of run.tokens) expect(matcher.accept(id)).toBe(true);
    // Continuing with the canonical tokens of the rest of a valid document works.
    const rest = '{"name":"Li","age":7}'.slice(spelled.length);
    const mask = new Uint32Array(grammar.maskWords);
    expect(acceptAllChecked(matcher, vocab.encode(rest), mask)).toBe(-1);
    expect(matcher.isComplete()).toBe(true);
  });

  it("rolls back to exactly the state a fresh replay reaches", () => {
    const grammar = grammars.get("nested")!;
    const text = JSON.stringify({ items: [{ sku: "ab", qty: 2 }], note: "ok" });
    const ids = vocab.encode(text);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ids.length }), fc.integer({ min: 0, max: ids.length }), (n, k) => {
        const back = Math.min(k, n);
        const m = grammar.matcher();
        for (const id of ids.slice(0, n)) m.accept(id);
        m.rollback(back);
        const fresh = grammar.matcher();
        for (const id of ids.slice(0, n - back)) fresh.accept(id);
        expect(m.state).toBe(fresh.state);
        expect(m.length).toBe(fresh.length);
      }),
    );
  });

  it("remainingMinimum counts the tokens of the shortest completion", () => {
    const grammar = grammars.get("flat")!;
    const m = grammar.matcher();
    const completion = m.shortestCompletion();
    expect(m.remainingMinimum()).toBe(completion.tokens.length);
    const doc = vocab.decode([...completion.tokens]);
    expect(compileValidator(SCHEMAS.flat!)(JSON.parse(doc))).toBe(true);
  });

  it("gives typed errors for bad ids, a wrong mask size and tokens after the end", () => {
    const m = grammars.get("pattern")!.matcher();
    expect(() => m.accept(-1)).toThrow(PocketExtractError);
    expect(() => m.accept(65536)).toThrowError(/outside the vocabulary/);
    expect(() => m.fillMask(new Uint32Array(10))).toThrowError(expect.objectContaining({ code: "MASK_SIZE" }));
    for (const id of vocab.encode('"AB-123"')) expect(m.accept(id)).toBe(true);
    expect(m.accept(65512)).toBe(true);
    expect(() => m.accept(1)).toThrowError(expect.objectContaining({ code: "MATCHER_COMPLETE" }));
    expect(() => m.rollback(99)).toThrowError(expect.objectContaining({ code: "ROLLBACK_RANGE" }));
  });

  it("serves a schema from the compile cache, and compiles afresh with cache: false", () => {
    const schema = { type: "object", properties: { city: { type: "string" } } };
    const first = compileGrammar(schema, vocab, { mode: "jsonschema" });
    const again = compileGrammar(JSON.parse(JSON.stringify(schema)), vocab, { mode: "jsonschema" });
    expect(again.tokens).toBe(first.tokens);
    expect(again.compileMs).toBe(0);
    const fresh = compileGrammar(schema, vocab, { mode: "jsonschema", cache: false });
    expect(fresh.tokens).not.toBe(first.tokens);
    expect(fresh.compileMs).toBeGreaterThan(0);
    // Nothing was kept: a later cached compile still returns the first grammar.
    expect(compileGrammar(schema, vocab, { mode: "jsonschema" }).tokens).toBe(first.tokens);
  });

  it("never allows special tokens inside text nor ids beyond the tokenizer", () => {
    const grammar = grammars.get("freeString")!;
    const mask = new Uint32Array(grammar.maskWords);
    const m = grammar.matcher();
    m.accept(vocab.encode('"')[0]!);
    m.fillMask(mask);
    for (let id = 65510; id < 65536; id++) expect(hasBit(mask, id)).toBe(false);
  });
});
