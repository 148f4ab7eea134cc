/**
 * oneOf exclusivity proofs (exclusive.ts) and `not` rewritings (negate.ts, enum values decided
 * per value, string exclusions): wherever the report says every keyword is enforced, the grammar
 * must accept exactly the instances ajv accepts (same draft, ajv 8 as src/validate uses). Checked on
 * handwritten schemas, each also asserted to be reported enforced (the proof fires) or not (it
 * must not fire), and on random schemas built from the keywords involved. Instances come from a
 * fixed pool plus random JSON; an object counts as accepted when some order of its top-level keys
 * is (the grammar writes declared properties first, in schema order, and ajv ignores order).
 */

import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PocketExtractError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { MAX_OVERLAPPING_PAIRS } from "../../src/schema-compiler/one-of.js";
import { acceptor } from "./support/accept.js";
import { expectLanguage, raw } from "./support/expect.js";

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const ajv2020 = new Ajv2020({ strict: false });
const ajv7 = new Ajv({ strict: false });

type Schema = boolean | Record<string, unknown>;

const SCALARS: unknown[] = [null, true, false, 0, 1, -1, 2, 1.5, "", "a", "b", "ab", "ba", "abc"];
const POOL: unknown[] = [
  ...SCALARS, [], [1], ["a"], [1, "a"], [1, 2, 3], [[]], [{ a: 1 }],
  {}, { a: 1 }, { a: "a" }, { b: 1 }, { kind: "a" }, { kind: "b", a: 1 }, { kind: 1 }, { a: 1, b: "b" }, { a: null, b: 2, kind: "a" }, { a: { a: 1 } }, { a: [] },
];

const scalar = fc.constantFrom(...SCALARS);
const small = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constant("a"), scalar, { maxKeys: 1 }));
const instanceArb: fc.Arbitrary<unknown> = fc.oneof(small, fc.array(small, { maxLength: 3 }), fc.dictionary(fc.constantFrom("a", "b", "kind"), small, { maxKeys: 3 }));

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** The value with its top-level keys in every order (nested objects have at most one key). */
function orderings(v: unknown): unknown[] {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return [v];
  return permutations(Object.entries(v)).map((entries) => Object.fromEntries(entries));
}

type Outcome = "enforced" | "validatedAfter" | "unsatisfiable" | "skipped";

/**
 * Compiles `schema` (JSON Schema mode); when the report has nothing checked after decoding,
 * asserts the grammar accepts exactly what ajv accepts among `instances`.
 */
function check(schema: Schema, generated: readonly unknown[]): Outcome {
  // As parsed JSON: ajv's deep equality (enum, const) tells null-prototype objects apart.
  const instances: unknown[] = generated.map((x) => JSON.parse(JSON.stringify(x)));
  const validate = (typeof schema === "object" && schema.$schema === D7 ? ajv7 : ajv2020).compile(schema);
  let report;
  try {
    report = compileSchema(schema, { mode: "jsonschema" }).report;
  } catch (err) {
    if (!(err instanceof PocketExtractError)) throw err;
    if (err.code !== "SCHEMA_UNSATISFIABLE") return "skipped";
    for (const inst of instances) expect({ schema, inst, valid: validate(inst) }).toEqual({ schema, inst, valid: false });
    return "unsatisfiable";
  }
  if (report.validatedAfter.length > 0) return "validatedAfter";
  let acc;
  try {
    acc = acceptor(schema, { mode: "jsonschema" });
  } catch (err) {
    if (err instanceof PocketExtractError) return "skipped";
    throw err;
  }
  for (const inst of instances) {
    const texts = orderings(inst).map((o) => JSON.stringify(o));
    const dfa = texts.some((t) => acc.dfa(t));
    const ref = texts.some((t) => acc.ref(t));
    const valid = validate(inst);
    expect({ schema, inst, dfa, ref }).toEqual({ schema, inst, dfa: valid, ref: valid });
  }
  return "enforced";
}

/** Each schema must be reported exactly as `expected` and, when enforced, agree with ajv. */
function expectAll(expected: Outcome, schemas: readonly Schema[]): void {
  for (const s of schemas) {
    const schema = typeof s === "object" && !("$schema" in s) ? { $schema: D2020, ...s } : s;
    expect({ schema, outcome: check(schema, POOL) }).toEqual({ schema, outcome: expected });
  }
}

describe("oneOf: branches proven disjoint are exact as anyOf", () => {
  it("disjoint types (integer inside number; no type = every type)", () => {
    expectAll("enforced", [
      { oneOf: [{ type: "string" }, { type: "integer" }] },
      { oneOf: [{ type: "string" }, { type: "number" }, { type: ["null", "boolean"] }] },
      { oneOf: [{ type: "null" }, { type: "object", properties: { a: { type: "integer" } } }] },
      { oneOf: [{ type: "array" }, { allOf: [{ type: ["string", "array"] }, { type: "string" }] }] },
      { $defs: { s: { type: "string" } }, oneOf: [{ $ref: "#/$defs/s" }, { type: "integer", minimum: 0 }] },
      { type: "object", oneOf: [{ type: ["object", "string"] }, { type: ["string", "array"] }] },
    ]);
    // Integers satisfy both: the first branch keeps the non-integers (non-integer.ts).
    expectAll("enforced", [{ oneOf: [{ type: "number" }, { type: "integer" }] }]);
    // Non-integers beside bounds are not spelled.
    expectAll("validatedAfter", [{ oneOf: [{ type: "number", minimum: 0 }, { type: "integer" }] }]);
  });

  it("disjoint value sets (enum/const, or values the other branch rejects)", () => {
    expectAll("enforced", [
      { oneOf: [{ enum: [1, 2, "a"] }, { enum: [3, "b", null] }] },
      { oneOf: [{ const: 1 }, { type: "string" }] },
      { oneOf: [{ const: "abc" }, { type: "string", maxLength: 2 }] },
      { oneOf: [{ enum: [{ a: 1 }] }, { type: "object", required: ["b"] }] },
      { enum: ["a", "ab"], oneOf: [{ maxLength: 1 }, { minLength: 2 }] },
    ]);
    // The integers but 1 and 2 (open intervals around them) for the second branch.
    expectAll("enforced", [{ oneOf: [{ enum: [1, 2] }, { type: "integer" }] }]);
    // An array in an enum has no exact complement (the second branch needs one).
    expectAll("validatedAfter", [{ oneOf: [{ enum: [[1], 2] }, { type: "array" }] }]);
  });

  it("branches with finitely many values: each keeps the values no other branch accepts", () => {
    expectAll("enforced", [
      { oneOf: [{ enum: ["a", 1, 2, [1]] }, { enum: ["a", "b", 2, null, [1]] }] },
      { $defs: { e: { enum: [1, 1.5, "ab", { a: 1 }] } }, oneOf: [{ $ref: "#/$defs/e" }, { enum: [1.5, true, { a: 1 }] }] },
      // Values from the siblings; the other branch decided per value (its bounds, length, not).
      { enum: [0, 1, 2, "a", "ab", "abc"], oneOf: [{ minimum: 1 }, { maxLength: 1 }, { type: "string", not: { const: "ab" } }] },
    ]);
    // No value in exactly one branch.
    expectAll("unsatisfiable", [{ enum: [1, 2], oneOf: [{ const: 1 }, { const: 1 }, { const: 2 }, { enum: [2] }] }]);
    // multipleOf is decided per value (on decimals, as src/validate decides it).
    expectAll("enforced", [{ oneOf: [{ enum: [1, 2, 3] }, { enum: [2, 4], multipleOf: 2 }, { enum: [3], multipleOf: 3, not: { multipleOf: 2 } }] }]);
    // An undecided verdict (contains is not decided at compile time) keeps the check after decoding.
    expectAll("validatedAfter", [{ oneOf: [{ enum: [[1], [2]] }, { enum: [[2], [3]], contains: { const: 2 } }] }]);
  });

  it("discriminators and forbidden names, through allOf and $ref", () => {
    const kind = (k: string): Schema => ({ type: "object", properties: { kind: { const: k }, a: { type: "integer" } }, required: ["kind"] });
    expectAll("enforced", [
      { oneOf: [kind("a"), kind("b")] },
      { type: "object", oneOf: [{ properties: { kind: { enum: ["a"] } }, required: ["kind"] }, { properties: { kind: { enum: ["b", 1] } }, required: ["kind"] }] },
      {
        $defs: { base: { type: "object", required: ["kind"] }, a: { allOf: [{ $ref: "#/$defs/base" }, { properties: { kind: { const: "a" } } }] } },
        oneOf: [{ $ref: "#/$defs/a" }, { allOf: [{ $ref: "#/$defs/base" }, { properties: { kind: { const: "b" } } }] }],
      },
      // Only one side requires the name; the other constrains it if present.
      { oneOf: [kind("a"), { type: "object", properties: { kind: { type: "integer" } } }] },
      { type: "object", oneOf: [{ required: ["a", "b"] }, { properties: { a: { type: "integer" } }, additionalProperties: false }] },
      { type: "object", oneOf: [{ required: ["a"] }, { properties: { a: false } }] },
      // A required name's value against the other side's patternProperties or additionalProperties.
      { type: "object", oneOf: [{ required: ["a"], properties: { a: { type: "string" } } }, { patternProperties: { "^a": { type: "number" } } }] },
      { type: "object", oneOf: [{ required: ["kind"], properties: { kind: { type: "string" } } }, { properties: { a: true }, additionalProperties: { enum: [false] } }] },
      // More required names than the other side allows properties.
      { oneOf: [{ type: "object", required: ["kind", "a"] }, { type: "object", additionalProperties: { type: "boolean" }, minProperties: 1, maxProperties: 1 }] },
      // A name one side requires and the other excludes with `not: {required: [name]}` (or an anyOf of such).
      { type: "object", oneOf: [{ required: ["a"] }, { not: { required: ["a"] } }] },
      { type: "object", oneOf: [{ required: ["b"], patternProperties: { "^k": { multipleOf: 2 } } }, { allOf: [{ patternProperties: { "^k": { multipleOf: 3 } } }, { not: { anyOf: [{ required: ["a"] }, { required: ["b"] }] } }] }] },
    ]);
    // `not: {required: [a, b]}` excludes neither name alone: a and b overlap on {a: ..}, which
    // patternProperties (no exact negation) keeps from being rewritten.
    expectAll("validatedAfter", [{ type: "object", oneOf: [{ required: ["a"], patternProperties: { "^k": { multipleOf: 2 } } }, { patternProperties: { "^k": { multipleOf: 3 } }, not: { required: ["a", "b"] } }] }]);
    // Overlap: the second branch keeps the objects whose `a` is not an integer or whose kind is not "a".
    expectAll("enforced", [{ oneOf: [kind("a"), { type: "object", properties: { kind: { type: "string" } } }] }]);
    expectAll("enforced", [
      // Overlap, and patternProperties negated as "some entry whose key matches" (some-entry.ts).
      { type: "object", oneOf: [{ required: ["a"] }, { patternProperties: { "^a": false } }, { properties: { b: false } }] },
    ]);
  });

  it("oneOf merged from allOf, and the verdict reaches the input occurrence", () => {
    expectAll("enforced", [{ allOf: [{ oneOf: [{ type: "string" }, { type: "integer" }] }, { oneOf: [{ type: "null" }, { minLength: 1 }] }] }]);
    expectAll("validatedAfter", [{ allOf: [{ oneOf: [{ type: "string" }, { type: "number" }] }, { oneOf: [{ minimum: 1 }, { type: "integer", maximum: 5 }] }] }]);
  });
});

describe("oneOf: overlapping branches rewritten to exclude each other (exact negations)", () => {
  it("required sets, subsets, and branches that overlap on other types", () => {
    const dims = { type: "object", properties: { a: { type: "number" }, b: { type: "number" }, kind: { type: "string" } } };
    expectAll("enforced", [
      { type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] },
      { ...dims, oneOf: [{ required: ["a", "b"] }, { required: ["kind"] }] },
      // One branch inside the other: only the larger one's extra instances remain for it.
      { ...dims, oneOf: [{ required: ["a"] }, { required: ["a", "b"] }, { required: ["kind"] }] },
      { oneOf: [{ type: "object" }, { required: ["a"] }] },
      // Without type: object a string satisfies both, so no string is valid.
      { oneOf: [{ properties: { kind: { const: "a" } }, required: ["kind"] }, { properties: { kind: { const: "b" } }, required: ["kind"] }] },
      { oneOf: [{ type: "string" }, { properties: { a: { type: "integer" } } }] },
      { oneOf: [{ type: "string" }, { minimum: 2 }] },
      // 1 satisfies both (length keywords constrain strings only).
      { enum: ["a", "ab", 1], oneOf: [{ maxLength: 1 }, { minLength: 2 }] },
      { oneOf: [{ const: "ab" }, { type: "string", maxLength: 2 }] },
      { oneOf: [{ maxLength: 1 }, { minLength: 1, maxLength: 2 }, { not: { type: "string" } }] },
      { allOf: [{ oneOf: [{ type: "string" }, { type: "integer" }] }, { oneOf: [{ type: "string" }, { minLength: 1 }] }] },
    ]);
  });

  it("$ref branches with additionalProperties: false and a discriminator, without type: object", () => {
    const defs = {
      a: { properties: { kind: { enum: ["a"] }, a: { type: "number" } }, additionalProperties: false, required: ["kind"] },
      b: { properties: { kind: { enum: ["b"] }, b: { type: "string" } }, additionalProperties: false, required: ["kind", "b"] },
    };
    expectAll("enforced", [
      { $schema: D7, definitions: defs, oneOf: [{ $ref: "#/definitions/a" }, { $ref: "#/definitions/b" }] },
      { $defs: defs, oneOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }, { type: "string" }] },
    ]);
  });

  it("negations relative to the branch: closed names, shared property schemas, property types", () => {
    const closed = (kind: string, name: string): Schema => ({ type: "object", properties: { kind: { const: kind }, [name]: { type: "number" } }, additionalProperties: false });
    const tags = { type: "array", items: { type: "string" } };
    const base = { base: { type: "object", patternProperties: { "^k": { type: "string" } } } };
    expectAll("enforced", [
      // {} satisfies both; an extra name of one branch is one the other forbids.
      { oneOf: [closed("a", "a"), closed("b", "b")] },
      { type: "object", oneOf: [{ properties: { a: { type: "string" } }, additionalProperties: false }, { properties: { b: { type: "string" } }, additionalProperties: false }] },
      // `items` has no exact negation, but the same property schema on both sides cannot fail on one.
      { oneOf: [{ type: "object", properties: { kind: { const: "a" }, a: tags } }, { type: "object", properties: { kind: { const: "b" }, a: tags } }] },
      { $defs: { tags }, oneOf: [{ type: "object", properties: { kind: { const: "a" }, a: { $ref: "#/$defs/tags" } } }, { type: "object", properties: { kind: { const: "b" }, a: { $ref: "#/$defs/tags" } } }] },
      // The other branch's array schema fails every string (negation within the property's types).
      { oneOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { a: tags } }] },
      // Arrays of numbers and arrays of strings overlap on []: each keeps its non-empty arrays.
      { oneOf: [{ type: "string" }, { type: "array", items: { type: "number" } }, tags] },
      { type: "object", properties: { a: { oneOf: [{ type: "array", items: { type: "integer" } }, { type: "array", items: { type: "boolean" } }] } } },
      // An integer property against "integer and at least 1": the integral values need no "non-integer" form.
      { oneOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { a: { type: "integer", minimum: 1 } }, required: ["a"] }] },
      // A part both branches share cannot fail beside either (patternProperties alone has no negation).
      { $defs: base, oneOf: [{ allOf: [{ $ref: "#/$defs/base" }, { required: ["a"] }] }, { allOf: [{ $ref: "#/$defs/base" }, { required: ["b"] }] }] },
      { $defs: base, oneOf: [{ allOf: [{ $ref: "#/$defs/base" }, { required: ["a"] }] }, { allOf: [{ $ref: "#/$defs/base" }, { required: ["b"] }, { not: { required: ["a"] } }] }, { type: "string" }] },
      // An optional discriminator: each branch's kind fails every other branch, a part all its
      // negations share (factored out: multiplied, the 7 negations of 2 parts make 128
      // alternatives, past the limit); kind and a with finitely many values keep those the
      // other branch rejects.
      { type: "object", oneOf: [0, 1, 2, 3, 4, 5, 6, 7].map((n) => ({ properties: { kind: { const: n }, a: { maxLength: n } } })) },
      { oneOf: [{ type: "object", properties: { kind: { enum: ["a", "b"] }, a: { enum: [1, 2] } } }, { type: "object", properties: { kind: { enum: ["b", 1] }, a: { enum: [2, "a"] } } }] },
      { type: "object", oneOf: [{ properties: { kind: { const: "a" }, a: { enum: ["a", "ab"] } } }, { properties: { kind: { const: "b" }, a: { maxLength: 1 } } }, { properties: { a: { type: "string" } } }] },
      // additionalProperties and patternProperties that accept everything never fail.
      { type: "object", oneOf: [{ required: ["a"] }, { properties: { b: { type: "string" } }, required: ["b"], additionalProperties: true }] },
      { type: "object", oneOf: [{ required: ["a"] }, { patternProperties: { "^k": {}, b: { description: "any" } }, required: ["b"] }] },
    ]);
    // The same patternProperties written on one side only does not hold on the other: "some
    // entry whose key matches and whose value fails" there; names not closed on the second
    // branch: the first's additionalProperties, "some entry with another name" (some-entry.ts).
    expectAll("enforced", [
      { $defs: base, oneOf: [{ required: ["a"] }, { allOf: [{ $ref: "#/$defs/base" }, { required: ["b"] }] }] },
      { type: "object", oneOf: [{ properties: { a: { type: "number" } }, additionalProperties: false }, { patternProperties: { "^a": { type: "string" } } }] },
    ]);
  });
});

describe("oneOf: a rewriting past a size limit gives way to the branches as written", () => {
  // Github_hard---o33131 compiled (exactly-one checked after decoding) until the rewriting, whose
  // negations declare properties again, took it past maxSchemaProperties.
  const closed = (kind: string, name: string): Schema => ({ type: "object", properties: { kind: { const: kind }, [name]: { type: "number" } }, additionalProperties: false });
  const schema = { $schema: D2020, oneOf: [closed("a", "a"), closed("b", "b")] };

  it("compiles with the written branches as anyOf, exactly-one reported as checked after decoding", () => {
    const compiled = compileSchema(schema, { mode: "jsonschema", maxSchemaProperties: 4 });
    expect(compiled.report.validatedAfter.map((u) => [u.keyword, u.pointer])).toEqual([["oneOf", ""]]);
    expect(compiled.report.validatedAfter[0]!.note).toMatch(/past a size limit/);
    const acc = acceptor(schema, { mode: "jsonschema", maxSchemaProperties: 4 });
    // {} satisfies both branches: the grammar admits it, the validator refuses it.
    for (const text of ['{"kind":"a","a":1}', '{"kind":"b","b":2}', "{}"]) expect({ text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ text, dfa: true, ref: true });
    expect(acc.dfa('{"kind":"c"}')).toBe(false);
  });

  it("with room for it the rewriting is kept and exact", () => {
    expect(compileSchema(schema, { mode: "jsonschema", maxSchemaProperties: 8 }).report.validatedAfter).toEqual([]);
    expect(check(schema, POOL)).toBe("enforced");
  });

  it("a schema too large without the rewriting still fails", () => {
    expect(() => compileSchema(schema, { mode: "jsonschema", maxSchemaProperties: 3 })).toThrow(/maxSchemaProperties/);
  });
});

describe("not: rewritten to an exact positive schema", () => {
  it("types, booleans, nested not/anyOf/allOf, $ref", () => {
    expectAll("enforced", [
      { not: { type: "string" } },
      { not: { type: ["number", "null"] } },
      { not: { not: { type: "array" } } },
      { not: { anyOf: [{ type: "string" }, { type: "object" }] } },
      { not: { allOf: [{ type: ["string", "number"] }, { not: { type: "number" } }] } },
      { not: false },
      { type: "string", not: { not: { minLength: 2 } } },
      { $defs: { s: { type: ["string", "boolean"] } }, not: { $ref: "#/$defs/s" } },
      { $schema: D7, definitions: { s: { type: "string" } }, not: { $ref: "#/definitions/s" } },
    ]);
    expectAll("unsatisfiable", [{ not: {} }, { not: true }, { type: "string", not: { type: "string" } }]);
    expectAll("validatedAfter", [{ not: { multipleOf: 2 } }, { not: { oneOf: [{ type: "string" }, { multipleOf: 2 }] } }]);
  });

  it("integer: the other types and the non-integers (at most 15 digits, no exponent)", () => {
    expectAll("enforced", [{ not: { type: "integer" } }, { type: "number", not: { type: "integer" } }, { type: ["number", "string"], not: { type: ["integer", "string"] } }]);
    expectAll("validatedAfter", [{ type: "number", minimum: 0, not: { type: "integer" } }]);
  });

  it("oneOf: none of the branches, or two that may overlap at once", () => {
    expectAll("enforced", [
      { not: { oneOf: [{ type: "string" }] } },
      { not: { oneOf: [{ type: "string" }, { minLength: 2 }] } },
      { not: { oneOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }, { type: "integer" }] } },
      { type: "object", oneOf: [{ required: ["a"], oneOf: [{ required: ["b"] }, { required: ["kind"] }] }, { required: ["b"] }] },
    ]);
  });

  it("enum/const: strings excluded from the string token, booleans and null by type, numbers by the intervals around them", () => {
    expectAll("enforced", [
      { not: { enum: ["a", "ab"] } },
      { type: "string", not: { const: "" } },
      { type: "string", minLength: 1, not: { enum: ["a", "b"] } },
      { not: { enum: [true, null, "a"] } },
      { not: { const: false } },
      { allOf: [{ not: { const: "a" } }, { not: { const: "b" } }] },
      { type: ["string", "boolean"], not: { enum: ["ab", true] } },
      { not: { const: 1 } },
      { type: ["string", "integer"], not: { enum: ["ab", 1] } },
      { not: { enum: [2, -1, 1.5, 1, "a"] } },
      { type: "number", not: { enum: [0, 1.0] } },
    ]);
    expectAll("validatedAfter", [{ not: { enum: [[]] } }, { not: { enum: [1, { a: 1 }] } }]);
    // At the excluded numbers' edges (decimal comparison, exact up to 15 significant digits; number-range.ts).
    expectLanguage({ not: { enum: [1, 2.5] } }, { mode: "jsonschema" }, [0.5, 3, 2.4, raw("1.5"), raw("2.5000001"), "a", null], [1, 2.5, raw("1.0"), raw("2.50")]);
  });

  it("object, array, string and count keywords", () => {
    expectAll("enforced", [
      { not: { required: ["a"] } },
      { type: "object", not: { required: ["a", "b"] } },
      { not: { properties: { a: { type: "number" }, b: true, kind: false } } },
      { not: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
      { not: { minLength: 2 } },
      { not: { maxItems: 1 } },
      { not: { minProperties: 1 } },
      { not: { items: false } },
      { not: { items: { type: "string" } } },
      { type: "object", not: { propertyNames: false } },
      { not: { propertyNames: { not: { enum: ["a", "kind", 1] } } } },
    ]);
    expectAll("unsatisfiable", [{ not: { propertyNames: { type: "string" } } }]);
    // Dependencies: one of the names, and a listed name missing or the dependent schema failed.
    expectAll("enforced", [
      { not: { dependencies: { a: ["b", "kind"], b: { required: ["kind"] } } } },
      { not: { dependentRequired: { a: ["b"] }, dependentSchemas: { kind: { properties: { a: { type: "string" } } } } } },
      { $schema: D7, not: { dependencies: { a: ["a", "b"] } } },
      { type: "object", oneOf: [{ required: ["a"] }, { dependencies: { a: ["b"] } }] },
      { oneOf: [{ anyOf: [{ required: ["a"], not: { required: ["kind"] } }, { required: ["kind"], not: { required: ["a"] } }] }, { dependencies: { a: { not: { required: ["kind"] } } } }] },
    ]);
    // Before 2019-09 dependentRequired is no keyword: nothing fails it.
    expectAll("unsatisfiable", [{ $schema: D7, type: "object", not: { dependentRequired: { a: ["b"] } } }]);
    expectAll("validatedAfter", [{ not: { uniqueItems: true } }]);
    // Some entry fails them: the object grammar requires one (some-entry.ts).
    expectAll("enforced", [{ not: { patternProperties: { "^a": { type: "string" } } } }, { not: { propertyNames: { pattern: "^a" } } }, { not: { propertyNames: { maxLength: 4 } } }]);
  });

  it("patterns excluded from the string token (any pattern the automaton runs), non-strings refused", () => {
    expectAll("enforced", [
      { not: { pattern: "b" } },
      { type: "string", not: { pattern: "(c)" } },
      { not: { pattern: "^[ab]+$" } },
      { not: { pattern: "^[ab]*$" } },
      { not: { pattern: "^[^b]+$" } },
      { not: { pattern: "^\\w+$" } },
      { not: { pattern: "^ab" } },
      { not: { pattern: "^[ab]+" } },
      { not: { pattern: "^.+$" } },
      { type: "string", minLength: 1, not: { pattern: "^[a\\s]+$" } },
      { type: "object", properties: { a: { not: { pattern: "^[a-z]+$" } } } },
      // Two exclusions merge into one `not` of both; a pattern beside an exclusion.
      { allOf: [{ not: { pattern: "^a" } }, { not: { pattern: "c$" } }] },
      { pattern: "a", not: { pattern: "^ab" } },
      { anyOf: [{ not: { pattern: "a" } }, { type: "number" }] },
      // A string without "b", or a non-string (which every pattern accepts).
      { oneOf: [{ type: "string" }, { pattern: "b" }] },
      // Overlapping patterns: each branch excludes the others'.
      { type: "string", oneOf: [{ pattern: "a" }, { pattern: "b" }, { pattern: "c" }] },
      { oneOf: [{ pattern: "^[a]+$" }, { pattern: "b" }] },
      { type: "string", oneOf: [{ pattern: "^[a-z]+$" }, { pattern: "^[a-c]{2}$" }] },
    ]);
    // Any pattern the automaton runs, look-arounds at its ends included, is excluded as it is: no
    // complement regex, so a branch's pattern beside another's exclusion nests nothing.
    expectAll("enforced", [{ not: { pattern: "^ab" } }, { not: { pattern: "^[ab]+" } }, { not: { pattern: "^.+$" } }, { not: { pattern: "^a" } }]);
    expectAll("enforced", [{ oneOf: [{ pattern: "^[a]+$" }, { pattern: "b" }] }, { oneOf: [{ pattern: "^a" }, { pattern: "^(?!b)c" }] }, { not: { pattern: "^(?=a)" } }]);
    // A format name nobody defines is an annotation: it never fails, so its negation is empty.
    expectAll("enforced", [{ type: "string", oneOf: [{ maxLength: 0 }, { format: "html-selector", minLength: 1 }] }]);
    expectAll("unsatisfiable", [{ not: { format: "html-selector" } }]);
    expectAll("validatedAfter", [{ not: { format: "date" } }, { not: { format: "url" } }]);
    // Strings and patterns together: non-strings still fail the pattern's part.
    expectAll("enforced", [{ not: { anyOf: [{ pattern: "a" }, { const: "b" }] } }, { allOf: [{ not: { pattern: "^a" } }, { not: { const: "c" } }] }]);
    // Three or more patterns under allOf: one string token with a look-ahead for each.
    expectAll("enforced", [
      { allOf: [{ pattern: "a" }, { pattern: "b" }, { pattern: "c" }] },
      { type: "string", allOf: [{ pattern: "^a" }, { allOf: [{ pattern: "b" }, { pattern: "c$" }] }, { not: { pattern: "bb" } }] },
      { allOf: [{ pattern: "a" }, { pattern: "b" }, { pattern: "c" }, { pattern: "d" }] },
    ]);
    // Past MAX_COMBINED_PATTERNS (4) the product of searches is not built: the fifth is checked after decoding.
    expectAll("validatedAfter", [{ allOf: [{ pattern: "a" }, { pattern: "b" }, { pattern: "c" }, { pattern: "d" }, { pattern: "e" }] }]);
    // A format's rule has no exclusion list; its pattern form as a string token has (formats.test.ts),
    // unless a pattern beside it has look-arounds of its own.
    expectAll("validatedAfter", [{ type: "string", format: "date", pattern: "^(?=2)", not: { pattern: "^2" } }]);
  });

  it("enum values decided per value against the sibling keywords", () => {
    expectAll("enforced", [
      { enum: [[], [1, 2, 3], "a"], not: { maxItems: 2 } },
      { allOf: [{ enum: [{ a: 1 }, { a: "x" }, 1] }, { not: { properties: { a: { type: "string" } } } }] },
      { enum: [1, 2, 3], not: { enum: [2] } },
      { enum: [1.5, 3], not: { anyOf: [{ type: "integer" }, { maximum: 1 }] } },
      { enum: ["a", "abc"], minLength: 2, oneOf: [{ const: "abc" }, { type: "number" }] },
    ]);
    expectAll("enforced", [{ enum: [1, 2, 0.07, 0.1], not: { multipleOf: 0.02 } }]);
    // A oneOf beside a keyword that already fails is decided too (not left unjudged).
    expectAll("enforced", [{ allOf: [{ enum: [3, 5, 1.5] }, { not: { allOf: [{ multipleOf: 2 }], oneOf: [{ multipleOf: 5 }, { const: 4 }] } }] }]);
    expectAll("validatedAfter", [{ enum: [[1], [2]], not: { contains: { const: 2 } } }]);
  });

  it("one inexact use of a shared not keeps it checked after decoding", () => {
    const defs = { n: { not: { const: "2020-01-01" } } };
    expectAll("enforced", [{ $defs: defs, type: "object", properties: { a: { type: "string", allOf: [{ $ref: "#/$defs/n" }] } } }]);
    expectAll("validatedAfter", [
      {
        $defs: defs,
        type: "object",
        properties: { a: { type: "string", allOf: [{ $ref: "#/$defs/n" }] }, b: { type: "string", format: "date", pattern: "^(?=2)", allOf: [{ $ref: "#/$defs/n" }] } },
      },
    ]);
  });
});

const VALUES = [null, true, false, 0, 1, 1.5, "", "a", "ab", [], [1], { a: 1 }];
const value = fc.constantFrom(...VALUES);
const objectLeaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constantFrom(
    { type: "string" }, { type: "integer" }, { type: "number" }, { type: "object" }, { type: "array" }, { type: "null" }, { type: "boolean" },
    { type: ["string", "null"] }, { type: ["integer", "array"] }, {}, { items: false },
  ),
  fc.uniqueArray(value, { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) }).map((e) => ({ enum: e })),
  value.map((c) => ({ const: c })),
  fc.constantFrom("a", "b", "kind").map((k) => ({ required: [k] })),
  // A name excluded (the exclusivity proof reads it as forbidden).
  fc.constantFrom("a", "b", "kind").map((k) => ({ not: { required: [k] } })),
  // Dependencies (negated as a name present with a listed one missing).
  fc.tuple(fc.constantFrom("a", "b", "kind"), fc.constantFrom("a", "b", "kind"), fc.constantFrom("dependencies", "dependentRequired")).map(([k, d, keyword]) => ({ [keyword]: { [k]: [d] } })),
  // Closed name sets (the oneOf rewriting negates additionalProperties over them).
  fc.tuple(fc.constantFrom("a", "b", "kind"), fc.constantFrom<Schema>({}, { type: "string" }, { const: 1 })).map(([k, s]) => ({ properties: { [k]: s }, additionalProperties: false })),
  fc.tuple(fc.constantFrom("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"), fc.nat(2)).map(([k, n]) => ({ [k]: n })),
  // Patterns (a `not` of one is excluded from the string token).
  fc.constantFrom("a", "^a", "b$", "^[ab]+$", "^.?$", "ab|ba").map((p) => ({ pattern: p })),
);

/** Schemas over `leaf` (a `$ref` is a leaf only: beside siblings, draft 7 and ajv disagree). */
const schemaOver = (leaf: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> => fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "schema" },
    leaf,
    tie("node").map((s) => ({ not: s })),
    fc.tuple(objectLeaf, tie("node")).map(([sibling, s]) => ({ ...sibling, not: s })),
    fc.tuple(objectLeaf, fc.array(tie("node"), { minLength: 1, maxLength: 3 })).map(([sibling, bs]) => ({ ...sibling, oneOf: bs })),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((bs) => ({ anyOf: bs })),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((bs) => ({ allOf: bs })),
    fc.tuple(fc.constantFrom("a", "b", "kind"), tie("node"), fc.boolean(), fc.boolean()).map(([k, s, required, object]) => ({
      ...(object ? { type: "object" } : {}),
      properties: { [k]: s },
      ...(required ? { required: [k] } : {}),
    })),
    tie("node").map((s) => ({ type: "array", contains: s })),
    fc.array(fc.tuple(value, tie("node")), { minLength: 1, maxLength: 3 }).map((bs) => ({
      type: "object",
      oneOf: bs.map(([k, s]) => ({ properties: { kind: { const: k }, a: s }, required: ["kind"] })),
    })),
  ),
})).node;

const REF = { $ref: "#/definitions/d" };
const definitionArb = schemaOver(fc.oneof(objectLeaf, fc.boolean()));
const schemaArb: fc.Arbitrary<Schema> = fc
  .tuple(schemaOver(fc.oneof(objectLeaf, fc.boolean(), fc.constant(REF))), definitionArb)
  .map(([schema, d]) => (typeof schema === "boolean" || !JSON.stringify(schema).includes("#/definitions/d") ? schema : { definitions: { d }, ...schema }));

describe("random schemas of oneOf, not and their operands", () => {
  it("when reported enforced, the grammar accepts exactly what ajv accepts", () => {
    const counts: Record<Outcome, number> = { enforced: 0, validatedAfter: 0, unsatisfiable: 0, skipped: 0 };
    fc.assert(
      fc.property(schemaArb, fc.constantFrom(D2020, D7), fc.array(instanceArb, { maxLength: 12 }), (schema, draft, extra) => {
        const rooted = typeof schema === "boolean" ? schema : { $schema: draft, ...schema };
        counts[check(rooted, [...POOL, ...extra])]++;
      }),
      { numRuns: 600, seed: 20261130 },
    );
    console.log(`oneOf/not random schemas: ${JSON.stringify(counts)}`);
    // The run must exercise exact grammars, not only the fallbacks.
    expect(counts.enforced).toBeGreaterThan(100);
  }, 300_000);
});

describe("random overlapping oneOf of object branches (the rewriting with relative negations)", () => {
  const key = fc.constantFrom("a", "b", "kind");
  const valueSchema: fc.Arbitrary<Schema> = fc.constantFrom<Schema>({}, { type: "string" }, { type: "number" }, { const: 1 }, { enum: ["a", null] }, { type: "array", items: { type: "string" } }, false);
  const branch: fc.Arbitrary<Schema> = fc
    .record({
      object: fc.boolean(),
      properties: fc.dictionary(key, valueSchema, { maxKeys: 3 }),
      required: fc.uniqueArray(key, { maxLength: 2 }),
      closed: fc.boolean(),
    })
    .map(({ object, properties, required, closed }) => ({
      ...(object ? { type: "object" } : {}),
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(closed ? { additionalProperties: false } : {}),
    }));
  const schemaArb2 = fc.tuple(fc.boolean(), fc.array(branch, { minLength: 2, maxLength: 3 })).map(([typed, oneOf]): Schema => ({ $schema: D2020, ...(typed ? { type: "object" } : {}), oneOf }));
  const objectInstance = fc.dictionary(key, fc.constantFrom<unknown>(null, 1, "a", ["a"], [1], true), { maxKeys: 3 });

  it("when reported enforced, the grammar accepts exactly what ajv accepts", () => {
    const counts: Record<Outcome, number> = { enforced: 0, validatedAfter: 0, unsatisfiable: 0, skipped: 0 };
    let rewritten = 0;
    fc.assert(
      fc.property(schemaArb2, fc.array(objectInstance, { maxLength: 12 }), (schema, extra) => {
        const outcome = check(schema, [...POOL, ...extra]);
        counts[outcome]++;
        if (outcome === "enforced" && compileSchema(schema, { mode: "jsonschema" }).report.enforced.some((u) => u.keyword === "oneOf" && u.note?.includes("excludes") === true)) rewritten++;
      }),
      { numRuns: 300, seed: 20261201 },
    );
    console.log(`overlapping oneOf random schemas: ${JSON.stringify(counts)}, rewritten ${rewritten}`);
    expect(rewritten).toBeGreaterThan(50);
  }, 300_000);
});

describe("oneOf: a rewriting with more overlapping pairs than MAX_OVERLAPPING_PAIRS is not tried", () => {
  // n branches, each requiring its own key: every pair overlaps (an object may hold both keys),
  // and each negation is one part ("key absent or not a string"), so any n rewrites exactly.
  const keyed = (n: number): Schema => ({
    $schema: D2020,
    type: "object",
    oneOf: Array.from({ length: n }, (_, i) => ({ required: [`k${i}`], properties: { [`k${i}`]: { type: "string" } } })),
  });
  const pairs = (n: number): number => (n * (n - 1)) / 2;
  const largest = Math.floor((1 + Math.sqrt(1 + 8 * MAX_OVERLAPPING_PAIRS)) / 2);

  it("up to the cap the rewriting is exact", () => {
    expect(pairs(largest)).toBeLessThanOrEqual(MAX_OVERLAPPING_PAIRS);
    expect(compileSchema(keyed(largest), { mode: "jsonschema" }).report.validatedAfter).toEqual([]);
    expect(check(keyed(3), [...POOL, { k0: "a" }, { k0: "a", k1: "b" }, { k0: 1, k1: "b" }, { k2: "c", k0: null }])).toBe("enforced");
  });

  it("past it exactly-one is checked after decoding", () => {
    expect(pairs(largest + 1)).toBeGreaterThan(MAX_OVERLAPPING_PAIRS);
    const { validatedAfter } = compileSchema(keyed(largest + 1), { mode: "jsonschema" }).report;
    expect(validatedAfter.map((u) => [u.keyword, u.note])).toEqual([["oneOf", "exactly-one-branch is checked after decoding"]]);
  });
});
