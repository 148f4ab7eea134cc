/**
 * uniqueItems over a small finite item domain (src/schema-compiler/unique-items.ts): every array
 * of up to n + 1 items over the domain (and one value outside it) is accepted exactly when ajv
 * accepts it, through the byte automaton and the reference matcher, with minItems/maxItems.
 */

import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";
import { arraysOver } from "./support/arrays-over.js";

const JS = { mode: "jsonschema" } as const;


const domains: fc.Arbitrary<{ items: object; values: readonly unknown[] }> = fc.oneof(
  fc.constant({ items: { type: "boolean" }, values: [true, false] }),
  fc.uniqueArray(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 50 }), fc.constant(null)), { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }).map((values) => ({ items: { enum: values }, values })),
  fc.constant({ items: { const: "only" }, values: ["only"] }),
  fc.constant({ items: { type: "string", enum: ["a", "b", 3] }, values: ["a", "b"] }),
);

describe("uniqueItems over a finite item domain", () => {
  it("accepts exactly the arrays of distinct domain values within min/maxItems (as ajv)", () => {
    const ajv = new Ajv();
    fc.assert(
      fc.property(domains, fc.nat(3), fc.option(fc.nat(5), { nil: undefined }), ({ items, values }, minItems, maxItems) => {
        const schema = { type: "array", items, uniqueItems: true, minItems, ...(maxItems === undefined ? {} : { maxItems }) };
        const valid = ajv.compile(schema);
        const arrays = arraysOver([...values, "outside"], values.length + 1);
        let acc;
        try {
          acc = acceptor(schema, JS);
        } catch (err) {
          expect((err as { code?: string }).code).toBe("SCHEMA_UNSATISFIABLE");
          for (const a of arrays) expect(valid(a), JSON.stringify(a)).toBe(false);
          return;
        }
        expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
        for (const a of arrays) {
          const t = JSON.stringify(a);
          expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(valid(a));
          expect(acc.ref(t), `${JSON.stringify(schema)} ${t} (reference matcher)`).toBe(valid(a));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("counts 2 and 2.0 as one value", () => {
    const acc = acceptor({ type: "array", items: { enum: [1, 2] }, uniqueItems: true }, JS);
    expect(["[1,2.0]", "[2,2.0]", "[2.0,1.00]", "[1.0,1]"].map(acc.dfa)).toEqual([true, false, true, false]);
  });

  it("works in flexible whitespace and through $ref", () => {
    const schema = { $defs: { color: { enum: ["red", "green", "blue"] } }, type: "array", items: { $ref: "#/$defs/color" }, uniqueItems: true };
    const acc = acceptor(schema, { ...JS, format: "flexible" });
    expect(['[ "red" , "blue" ]', '["red","red"]', "[ ]", '["green", "blue", "red"]'].map(acc.dfa)).toEqual([true, false, true, true]);
    expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
  });

  it("spells a domain past the inline tree's size as one rule per set of used values, still exact (as ajv)", () => {
    const ajv = new Ajv();
    const values = ["a", "b", "ab", 1, 2.5, null, true, false];
    const pool = [...values, "outside", 3];
    for (const bounds of [{ minItems: 2 }, { minItems: 1, maxItems: 6 }]) {
      const schema = { type: "array", items: { enum: values }, uniqueItems: true, ...bounds };
      expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
      const valid = ajv.compile(schema);
      const acc = acceptor(schema, JS);
      expect(acc.dfa(JSON.stringify([...values].reverse()))).toBe(valid([...values].reverse()));
      fc.assert(
        // Distinct subsets (mostly valid) and arrays over the pool (mostly duplicates or outsiders).
        fc.property(fc.oneof(fc.shuffledSubarray(values), fc.array(fc.constantFrom(...pool), { maxLength: values.length + 1 })), (a) => {
          const t = JSON.stringify(a);
          expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(valid(a));
          expect(acc.ref(t), `${JSON.stringify(schema)} ${t} (reference matcher)`).toBe(valid(a));
        }),
        { numRuns: 300 },
      );
    }
  });

  it("leaves too large domains to the check after decoding, accepting every valid array", () => {
    const values = Array.from({ length: 12 }, (_, i) => `v${i}`);
    const schema = { type: "array", items: { enum: values }, uniqueItems: true };
    expect(compileSchema(schema, JS).report.validatedAfter.map((u) => u.keyword)).toEqual(["uniqueItems"]);
    expect(acceptor(schema, JS).dfa(JSON.stringify(values))).toBe(true);
    // A small maxItems keeps the tree small: then it is enforced.
    const short = { ...schema, maxItems: 2 };
    expect(compileSchema(short, JS).report.validatedAfter).toEqual([]);
    expect(['["v1","v2"]', '["v1","v1"]'].map(acceptor(short, JS).dfa)).toEqual([true, false]);
  });
});
