/**
 * patternProperties whose patterns may share keys (src/schema-compiler/pattern-regions.ts): a key
 * matching several patterns must satisfy all their schemas. Random objects against ajv, for
 * random groups of overlapping patterns with schemas that do not imply each other.
 */

import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const JS = { mode: "jsonschema" } as const;

const PATTERNS = ["a", "b", "^a", "c$", "^[ab]+$", "ab", "^x"];
const KEYS = ["a", "b", "ab", "ba", "abc", "c", "bc", "x", "xa", "xc", "aab", ""];

const valueSchema = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })).map(([lo, span]) => ({ type: "integer", minimum: lo, maximum: lo + span })),
  fc.constantFrom({ type: "integer", multipleOf: 2 }, { type: "string" }, { enum: [1, 2, "a"] }, true, false),
);

const schemaArb = fc.record({
  patterns: fc.uniqueArray(fc.constantFrom(...PATTERNS), { minLength: 2, maxLength: 3 }),
  schemas: fc.array(valueSchema, { minLength: 3, maxLength: 3 }),
  additionalProperties: fc.constantFrom(undefined, false, { type: "string" }),
}).map(({ patterns, schemas, additionalProperties }) => ({
  type: "object",
  patternProperties: Object.fromEntries(patterns.map((p, i) => [p, schemas[i]])),
  ...(additionalProperties === undefined ? {} : { additionalProperties }),
}));

const instanceArb = fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.integer({ min: -1, max: 8 }), fc.constantFrom("a", "z")), { maxKeys: 4 });

describe("patternProperties with patterns that share keys", () => {
  it("a key matching several patterns gets a value that satisfies all of their schemas (random schemas against ajv)", () => {
    const ajv = new Ajv({ strict: false });
    let enforced = 0;
    fc.assert(
      fc.property(schemaArb, fc.array(instanceArb, { minLength: 10, maxLength: 20 }), (schema, instances) => {
        const { report } = compileSchema(schema, JS);
        // Only what the report calls enforced must match ajv exactly.
        if (report.validatedAfter.length > 0) return;
        enforced++;
        const acc = acceptor(schema, JS);
        const valid = ajv.compile(schema);
        for (const instance of instances) {
          const text = JSON.stringify(instance);
          expect(acc.dfa(text), `${JSON.stringify(schema)} ${text}`).toBe(valid(instance));
        }
      }),
      { numRuns: 200 },
    );
    // Groups of up to three patterns are split exactly: nearly every random schema is enforced.
    expect(enforced).toBeGreaterThan(150);
  });

  it("splits two overlapping patterns into their own keys and their shared keys", () => {
    const schema = { type: "object", patternProperties: { a: { type: "integer", minimum: 10 }, b: { type: "integer", maximum: 20 } } };
    expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
    const acc = acceptor(schema, JS);
    expect(['{"a":50}', '{"b":5}', '{"ab":15}', '{"ab":5}', '{"ab":25}', '{"c":"x"}'].map(acc.dfa)).toEqual([true, true, true, false, false, true]);
  });

  it("keys whose schemas contradict cannot be written; more than three patterns sharing keys are checked after decoding", () => {
    const contradicting = { type: "object", patternProperties: { a: { type: "string" }, b: { type: "integer" } } };
    expect(['{"a":"x"}', '{"b":1}', '{"ab":"x"}', '{"ab":1}'].map(acceptor(contradicting, JS).dfa)).toEqual([true, true, false, false]);
    const four = { type: "object", patternProperties: { a: { minimum: 1 }, b: { maximum: 9 }, c: { multipleOf: 2 }, d: { type: "integer" } } };
    expect(compileSchema(four, JS).report.validatedAfter.map((u) => u.keyword)).toEqual(["patternProperties"]);
  });
});
