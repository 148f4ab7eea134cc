/**
 * Issue 15, item 12 (SDK part): "__proto__" as a field name. Ajv drops "__proto__" from
 * `properties` and `required`, and JavaScript reads it as the prototype, so such a field could be
 * neither validated nor returned faithfully: a declared "__proto__" is refused at compile
 * (SCHEMA_UNSUPPORTED, naming the keyword), and open keys (records, additionalProperties) never
 * spell it in extraction mode. Before (main): an optional "__proto__" answered null stayed in
 * `data`; a required one gave ok: false with no issue.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { compileGrammar } from "../../src/grammar-tier.js";
import { createExtractor, type SchemaError } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { expectCode, withinBounds } from "./bounds.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const PROTO = "__proto__";
const declared = (required: boolean) => ({ type: "object", properties: { [PROTO]: { type: "string" }, name: { type: "string" } }, required: required ? [PROTO, "name"] : ["name"] });

describe('"__proto__" as a field name', () => {
  const cases: [string, unknown, string][] = [
    ["optional, JSON Schema", declared(false), "properties"],
    ["required, JSON Schema", declared(true), "properties"],
    ["required only (not declared)", { type: "object", required: [PROTO] }, "required"],
    ["zod object", z.object({ [PROTO]: z.string().optional(), name: z.string() }), "properties"],
  ];
  for (const [name, schema, keyword] of cases) {
    it(`${name}: SCHEMA_UNSUPPORTED at compile, naming the keyword`, async () => {
      const { error } = await withinBounds({ ms: 2_000, rssMB: 100 }, () => compileGrammar(schema, vocab, { cache: false }));
      const e = expectCode(error, "SCHEMA_UNSUPPORTED") as SchemaError;
      expect(e.keyword).toBe(keyword);
      expect(e.message).toContain(PROTO);
    });
  }

  it("extract() refuses it before decoding", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"__proto__":null,"name":"Bob"}' }) });
    const { error } = await withinBounds({ ms: 2_000, rssMB: 100 }, () => ex.extract(declared(false), "name Bob"));
    expectCode(error, "SCHEMA_UNSUPPORTED");
  });

  it("a record never gets a \"__proto__\" key: the grammar bends it, data keeps its prototype", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"__proto__":1,"a":2}' }), maxTokens: 40 });
    const r = await ex.extract(z.record(z.string().max(12), z.number().int()), "a 2");
    expect(r.raw.startsWith('{"__proto__"')).toBe(false);
    expect(Object.keys(JSON.parse(r.raw) as object)).not.toContain(PROTO);
    if (r.data !== null) expect(Object.getPrototypeOf(r.data)).toBe(Object.prototype);
  });
});
