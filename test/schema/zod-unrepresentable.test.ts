/**
 * Every Zod feature that cannot become JSON Schema is refused with the field path and a fix,
 * through the public compileGrammar (the extractor's compile step).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { compileGrammar } from "../../src/grammar-tier.js";
import { SchemaError } from "../../src/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

function refusal(schema: unknown): SchemaError {
  try {
    compileGrammar(schema, vocab, { cache: false });
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw err;
  }
  throw new Error("expected a SchemaError");
}

const inOrder = (field: z.ZodType) => z.object({ id: z.string(), order: z.object({ sku: z.string(), field }) });

const CASES: [string, z.ZodType, RegExp][] = [
  ["z.date()", z.date(), /z\.date\(\) at order\.field: use z\.iso\.date\(\)/],
  [".transform()", z.string().transform((s) => s.length), /\.transform\(\) at order\.field: extract the input type/],
  ["z.bigint()", z.bigint(), /z\.bigint\(\) at order\.field: use z\.number\(\)\.int\(\)/],
  ["z.symbol()", z.symbol(), /z\.symbol\(\) at order\.field: remove it/],
  ["z.function()", z.function(), /z\.function\(\) at order\.field: remove it from the extraction schema/],
  ["z.map()", z.map(z.string(), z.number()), /z\.map\(\) at order\.field: use z\.record\(z\.string\(\), value\)/],
  ["z.set()", z.set(z.string()), /z\.set\(\) at order\.field: use z\.array\(item\)/],
  ["z.undefined()", z.undefined(), /z\.undefined\(\) at order\.field: make the field \.optional\(\)/],
  ["z.void()", z.void(), /z\.void\(\) at order\.field: make the field \.optional\(\)/],
  ["z.nan()", z.nan(), /z\.nan\(\) at order\.field: use z\.number\(\)/],
  ["z.custom()", z.custom<string>((v) => typeof v === "string"), /z\.custom\(\) \/ z\.instanceof\(\) at order\.field: describe the value/],
  ["z.instanceof()", z.instanceof(Date), /z\.custom\(\) \/ z\.instanceof\(\) at order\.field/],
];

describe("Zod features without a JSON Schema form", () => {
  for (const [name, field, message] of CASES) {
    it(`${name}: SCHEMA_UNSUPPORTED with the field path and a fix`, () => {
      const err = refusal(inOrder(field));
      expect(err.code).toBe("SCHEMA_UNSUPPORTED");
      expect(err.message).toMatch(message);
      expect(err.pointer).toBe("/properties/order/properties/field");
    });
  }

  it("names array elements, optional fields and every problem at once", () => {
    const err = refusal(z.object({ deliveries: z.array(z.object({ when: z.date().optional() })), ids: z.set(z.string()) }));
    expect(err.message).toMatch(/z\.date\(\) at deliveries\[\]\.when: /);
    expect(err.message).toMatch(/z\.set\(\) at ids: /);
  });

  it("names the root when the whole schema is unrepresentable", () => {
    expect(refusal(z.date()).message).toMatch(/z\.date\(\) at the root: /);
  });

  it("still accepts the suggested replacements", () => {
    const fixed = inOrder(z.iso.date());
    expect(() => compileGrammar(fixed, vocab, { cache: false })).not.toThrow();
    expect(() => compileGrammar(z.object({ m: z.record(z.string(), z.number()), s: z.array(z.string()), n: z.number().int() }), vocab, { cache: false })).not.toThrow();
  });
});
