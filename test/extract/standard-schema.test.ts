/**
 * Standard Schema input through the public API: real valibot (via @valibot/to-json-schema) and
 * arktype (its Standard JSON Schema) schemas, output types inferred from the schema, and the
 * schema's own `~standard.validate` run after decoding; `jsonSchema<T>()` for typed plain JSON
 * Schemas. Engines: scripted (exact answers), random (fuzz), and the tiny GGUF (llama.cpp).
 */
import { type } from "arktype";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, jsonSchema, SchemaError, type Extractor } from "../../src/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const TEXT = "Order A-1029: Alice Chen bought 3 lamps on 2026-03-15.";

const ValibotOrder = v.object({
  customer: v.string(),
  quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
  note: v.optional(v.string()),
});
const ArkOrder = type({ customer: "string", quantity: "number.integer >= 1", "note?": "string" });
type Order = { customer: string; quantity: number; note?: string };

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const scripted = (answer: string): Promise<Extractor> => createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: answer }) });

describe("valibot schemas", () => {
  it("extract typed data, grounded fields", async () => {
    const ex = await scripted('{"customer":"Alice Chen","quantity":3,"note":null}');
    const r = await ex.extract(ValibotOrder, TEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expectTypeOf(r.data).toEqualTypeOf<v.InferOutput<typeof ValibotOrder>>();
    expect(r.data).toEqual({ customer: "Alice Chen", quantity: 3 });
    expect(r.fields.find((f) => f.pointer === "/customer")!.status).toBe("found");
  });

  it("run the schema's own validation after decoding: a check JSON Schema cannot say fails with its message", async () => {
    const Checked = v.object({
      customer: v.pipe(
        v.string(),
        v.check((s) => s.includes(" "), "give the full name"),
      ),
    });
    const ex = await scripted('{"customer":"Alice"}');
    const r = await ex.extract(Checked, TEXT);
    expect(r.ok).toBe(false);
    expect(r.issues).toEqual([{ path: ["customer"], pointer: "/customer", message: "give the full name", source: "schema" }]);
    expect(r.fields.find((f) => f.pointer === "/customer")!.status).toBe("invalid");
  });

  it("return the schema's output, transforms included, as data", async () => {
    const Upper = v.object({ customer: v.pipe(v.string(), v.toUpperCase()) });
    const ex = await scripted('{"customer":"Alice Chen"}');
    const r = await ex.extract(Upper, TEXT);
    expect(r.ok && r.data).toEqual({ customer: "ALICE CHEN" });
  });

  it("refuse a valibot type with no JSON Schema form with a typed error", async () => {
    const ex = await scripted("{}");
    const err = await ex.extract(v.object({ when: v.date() }), TEXT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expect(err).toMatchObject({ code: "SCHEMA_UNSUPPORTED", message: expect.stringMatching(/valibot schema cannot be expressed as JSON Schema/) });
  });
});

describe("arktype schemas", () => {
  it("extract typed data through Standard JSON Schema", async () => {
    const ex = await scripted('{"customer":"Alice Chen","quantity":3}');
    const r = await ex.extract(ArkOrder, TEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expectTypeOf(r.data).toEqualTypeOf<typeof ArkOrder.infer>();
    expectTypeOf(r.data).toMatchTypeOf<Order>();
    expect(r.data).toEqual({ customer: "Alice Chen", quantity: 3 });
  });

  it("random engine fuzz: every ok result satisfies arktype itself; every other one says why", async () => {
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 7 }), maxTokens: 96 });
    let ok = 0;
    for (let seed = 0; seed < 12; seed++) {
      const r = await ex.extract(ArkOrder, TEXT, { sampling: { seed } });
      if (r.ok) {
        ok++;
        expect(ArkOrder["~standard"].validate(r.data)).toEqual({ value: r.data });
      } else expect(r.issues.length + (r.stats.cutShort ? 1 : 0)).toBeGreaterThan(0);
    }
    expect(ok).toBeGreaterThan(0);
  });
});

describe("jsonSchema<T>()", () => {
  it("types a plain JSON Schema's result", async () => {
    const schema = jsonSchema<{ customer: string; quantity: number }>({
      type: "object",
      properties: { customer: { type: "string" }, quantity: { type: "integer", minimum: 1 } },
      required: ["customer", "quantity"],
      additionalProperties: false,
    });
    const ex = await scripted('{"customer":"Alice Chen","quantity":3}');
    const r = await ex.extract(schema, TEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expectTypeOf(r.data).toEqualTypeOf<{ customer: string; quantity: number }>();
    expect(r.data.quantity).toBe(3);
    const untyped = await ex.extract({ type: "object", properties: { customer: { type: "string" } } }, TEXT);
    if (untyped.ok) expectTypeOf(untyped.data).toEqualTypeOf<unknown>();
  });
});

describe("a Standard Schema without a JSON Schema form", () => {
  it("is a typed error naming the vendor and what to do", async () => {
    const acme = { "~standard": { version: 1 as const, vendor: "acme", validate: (value: unknown) => ({ value }) } };
    const ex = await scripted("{}");
    const err = await ex.extract(acme, TEXT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expect(err).toMatchObject({ code: "SCHEMA_UNSUPPORTED", message: expect.stringMatching(/acme schema .*Standard JSON Schema.*jsonSchema<T>\(\)/) });
  });

  it("an asynchronous validation is a typed error, not a hang", async () => {
    const asyncSchema = { "~standard": { ...ArkOrder["~standard"], validate: async (value: unknown) => ({ value }) } };
    const ex = await scripted('{"customer":"Alice Chen","quantity":3}');
    await expect(ex.extract(asyncSchema, TEXT)).rejects.toMatchObject({ code: "SCHEMA_UNSUPPORTED", message: expect.stringMatching(/validates asynchronously/) });
  });
});

describe("on the tiny GGUF (llama.cpp)", () => {
  let gguf: Extractor;
  beforeAll(async () => {
    gguf = await createExtractor({ model: await ensureGgufFixture("tiny"), maxTokens: 80, defaultMaxStringLength: 24 });
  });
  afterAll(async () => {
    await gguf?.dispose();
  });

  it("a valibot schema gives complete JSON whose only possible problems are required fields left null", async () => {
    const r = await gguf.extract(ValibotOrder, TEXT);
    const parsed = JSON.parse(r.raw) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(expect.arrayContaining(["customer", "quantity"]));
    for (const issue of r.issues) expect(issue.message, r.raw).toMatch(/not stated in the text/);
    if (r.ok) expect(v.safeParse(ValibotOrder, r.data).success).toBe(true);
  });
});
