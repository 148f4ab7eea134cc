/**
 * Object keys in any order (`propertyOrder: "any"`; any-order.ts):
 * random object schemas against ajv with every order of each instance's keys taken one by one,
 * then the bounds past which an object keeps the declared order.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PocketExtractError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { ANY_ORDER_LIMITS } from "../../src/schema-compiler/any-order.js";
import { acceptor } from "./support/accept.js";
import { expectLanguage } from "./support/expect.js";

const JS = { mode: "jsonschema", propertyOrder: "any" } as const;
const ajv = new Ajv2020({ strict: false });

const NAMES = ["a", "b", "kind"] as const;
const leaf = fc.constantFrom<unknown>({ type: "integer" }, { type: "string" }, { enum: ["a", "b"] }, {}, true);
const names = fc.subarray([...NAMES]);
const objectSchema = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom(...NAMES), leaf, { maxKeys: 3 }),
      required: names,
      additionalProperties: fc.constantFrom<unknown>(false, true, { type: "integer" }),
      patternProperties: fc.dictionary(fc.constantFrom("^a", "^k", "d$", "^(a|b)$"), leaf, { maxKeys: 2 }),
      minProperties: fc.nat(2),
      maxProperties: fc.integer({ min: 1, max: 4 }),
      dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), names, { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((s) => ({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", ...s }));

const value = fc.constantFrom<unknown>(1, 2, "a", "b", null);
const instance = fc.dictionary(fc.constantFrom("a", "b", "kind", "ab", "zd", "x"), value, { maxKeys: 4 });

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

type Outcome = "enforced" | "validatedAfter" | "unsatisfiable";

/** Every order of every instance is accepted exactly when ajv accepts the instance. */
function check(schema: Record<string, unknown>, instances: readonly Record<string, unknown>[]): Outcome {
  const validate = ajv.compile(schema);
  let acc;
  try {
    if (compileSchema(schema, JS).report.validatedAfter.length > 0) return "validatedAfter";
    acc = acceptor(schema, JS);
  } catch (err) {
    if (!(err instanceof PocketExtractError) || err.code !== "SCHEMA_UNSATISFIABLE") throw err;
    for (const inst of instances) expect({ schema, inst, valid: validate(inst) }).toEqual({ schema, inst, valid: false });
    return "unsatisfiable";
  }
  for (const inst of instances) {
    const valid = validate(inst);
    for (const entries of permutations(Object.entries(inst))) {
      const text = JSON.stringify(Object.fromEntries(entries));
      expect({ schema, text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ schema, text, dfa: valid, ref: valid });
    }
  }
  return "enforced";
}

describe("any-order object keys", () => {
  it("random object schemas: every key order is accepted exactly when ajv accepts the instance", () => {
    const counts: Record<Outcome, number> = { enforced: 0, validatedAfter: 0, unsatisfiable: 0 };
    fc.assert(
      fc.property(objectSchema, fc.array(instance, { minLength: 15, maxLength: 30 }), (schema, instances) => {
        counts[check(schema, instances)]++;
      }),
      { numRuns: 400, seed: 20261204 },
    );
    console.log(`any-order random schemas: ${JSON.stringify(counts)}`);
    expect(counts.enforced).toBeGreaterThan(250);
  }, 300_000);

  it("a declared name is written at most once", () => {
    const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } } };
    expectLanguage(schema, JS, [{ b: "x", a: 1 }, { a: 1, z: 2, b: "x" }], [{ raw: '{"a":1,"a":2}' }, { raw: '{"a":1,"b":"x","a":2}' }]);
  });

  it("both modes keep the declared order unless asked", () => {
    const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" } }, required: ["a", "b"] };
    expectLanguage(schema, {}, [{ a: 1, b: "x" }], [{ b: "x", a: 1 }]);
    expectLanguage(schema, { mode: "jsonschema" }, [{ a: 1, b: "x" }], [{ b: "x", a: 1 }]);
    expectLanguage(schema, { propertyOrder: "any" }, [{ a: 1, b: "x" }, { b: "x", a: 1 }], [{ b: "x" }]);
  });
});

describe("bounds", () => {
  /** An object of `n` optional integer properties p0..p(n-1) (`more`: other keywords). */
  const optional = (n: number, more: object = {}) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "integer" }])), additionalProperties: false, ...more });
  /** `n` properties written in reverse order. */
  const reversed = (n: number) => `{${Array.from({ length: n }, (_, i) => `"p${n - 1 - i}":1`).join(",")}}`;
  const inOrder = (n: number) => `{${Array.from({ length: n }, (_, i) => `"p${i}":1`).join(",")}}`;
  // n optional names: the empty start and the 2^n - 1 non-empty sets (minProperties 1 adds no
  // state, and keeps the free names from the repeatable tier: a repeated key would count twice).
  const fits = Math.floor(Math.log2(ANY_ORDER_LIMITS.maxStatesPerObject));
  const counted = { minProperties: 1 };

  it("an object within the per-object bound takes any order; one past it keeps the declared order", () => {
    const within = acceptor(optional(fits, counted), JS);
    expect([within.dfa(reversed(fits)), within.ref(reversed(fits)), within.dfa('{"p1":1,"p1":1}')]).toEqual([true, true, false]);
    const past = acceptor(optional(fits + 1, counted), JS);
    expect([past.dfa(reversed(fits + 1)), past.ref(reversed(fits + 1))]).toEqual([false, false]);
    expect([past.dfa(inOrder(fits + 1)), past.dfa('{"p3":1,"p5":1}'), past.dfa('{"p5":1,"p3":1}'), past.dfa("{}")]).toEqual([true, true, false, false]);
  });

  it("the per-schema bound: later objects keep the declared order once the schema's states are spent", () => {
    const objects = ANY_ORDER_LIMITS.maxStatesPerSchema / 2 ** fits + 1;
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: objects }, (_, i) => [`o${i}`, optional(fits, counted)])) };
    const acc = acceptor(schema, JS);
    const anyOrder = Array.from({ length: objects }, (_, i) => acc.dfa(`{"o${i}":${reversed(fits)}}`));
    expect(anyOrder.filter((x) => x).length).toBe(objects - 1);
  });

  it("past the per-object bound with free counts: the unconstrained optional names in any order, repeatable, the others exact", () => {
    const n = fits + 2;
    const schema = { ...optional(n), properties: { ...optional(n).properties, id: { type: "string" }, x: { type: "integer" }, y: { type: "integer" } }, required: ["id"], dependentRequired: { x: ["y"] } };
    const acc = acceptor(schema, JS);
    const valid = [`{"p${n - 1}":1,"id":"a","p0":2}`, '{"id":"a"}', '{"y":1,"p3":1,"x":2,"id":"a"}', '{"p2":1,"p2":2,"id":"a"}'];
    const invalid = ['{"p1":1}', '{"id":"a","id":"b"}', '{"x":1,"id":"a"}', '{"id":"a","y":1,"y":1}', '{"id":"a","p1":"s"}', '{"id":"a","z":1}'];
    expect(valid.map((t) => [acc.dfa(t), acc.ref(t)])).toEqual(valid.map(() => [true, true]));
    expect(invalid.map((t) => [acc.dfa(t), acc.ref(t)])).toEqual(invalid.map(() => [false, false]));
    expect(compileSchema(schema, JS).report.enforced).toContainEqual(expect.objectContaining({ keyword: "properties", pointer: "", note: expect.stringMatching(/not kept from repeating/) }));
  });
});

// Bigger random objects, where the bounds come into play: whatever the tier (exact, repeatable
// names, declared order), every accepted order is valid and a valid instance is accepted in the
// declared order; the any-order tiers accept it in every order.
const BIG = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] as const;
const bigSchema = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom(...BIG), leaf, { minKeys: 6, maxKeys: 10 }),
      required: fc.subarray([...BIG], { maxLength: 3 }),
      additionalProperties: fc.constantFrom<unknown>(false, true, { type: "integer" }),
      minProperties: fc.nat(2),
      dependentRequired: fc.dictionary(fc.constantFrom(...BIG), fc.subarray([...BIG], { maxLength: 2 }), { maxKeys: 2 }),
    },
    { requiredKeys: ["properties"] },
  )
  .map((s) => ({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", ...s }));
const bigInstance = fc.dictionary(fc.constantFrom(...BIG, "z"), value, { maxKeys: 8 });

describe("bigger random objects", () => {
  it("are sound in every order and complete in the declared order or, in the any-order tiers, every order", () => {
    const tiers = { unsatisfiable: 0, repeatable: 0, other: 0 };
    fc.assert(
      fc.property(bigSchema, fc.array(fc.tuple(bigInstance, fc.nat()), { minLength: 10, maxLength: 20 }), (schema, instances) => {
        const validate = ajv.compile(schema);
        let acc, repeatable;
        try {
          repeatable = compileSchema(schema, JS).report.enforced.some((u) => u.keyword === "properties" && /repeating/.test(u.note ?? ""));
          acc = acceptor(schema, JS);
        } catch (err) {
          if (!(err instanceof PocketExtractError) || err.code !== "SCHEMA_UNSATISFIABLE") throw err;
          tiers.unsatisfiable++;
          return;
        }
        tiers[repeatable ? "repeatable" : "other"]++;
        const declared = Object.keys(schema.properties);
        for (const [inst, seed] of instances) {
          const valid = validate(inst);
          const entries = Object.entries(inst);
          const shuffled = entries.map((e, i) => [e, (seed * (i + 7919)) % 1009] as const).sort((x, y) => x[1] - y[1]).map(([e]) => e);
          const inDeclared = [...entries].sort(([x], [y]) => (declared.includes(x) ? declared.indexOf(x) : BIG.length) - (declared.includes(y) ? declared.indexOf(y) : BIG.length));
          for (const order of [entries, shuffled]) {
            const text = JSON.stringify(Object.fromEntries(order));
            if (acc.dfa(text)) expect({ schema, text, valid }).toEqual({ schema, text, valid: true });
            if (repeatable && valid) expect({ schema, text, dfa: acc.dfa(text) }).toEqual({ schema, text, dfa: true });
          }
          const text = JSON.stringify(Object.fromEntries(inDeclared));
          expect({ schema, text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ schema, text, dfa: valid, ref: valid });
        }
      }),
      { numRuns: 120, seed: 20261204 },
    );
    console.log(`any-order bigger random schemas: ${JSON.stringify(tiers)}`);
    expect(tiers.repeatable).toBeGreaterThan(20);
    expect(tiers.other).toBeGreaterThan(20);
  }, 300_000);
});
