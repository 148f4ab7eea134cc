import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Extractor } from "../../src/index.js";
import { resolveNullEscapes } from "../../src/extract/null-escapes.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { arbitrary } from "../../src/testing/index.js";
import { compileValidator, validate } from "../../src/validate/index.js";
import { grammarAccepts, scriptedExtractor } from "./grammar-oracle.js";
import { Invoice, Order, Tree } from "./schemas.js";

let ex: Extractor;
beforeAll(async () => {
  ex = await scriptedExtractor(() => "");
});

const jsonSchemaOf = (schema: unknown) => ex.compile(schema).jsonSchema!;

describe("arbitrary(schema): raw grammar values", () => {
  it("Invoice's keywords are all enforced by the grammar (premise of the validity property below)", () => {
    expect(compileSchema(Invoice, { mode: "extraction" }).report.validatedAfter).toEqual([]);
  });

  it("every value, serialized compactly, is a complete output of the extractor's token grammar", () => {
    for (const schema of [Invoice, Order, Tree]) {
      fc.assert(fc.property(arbitrary(schema), (v) => grammarAccepts(ex, schema, JSON.stringify(v))), { numRuns: 300, seed: 11 });
    }
  });

  it("after null-escape resolution, ajv's only complaints are required fields answered null", () => {
    const schema = jsonSchemaOf(Invoice);
    fc.assert(
      fc.property(arbitrary(Invoice), (v) => {
        const resolved = resolveNullEscapes(v, (x) => validate(x, schema).issues);
        const issues = validate(resolved.value, schema, Invoice).issues.map((i) => i.pointer);
        expect(new Set(issues)).toEqual(new Set(resolved.missingRequired));
      }),
      { numRuns: 500, seed: 12 },
    );
  });

  it("covers null escapes, every enum value, optional absence, long arrays and bounded strings", () => {
    const values = fc.sample(arbitrary(Invoice), { numRuns: 1000, seed: 13 }) as Record<string, unknown>[];
    expect(values.some((v) => v.vendor === null)).toBe(true);
    expect(new Set(values.map((v) => v.currency))).toEqual(new Set(["CNY", "USD", "EUR", null]));
    expect(values.some((v) => !("note" in v))).toBe(true);
    expect(values.some((v) => typeof v.note === "string" && [...v.note].length === 10)).toBe(true);
    expect(values.some((v) => Array.isArray(v.items) && v.items.length === 5)).toBe(true);
    // eslint-disable-next-line no-control-regex -- \x00-\x7f is ASCII; the test looks for a non-ASCII vendor
    expect(values.some((v) => typeof v.vendor === "string" && /[^\x00-\x7f]/.test(v.vendor))).toBe(true);
  });

  it("escapes: false leaves null out of non-nullable properties", () => {
    const values = fc.sample(arbitrary(Invoice, { escapes: false }), { numRuns: 300, seed: 14 });
    expect(JSON.stringify(values)).not.toContain("null");
  });

  it("is deterministic under a seed", () => {
    const a = fc.sample(arbitrary(Order), { numRuns: 50, seed: 15 });
    const b = fc.sample(arbitrary(Order), { numRuns: 50, seed: 15 });
    expect(a).toEqual(b);
  });

  it("shrinks toward the smallest document", () => {
    // Fails as soon as the vendor has 2+ characters; the smallest such Invoice has nothing else.
    const out = fc.check(
      fc.property(arbitrary(Invoice, { escapes: false }), (v) => [...((v as { vendor: string }).vendor ?? "")].length < 2),
      { numRuns: 1000, seed: 16 },
    );
    expect(out.failed).toBe(true);
    const [v] = out.counterexample as [Record<string, unknown>];
    expect([...(v.vendor as string)].length).toBe(2);
    expect(v.items).toEqual([]);
    expect(v.amount).toBe(0);
    expect("note" in v).toBe(false);
  });
});

describe("arbitrary(schema, { parsed: true }): data as extract() returns it", () => {
  it("validates with ajv and zod, and its compact form is an output of the extractor's grammar", () => {
    for (const schema of [Invoice, Order]) {
      const ajv = compileValidator(jsonSchemaOf(schema));
      fc.assert(
        fc.property(arbitrary(schema, { parsed: true }), (data) => {
          expect(ajv(data)).toBe(true);
          expect(schema.safeParse(data).success).toBe(true);
          expect(grammarAccepts(ex, schema, JSON.stringify(data))).toBe(true);
        }),
        { numRuns: 300, seed: 21 },
      );
    }
  });

  it("works for recursive schemas (zod's JSON Schema recurses with {\"$ref\": \"#\"})", () => {
    const ajv = compileValidator(jsonSchemaOf(Tree));
    const trees = fc.sample(arbitrary(Tree, { parsed: true }), { numRuns: 20, seed: 23 });
    for (const data of trees) {
      expect(ajv(data)).toBe(true);
      expect(Tree.safeParse(data).success).toBe(true);
    }
    expect(trees.some((t) => t.children.some((c) => c.children.length > 0))).toBe(true);
  });

  it("has zod's output type and covers nullable, optional and formatted fields", () => {
    const orders = fc.sample(arbitrary(Order, { parsed: true }), { numRuns: 500, seed: 22 });
    const price: (number | null)[] = orders.map((o) => o.price); // typed as zod's output
    expect(price).toContain(null);
    expect(orders.some((o) => o.due === undefined)).toBe(true);
    expect(orders.some((o) => typeof o.due === "string" && /^\d{4}-\d\d-\d\d$/.test(o.due))).toBe(true);
  });
});
