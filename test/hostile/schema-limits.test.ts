/**
 * Issue 15, items 1 and 9: schema limits. A schema whose validation could explode is refused at
 * compile (SCHEMA_TOO_COMPLEX: its size with every $ref expanded is bounded), and wide or deep
 * schemas compile or fail with a typed error, never a RangeError. Before (main): the depth-22
 * anyOf chain compiled and then took 12 s to check one output (depth 40: killed after 150 s);
 * 3,000 optional properties threw "RangeError: Maximum call stack size exceeded".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar } from "../../src/grammar-tier.js";
import { createExtractor, DEFAULT_SCHEMA_LIMITS, SchemaError } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { checkExpansion, RefResolver } from "../../src/schema/index.js";
import { expectCode, withinBounds } from "./bounds.js";
import { anyOfChain, deepObject, wideObject } from "./schemas.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const compile = (schema: unknown, options = {}) => compileGrammar(schema, vocab, { mode: "extraction", format: "compact", cache: false, ...options });

describe("validation that could explode is refused at compile", () => {
  for (const depth of [18, 22, 40]) {
    it(`anyOf chain of depth ${depth}: SCHEMA_TOO_COMPLEX at compile`, async () => {
      const { error } = await withinBounds({ ms: 1_000, rssMB: 100 }, () => compile(anyOfChain(depth)));
      const e = expectCode(error, "SCHEMA_TOO_COMPLEX");
      expect(e).toBeInstanceOf(SchemaError);
      expect(e.message).toMatch(/maxSchemaExpansion/);
    });
  }

  it("extract() refuses it before decoding; maxSchemaExpansion lets a caller accept more", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"v":"abc"}' }), maxTokens: 40 });
    const { error } = await withinBounds({ ms: 2_000, rssMB: 100 }, () => ex.extract(anyOfChain(22), "abc def"));
    expectCode(error, "SCHEMA_TOO_COMPLEX");
    const r = await ex.extract(anyOfChain(12), "abc def", { maxSchemaExpansion: 2 ** 14 });
    expect(r.ok).toBe(true);
  });
});

describe("a $ref loop that never descends into the instance is refused (found by npm run fuzz, extract:20266902)", () => {
  // Before: compiled, then ajv's validator overflowed the stack on the output `false`.
  for (const [name, schema] of [
    ["the root through anyOf", { anyOf: [{ type: "string" }, { $ref: "#" }] }],
    ["two $defs through anyOf and allOf", { $ref: "#/$defs/a", $defs: { a: { anyOf: [{ type: "integer" }, { allOf: [{ $ref: "#/$defs/b" }] }] }, b: { anyOf: [{ type: "string" }, { $ref: "#/$defs/a" }] } } }],
  ] as const) {
    it(`${name}: SCHEMA_REF at compile and from extract()`, async () => {
      const e = expectCode((await withinBounds({ ms: 1_000, rssMB: 100 }, () => compile(schema))).error, "SCHEMA_REF");
      expect(e.message).toMatch(/loops back/);
      const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: "false" }), maxTokens: 20 });
      expectCode((await withinBounds({ ms: 2_000, rssMB: 100 }, () => ex.extract(schema, "abc"))).error, "SCHEMA_REF");
    });
  }
  it("the expansion walk finds an in-place loop first reached through a property value (checked on the walk alone: the compiler refuses such a schema earlier)", () => {
    // Depth-first, additionalProperties (walked before anyOf) reaches w and w's `$ref: "#"` first:
    // the loop root -anyOf-> w -anyOf-> root is in-place although the walk's path to w was not.
    const schema = { additionalProperties: { $ref: "#/$defs/w" }, anyOf: [{ type: "object" }, { $ref: "#/$defs/w" }], $defs: { w: { anyOf: [{ type: "integer" }, { $ref: "#" }] } } };
    expect(() => checkExpansion(schema, new RefResolver(schema, false, false), 10_000)).toThrow(/loops back/);
    const consuming = { additionalProperties: { $ref: "#/$defs/w" }, $defs: { w: { anyOf: [{ type: "integer" }, { $ref: "#" }] } } };
    expect(() => checkExpansion(consuming, new RefResolver(consuming, false, false), 10_000)).not.toThrow();
  });
  it("recursion through properties or items still compiles", () => {
    expect(() => compile({ type: "object", properties: { next: { anyOf: [{ $ref: "#" }, { type: "null" }] } } })).not.toThrow();
    expect(() => compile({ type: "array", items: { $ref: "#" }, maxItems: 2 })).not.toThrow();
  });
});

describe("wide and deep schemas: compile or a typed error, never a RangeError", () => {
  for (const n of [3_000, 20_000]) {
    it(`an object with ${n} optional properties: SCHEMA_TOO_LARGE naming maxSchemaProperties`, async () => {
      const { error } = await withinBounds({ ms: 5_000, rssMB: 300 }, () => compile(wideObject(n)));
      const e = expectCode(error, "SCHEMA_TOO_LARGE");
      expect(e.message).toMatch(/maxSchemaProperties/);
    });
  }

  it(`an object with ${DEFAULT_SCHEMA_LIMITS.maxSchemaProperties} properties (the limit) compiles and extracts`, async () => {
    const schema = wideObject(DEFAULT_SCHEMA_LIMITS.maxSchemaProperties);
    const { error } = await withinBounds({ ms: 30_000, rssMB: 600 }, () => compile(schema, { eagerStates: Infinity }));
    expect(error).toBeUndefined();
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"field_998":"ab","field_999":"cd"}' }), maxTokens: 60 });
    const r = await ex.extract(schema, "ab cd");
    expect(r.raw).toBe('{"field_998":"ab","field_999":"cd"}');
    expect(r.ok).toBe(true);
  });

  it("the property limit spread over nested objects compiles", async () => {
    const n = DEFAULT_SCHEMA_LIMITS.maxSchemaProperties / 4 - 1;
    const schema = wideObject(n, wideObject(n, wideObject(n, wideObject(n))));
    const { error } = await withinBounds({ ms: 30_000, rssMB: 600 }, () => compile(schema, { eagerStates: Infinity }));
    expect(error).toBeUndefined();
  });

  it(`objects nested to the nesting limit (${DEFAULT_SCHEMA_LIMITS.maxSchemaDepth - 1} levels) compile; one more is SCHEMA_TOO_LARGE`, async () => {
    const atLimit = await withinBounds({ ms: 30_000, rssMB: 600 }, () => compile(deepObject(DEFAULT_SCHEMA_LIMITS.maxSchemaDepth - 1), { eagerStates: Infinity }));
    expect(atLimit.error).toBeUndefined();
    const over = await withinBounds({ ms: 5_000, rssMB: 300 }, () => compile(deepObject(DEFAULT_SCHEMA_LIMITS.maxSchemaDepth + 1)));
    expect(expectCode(over.error, "SCHEMA_TOO_LARGE").message).toMatch(/maxSchemaDepth/);
  });

  it("a bad limit is an OptionError", () => {
    try {
      compile(wideObject(2), { maxSchemaProperties: -1 });
      expect.unreachable();
    } catch (e) {
      expectCode(e, "OPTION_INVALID");
    }
  });
});
