/**
 * "Some entry fails it" (some-entry.ts, entry-forms.ts): `not` of patternProperties,
 * additionalProperties and propertyNames, written by the object grammar, and the oneOf
 * rewritings that need it (a branch whose names are closed, negated beside one whose names are
 * not). Each schema must be reported with nothing checked after decoding, and its grammar must
 * accept exactly the instances ajv accepts among a pool holding both (an object counts as
 * accepted when some order of its keys is: the grammar writes declared properties first).
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const ajv = new Ajv2020({ strict: false });

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

const orderings = (v: unknown): string[] =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? permutations(Object.entries(v)).map((e) => JSON.stringify(Object.fromEntries(e))) : [JSON.stringify(v)];

/** Asserts `schema` is enforced and agrees with ajv on `instances`, of which some are valid and some not. */
function expectExact(schema: Record<string, unknown>, instances: readonly unknown[]): void {
  expect(compileSchema(schema, { mode: "jsonschema" }).report.validatedAfter).toEqual([]);
  const validate = ajv.compile(schema);
  const acc = acceptor(schema, { mode: "jsonschema" });
  const verdicts = instances.map((inst) => {
    const texts = orderings(inst);
    return { inst, valid: validate(inst), dfa: texts.some((t) => acc.dfa(t)), ref: texts.some((t) => acc.ref(t)) };
  });
  expect(verdicts).toEqual(verdicts.map(({ inst, valid }) => ({ inst, valid, dfa: valid, ref: valid })));
  expect(new Set(verdicts.map((v) => v.valid))).toEqual(new Set([true, false]));
}

const OBJECTS: unknown[] = [
  {}, { a: 1 }, { b: "x" }, { a: 1, b: 2 }, { c: 1 }, { a: 1, c: "c" }, { ab: 1 }, { ba: true }, { abc: [] }, { x1: 1 }, { x1: "s" }, { x2: 2, y: 1 },
  { a: { p: "s" } }, { a: { p: 1 } }, { a: { p: "s", z: 1 } }, { b: { q: 1 } }, { b: { q: 1, z: 0 } }, { a: { p: "s" }, b: { q: 1 } }, { a: { p: "s" }, b: { q: "n" } },
  { a: { p: "s", z: 1 }, b: { q: 1 } }, { a: {}, b: {} }, null, "a", 1, [],
];

describe("not: some entry fails the keyword", () => {
  it("not additionalProperties: a key outside the declared names (and patterns), with a value the schema rejects", () => {
    expectExact({ type: "object", not: { additionalProperties: false, properties: { a: true, b: true } } }, OBJECTS);
    expectExact({ type: "object", properties: { a: { type: "number" } }, not: { additionalProperties: { type: "number" }, properties: { a: true }, patternProperties: { "^x": true } } }, OBJECTS);
  });

  it("not patternProperties: a key matching the pattern, declared or additional, with a value its schema rejects", () => {
    expectExact({ type: "object", properties: { x1: { type: ["number", "string"] } }, not: { patternProperties: { "^x": { type: "number" } } } }, OBJECTS);
    expectExact({ not: { patternProperties: { "^a": { type: "number" }, c: false } } }, OBJECTS);
  });

  it("not propertyNames: a key the names schema rejects (pattern, length, names, a negated pattern)", () => {
    expectExact({ type: "object", properties: { a: { type: "number" } }, not: { propertyNames: { pattern: "^a" } } }, OBJECTS);
    expectExact({ type: "object", not: { propertyNames: { maxLength: 1, not: { pattern: "c" } } } }, OBJECTS);
    expectExact({ type: "object", not: { propertyNames: { enum: ["a", "b"] } } }, OBJECTS);
  });

  it("several such nots: each met by some entry (one entry may meet several)", () => {
    expectExact({ type: "object", allOf: [{ not: { propertyNames: { not: { pattern: "a" } } } }, { not: { propertyNames: { not: { pattern: "b" } } } }] }, OBJECTS);
  });

  it("within minProperties and maxProperties (the entries counted with the conditions met)", () => {
    expectExact({ type: "object", maxProperties: 1, allOf: [{ not: { propertyNames: { not: { pattern: "a" } } } }, { not: { propertyNames: { not: { pattern: "b" } } } }] }, OBJECTS);
    expectExact({ type: "object", properties: { a: true }, minProperties: 2, maxProperties: 2, not: { additionalProperties: false, properties: { a: true, b: true } } }, OBJECTS);
  });

  it("beside dependencies the not stays checked after decoding", () => {
    const report = compileSchema({ type: "object", dependentRequired: { a: ["b"] }, not: { propertyNames: { pattern: "^a" } } }, { mode: "jsonschema" }).report;
    expect(report.validatedAfter.map((u) => u.keyword)).toEqual(["not"]);
  });
});

describe("oneOf: branches negated with some entry", () => {
  // Keyed by a required property whose value's names are closed (additionalProperties: false),
  // beside siblings that leave those values open: "the other key absent, or its value with
  // another name or failing", one part per branch.
  const closedValue = (p: string, type: string) => ({ type: "object", properties: { [p]: { type } }, additionalProperties: false });
  it("a key per branch, its value closed", () => {
    expectExact({ type: "object", properties: { a: true, b: true }, oneOf: [{ required: ["a"], properties: { a: closedValue("p", "string") } }, { required: ["b"], properties: { b: closedValue("q", "number") } }] }, OBJECTS);
  });

  it("many keyed branches conjoin one part each instead of multiplying out", () => {
    const keys = ["a", "b", "c", "d", "e", "f"];
    const value = { type: "object", required: ["p"], properties: { p: { type: "string" }, q: { type: "number" } } };
    const schema = { type: "object", oneOf: keys.map((k) => ({ required: [k], properties: { [k]: value } })) };
    expectExact(schema, [...OBJECTS, { a: { p: "s" }, c: { p: 1 } }, { a: { p: "s" }, c: { q: 1 } }, { e: { p: "" }, f: { p: "", q: 1 } }, { f: { p: "s", q: "n" } }]);
  });
});
