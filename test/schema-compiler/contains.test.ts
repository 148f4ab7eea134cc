/**
 * `contains` in the grammar (src/schema-compiler/contains.ts) and its negation (negate.ts:
 * `not contains` as items of `not C`, `not items` as contains of `not S`): wherever the report says
 * every keyword is enforced, every array of up to 5 items over a small pool (and some non-arrays)
 * is accepted exactly when ajv accepts it, through the byte automaton and the reference matcher;
 * random bounds and item schemas come from fast-check. Hit counts stay checked after decoding.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PocketExtractError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";
import { arraysOver } from "./support/arrays-over.js";

const JS = { mode: "jsonschema" } as const;
const ajv = new Ajv2020({ strict: false });

const POOL: readonly unknown[] = [0, 2, "a", "", null, [1]];
const INSTANCES: readonly unknown[] = [...arraysOver(POOL, 5), "a", 1, {}, null];

/** "enforced" (and then agreeing with ajv on every instance), "validatedAfter", or "unsatisfiable" (ajv rejects them all). */
function check(schema: object): "enforced" | "validatedAfter" | "unsatisfiable" {
  const validate = ajv.compile(schema);
  let report;
  try {
    report = compileSchema(schema, JS).report;
  } catch (err) {
    if (!(err instanceof PocketExtractError) || err.code !== "SCHEMA_UNSATISFIABLE") throw err;
    for (const x of INSTANCES) expect({ schema, x, valid: validate(x) }).toEqual({ schema, x, valid: false });
    return "unsatisfiable";
  }
  if (report.validatedAfter.length > 0) return "validatedAfter";
  const acc = acceptor(schema, JS);
  for (const x of INSTANCES) {
    const text = JSON.stringify(x);
    const valid = validate(x);
    expect({ schema, text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ schema, text, dfa: valid, ref: valid });
  }
  return "enforced";
}

const itemSchemas: readonly object[] = [{ type: "string" }, { const: 2 }, { type: "integer", minimum: 1 }, { enum: ["a", null] }, { type: "array" }, { minLength: 1 }];

describe("contains", () => {
  it("one hit among the items, with minItems/maxItems and an items schema", () => {
    const bounds = fc.record({ min: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), max: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }) });
    const schemaArb = fc.tuple(fc.constantFrom(...itemSchemas), fc.option(fc.constantFrom(...itemSchemas), { nil: undefined }), bounds).map(([contains, items, { min, max }]) => ({
      type: "array",
      contains,
      ...(items === undefined ? {} : { items }),
      ...(min === undefined ? {} : { minItems: min }),
      ...(max === undefined ? {} : { maxItems: max }),
    }));
    fc.assert(
      fc.property(schemaArb, (schema) => {
        expect(check(schema)).not.toBe("validatedAfter");
      }),
      { numRuns: 60 },
    );
  });

  it("nested, and without type: array (other types pass)", () => {
    expect(check({ contains: { type: "array", contains: { const: 1 } } })).toBe("enforced");
    expect(check({ contains: { const: "a" }, minItems: 2 })).toBe("enforced");
  });

  it("no possible hit: unsatisfiable as an array", () => {
    expect(check({ type: "array", contains: false })).toBe("unsatisfiable");
    expect(check({ type: "array", items: { type: "string" }, contains: { type: "integer" } })).toBe("unsatisfiable");
  });

  it("hit counts and positional items stay checked after decoding", () => {
    expect(check({ type: "array", contains: { const: 2 }, minContains: 2 })).toBe("validatedAfter");
    expect(check({ type: "array", contains: { const: 2 }, maxContains: 1 })).toBe("validatedAfter");
    expect(check({ type: "array", prefixItems: [{ type: "string" }], contains: { const: 2 } })).toBe("validatedAfter");
  });
});

describe("contains and items negated", () => {
  it("not contains: every item fails it; not items: some item fails it", () => {
    for (const s of [{ type: "string" }, { enum: ["a", null] }, { minLength: 1 }, { type: "array" }]) {
      expect(check({ type: "array", not: { contains: s } })).toBe("enforced");
      expect(check({ not: { items: s } })).toBe("enforced");
      expect(check({ type: "array", not: { items: s, contains: { type: "string" } } })).toBe("enforced");
    }
  });

  it("a oneOf whose array branches overlap is made exclusive through them", () => {
    expect(check({ oneOf: [{ type: "array", items: { type: "string" } }, { type: "array", items: { type: "number", minimum: 1 } }] })).toBe("enforced");
    expect(check({ type: "array", oneOf: [{ contains: { type: "string" } }, { contains: { enum: ["a", null] } }] })).toBe("enforced");
  });

  it("no exact negation of the item schema (an array's complement, hit counts): checked after decoding", () => {
    expect(check({ not: { items: { multipleOf: 3 } } })).toBe("validatedAfter");
    expect(check({ type: "array", not: { contains: { const: 2 } } })).toBe("enforced");
    expect(check({ type: "array", not: { contains: { const: [1] } } })).toBe("validatedAfter");
    expect(check({ type: "array", not: { contains: { type: "string" }, minContains: 2 } })).toBe("validatedAfter");
  });
});
