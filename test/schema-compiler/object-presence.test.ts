/**
 * Object keywords the grammar enforces over its fixed property order (#19): minProperties /
 * maxProperties with optional members and maps, dependencies / dependentRequired /
 * dependentSchemas (presence.ts, dependencies.ts), overlapping patternProperties
 * (pattern-overlap.ts), and if/then/else (conditional.ts). Handwritten schemas check the
 * language and the report; random schemas check that wherever the report says every keyword is
 * enforced, the grammar accepts exactly what ajv accepts (some order of the instance's keys
 * accepted counts as accepted: the grammar fixes one order, ajv ignores it).
 */

import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PocketExtractError } from "../../src/errors.js";
import { compileSchema, LIMITS } from "../../src/schema-compiler/index.js";
import { patternsDisjoint } from "../../src/schema-compiler/pattern-overlap.js";
import { acceptor } from "./support/accept.js";
import { expectLanguage } from "./support/expect.js";

const JS = { mode: "jsonschema" } as const;
const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const ajv2020 = new Ajv2020({ strict: false });
const ajv7 = new Ajv({ strict: false });

/** The report entries for `keywords` that are checked after decoding. */
function afterDecoding(schema: unknown, keywords: readonly string[]): string[] {
  return compileSchema(schema, JS).report.validatedAfter.filter((u) => keywords.includes(u.keyword)).map((u) => `${u.pointer} ${u.keyword}`);
}

describe("minProperties / maxProperties", () => {
  const abc = { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } };
  it("over optional properties, counted exactly", () => {
    const schema = { type: "object", properties: abc, additionalProperties: false, minProperties: 1, maxProperties: 2 };
    expectLanguage(schema, JS, [{ a: 1 }, { c: 1 }, { a: 1, c: 2 }, { b: 1, c: 2 }], [{}, { a: 1, b: 2, c: 3 }]);
    expect(afterDecoding(schema, ["minProperties", "maxProperties"])).toEqual([]);
  });
  it("declared members and additional entries count together", () => {
    const schema = { type: "object", properties: abc, required: ["b"], additionalProperties: { type: "string" }, minProperties: 2, maxProperties: 3 };
    expectLanguage(schema, JS, [{ b: 1, x: "s" }, { a: 1, b: 2 }, { a: 1, b: 2, x: "s" }, { b: 1, x: "s", y: "t" }], [{ b: 1 }, { a: 1, b: 2, c: 3, x: "s" }, { b: 1, x: "s", y: "t", z: "u" }]);
    expect(afterDecoding(schema, ["minProperties", "maxProperties"])).toEqual([]);
  });
  it("maps (patternProperties keys) bounded", () => {
    const schema = { type: "object", patternProperties: { "^x": { type: "integer" } }, additionalProperties: false, minProperties: 1, maxProperties: 2 };
    expectLanguage(schema, JS, [{ x1: 1 }, { x1: 1, x2: 2 }], [{}, { x1: 1, x2: 2, x3: 3 }, { y: 1 }]);
  });
  it("unsatisfiable counts are a typed error", () => {
    expect(() => compileSchema({ type: "object", properties: { a: {} }, additionalProperties: false, minProperties: 2 }, JS)).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE", keyword: "minProperties" }));
  });
});

describe("dependencies, dependentRequired, dependentSchemas", () => {
  const props = { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } };
  it("name lists, forward and backward in the property order", () => {
    const schema = { type: "object", properties: props, additionalProperties: false, dependencies: { a: ["c"], c: ["b"] } };
    expectLanguage(schema, JS, [{}, { b: 1 }, { b: 1, c: 2 }, { a: 1, b: 2, c: 3 }], [{ a: 1 }, { a: 1, c: 2 }, { c: 1 }, { a: 1, b: 2 }]);
    expect(afterDecoding(schema, ["dependencies"])).toEqual([]);
  });
  it("dependentRequired naming an undeclared property (an additional key)", () => {
    const schema = { $schema: D2020, type: "object", properties: { a: { type: "integer" } }, dependentRequired: { a: ["z"] } };
    expectLanguage(schema, JS, [{}, { a: 1, z: null }, { z: 1 }, { q: 1 }], [{ a: 1 }, { a: 1, q: 1 }]);
    expect(afterDecoding(schema, ["dependentRequired"])).toEqual([]);
  });
  it("dependent schemas that ask for or forbid names, or are false", () => {
    const schema = {
      $schema: D2020,
      type: "object",
      properties: { ...props, d: { type: "integer" } },
      additionalProperties: false,
      dependentSchemas: { a: { required: ["b"] }, b: { not: { required: ["c"] } }, c: { properties: { a: false } }, d: { properties: { a: { not: {} }, b: {} } } },
    };
    expectLanguage(schema, JS, [{}, { a: 1, b: 2 }, { c: 1 }, { b: 1 }, { b: 1, d: 1 }], [{ a: 1 }, { b: 1, c: 2 }, { a: 1, c: 2 }, { a: 1, b: 1, d: 1 }]);
    // The `not` of one name, and a property's `{not: {}}`, became presence rules: reported enforced with them.
    expect(afterDecoding(schema, ["dependentSchemas", "not"])).toEqual([]);
    expectLanguage({ type: "object", properties: props, dependencies: { a: false } }, JS, [{ b: 1 }], [{ a: 1 }]);
  });
  it("other dependent schemas become alternatives: the name written and the schema met, or the name absent", () => {
    // WashingtonPost's referent: when "website" is written, "type" must be "section".
    const referent = { type: "object", properties: { type: { type: "string" }, id: { type: "string" }, website: { type: "string" } }, dependencies: { website: { properties: { type: { enum: ["section"] } } } } };
    expectLanguage(referent, JS, [{ type: "story", id: "x" }, { type: "section", website: "w" }, { website: "w" }], [{ type: "story", website: "w" }]);
    expect(afterDecoding(referent, ["dependencies", "enum"])).toEqual([]);
    const counted = { $schema: D2020, type: "object", properties: props, dependentSchemas: { a: { maxProperties: 1 }, b: { properties: { c: { minimum: 5 } } } } };
    expectLanguage(counted, JS, [{ a: 1 }, { b: 1, c: 5 }, { c: 1 }, {}], [{ a: 1, b: 2 }, { b: 1, c: 4 }, { a: 1, c: 2 }]);
    expect(afterDecoding(counted, ["dependentSchemas", "maxProperties", "minimum"])).toEqual([]);
    expect(check(counted as Record<string, unknown>, [{}, { a: 1 }, { a: 1, b: 1 }, { b: 1, c: 9 }, { b: 1, c: 1 }, { c: 1, kind: 1 }])).toBe("enforced");
  });
  it("dependent schemas past the branch budget are checked after decoding", () => {
    const names = Array.from({ length: 9 }, (_, i) => `p${i}`);
    const schema = { type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "integer" }])), dependencies: Object.fromEntries(names.map((n) => [n, { maxProperties: 3 }])) };
    expect(2 ** names.length).toBeGreaterThan(LIMITS.maxBranches);
    expect(afterDecoding(schema, ["dependencies"])).toEqual([" dependencies"]);
  });
  it("past the state budget: checked after decoding, no error", () => {
    // 12 early optional names, each looked back at by a later one: 2^12 remembered subsets.
    const names = Array.from({ length: 24 }, (_, i) => `p${i}`);
    const schema = {
      type: "object",
      properties: Object.fromEntries(names.map((n) => [n, { type: "integer" }])),
      dependencies: Object.fromEntries(names.slice(12).map((n, i) => [n, [names[i]!]])),
    };
    expect(2 ** 12).toBeGreaterThan(LIMITS.maxPresenceStates);
    expect(afterDecoding(schema, ["dependencies"])).toEqual([" dependencies"]);
  });
});

describe("overlapping patternProperties", () => {
  it("anchored patterns with different fixed edges are disjoint", () => {
    expect(patternsDisjoint("^fritzbox(\\..*)?$", "^influx(\\..*)?$")).toBe(true);
    expect(patternsDisjoint("^/", "^[^/]")).toBe(true);
    expect(patternsDisjoint("^(ab|cd)x", "^(ab|cd)y")).toBe(true);
    expect(patternsDisjoint("_id$", "_name$")).toBe(true);
    expect(patternsDisjoint("^a", "b$")).toBe(false);
    expect(patternsDisjoint("^a+b", "^aab")).toBe(false);
    expect(patternsDisjoint("a", "b")).toBe(false);
  });
  it("a key matching several patterns satisfies all their schemas", () => {
    const schema = { type: "object", patternProperties: { "^a": { type: "integer" }, "x$": {}, "^(no|nil)$": { not: {} } }, additionalProperties: { type: "boolean" } };
    expectLanguage(schema, JS, [{ ab: 1, zx: "s" }, { ax: 2 }, { zz: true }], [{ ax: "s" }, { no: 1 }, { nil: null }, { zz: 1 }]);
    expect(afterDecoding(schema, ["patternProperties"])).toEqual([]);
  });
  it("patterns that may share a key with different schemas: their shared keys take both (pattern-regions.test.ts); four or more are checked after decoding", () => {
    const two = { type: "object", patternProperties: { "^a": { type: "integer" }, "b$": { type: "number", minimum: 1 } } };
    expectLanguage(two, JS, [{ ab: 2, a: -1, b: 1.5 }], [{ ab: 0.5 }, { ab: 1.5 }, { b: 0 }]);
    expect(afterDecoding(two, ["patternProperties"])).toEqual([]);
    const four = { type: "object", patternProperties: { "^a": { type: "integer" }, "b$": { minimum: 1 }, c: { maximum: 9 }, d: { multipleOf: 2 } } };
    expect(afterDecoding(four, ["patternProperties"])).toEqual([" patternProperties"]);
  });
});

describe("if / then / else", () => {
  const kinds = { type: "object", properties: { kind: { enum: ["a", "b"] }, x: { type: "integer" } }, required: ["kind"] };
  it("a discriminating const", () => {
    const schema = { ...kinds, if: { properties: { kind: { const: "a" } } }, then: { required: ["x"] }, else: { properties: { x: false } } };
    expectLanguage(schema, JS, [{ kind: "a", x: 1 }, { kind: "b" }], [{ kind: "a" }, { kind: "b", x: 1 }]);
    expect(afterDecoding(schema, ["if", "then", "else"])).toEqual([]);
  });
  it("without else, without then, and several in allOf", () => {
    expectLanguage({ ...kinds, if: { required: ["x"] }, then: { properties: { kind: { const: "a" } } } }, JS, [{ kind: "a", x: 1 }, { kind: "b" }], [{ kind: "b", x: 1 }]);
    expectLanguage({ ...kinds, if: { properties: { kind: { const: "a" } } }, else: { required: ["x"] } }, JS, [{ kind: "a" }, { kind: "b", x: 1 }], [{ kind: "b" }]);
    const two = {
      ...kinds,
      allOf: [
        { if: { properties: { kind: { const: "a" } } }, then: { required: ["x"] } },
        { if: { properties: { kind: { const: "b" } } }, then: { properties: { x: { minimum: 5 } } } },
      ],
    };
    expectLanguage(two, JS, [{ kind: "a", x: 1 }, { kind: "b" }, { kind: "b", x: 7 }], [{ kind: "a" }, { kind: "b", x: 1 }]);
    expect(afterDecoding(two, ["if", "then", "else"])).toEqual([]);
  });
  it("several on one discriminating property: n + 3 alternatives, not 2^n (past the 16 one by one)", () => {
    const kindIs = (v: string, required = false) => ({ properties: { kind: { const: v } }, ...(required ? { required: ["kind"] } : {}) });
    const schema = {
      $schema: D2020,
      type: "object",
      properties: { kind: { type: "string" }, a: { type: "integer" }, b: { type: "string" } },
      allOf: [
        { if: kindIs("a"), then: { required: ["a"] } },
        { if: kindIs("b", true), then: { required: ["b"] }, else: { properties: { b: false } } },
        { if: kindIs("k"), then: { properties: { a: { minimum: 1 } } }, else: { maxProperties: 2 } },
        { if: kindIs("ab"), else: { properties: { a: { maximum: 5 } } } },
        { if: kindIs("c"), then: { required: ["a", "b"] } },
        { if: kindIs("d", true), then: { properties: { a: { maximum: 3 } } } },
      ],
    };
    expect(afterDecoding(schema, ["if", "then", "else"])).toEqual([]);
    const instances = [{}, { a: 1 }, { kind: "a", a: 1 }, { kind: "a" }, { kind: "b", b: "x" }, { kind: "b" }, { kind: "k", a: 0 }, { kind: "k", a: 2 }, { kind: "ab", a: 9, b: "x" }, { kind: "z", a: 6 }, { kind: "z", a: 1 }, { b: "x" }, { kind: "b", a: 1, b: "y" }, { kind: 1 }, { kind: "c", a: 1 }, { kind: "c", a: 1, b: "x" }, { kind: "d", a: 4 }, { kind: "d", a: 3 }];
    expect(check(schema, instances)).toBe("enforced");
    // Without type: object, values of other types satisfy every `if` and need every `then`.
    const { type: _object, ...anyType } = schema;
    expect(check(anyType, instances)).toBe("enforced");
    const acc = acceptor(anyType, JS);
    for (const v of [1, "s", null, []]) expect({ v, dfa: acc.dfa(JSON.stringify(v)), ajv: ajv2020.validate(anyType, v) }).toEqual({ v, dfa: true, ajv: true });
  });
  it("a condition without an exact negation is checked after decoding", () => {
    expect(afterDecoding({ if: { multipleOf: 2 }, then: { minLength: 2 } }, ["if", "then"])).toEqual([" if", " then"]);
  });
});

// Random object schemas over three names, against ajv.
const NAMES = ["a", "b", "kind"] as const;
const leaf = fc.constantFrom<unknown>({ type: "integer" }, { type: "string" }, { enum: ["a", "b"] }, {}, { minimum: 1 }, true);
const names = fc.subarray([...NAMES]);
const patterns = fc.constantFrom("^a", "^k", "d$", "^b$", "^(a|b)$", "a");
const objectSchema = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom(...NAMES), leaf, { maxKeys: 3 }),
      required: names,
      additionalProperties: fc.constantFrom<unknown>(false, true, { type: "integer" }),
      patternProperties: fc.dictionary(patterns, leaf, { maxKeys: 2 }),
      minProperties: fc.nat(3),
      maxProperties: fc.nat(3),
      dependencies: fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(names, fc.constantFrom<unknown>(false, { required: ["a"] }, { not: { required: ["b"] } }, { properties: { kind: false } }, { properties: { a: { not: {} }, b: {} } }, { maxProperties: 1 })), { maxKeys: 2 }),
      dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), names, { maxKeys: 2 }),
      if: fc.constantFrom<unknown>({ properties: { kind: { const: "a" } } }, { required: ["b"] }, { properties: { a: { type: "string" } }, required: ["a"] }),
      then: fc.constantFrom<unknown>({ required: ["a"] }, { properties: { b: false } }, { maxProperties: 2 }),
      else: fc.constantFrom<unknown>({ required: ["kind"] }, { properties: { a: { type: "integer" } } }),
    },
    { requiredKeys: [] },
  )
  .map((s) => ({ type: "object", ...s }));

const value = fc.constantFrom<unknown>(1, 2, "a", "b", null, true);
const instance = fc.dictionary(fc.constantFrom("a", "b", "kind", "ab", "k", "zd", "x"), value, { maxKeys: 4 });

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

type Outcome = "enforced" | "validatedAfter" | "unsatisfiable" | "oracleFailed";

function check(schema: Record<string, unknown>, generated: readonly Record<string, unknown>[]): Outcome {
  const instances = generated.map((x) => JSON.parse(JSON.stringify(x)) as Record<string, unknown>);
  const compiled = (schema.$schema === D7 ? ajv7 : ajv2020).compile(schema);
  // ajv 8's 2020 code for `if` without `then` beside patternProperties can throw
  // ("Cannot set properties of undefined") when tracking evaluated properties: no verdict then.
  const verdicts = new Map<unknown, boolean>();
  try {
    for (const inst of instances) verdicts.set(inst, compiled(inst));
  } catch (err) {
    if (err instanceof TypeError) return "oracleFailed";
    throw err;
  }
  const validate = (inst: unknown): boolean => verdicts.get(inst)!;
  // Unsatisfiable: refused by the compiler, or (emptiness the compiler does not see, such as
  // presence rules no property set meets) by the automaton builder, the same typed error.
  const unsatisfiable = (err: unknown): "unsatisfiable" => {
    if (!(err instanceof PocketExtractError) || err.code !== "SCHEMA_UNSATISFIABLE") throw err;
    for (const inst of instances) expect({ schema, inst, valid: validate(inst) }).toEqual({ schema, inst, valid: false });
    return "unsatisfiable";
  };
  let report;
  try {
    report = compileSchema(schema, JS).report;
  } catch (err) {
    return unsatisfiable(err);
  }
  if (report.validatedAfter.length > 0) return "validatedAfter";
  let acc;
  try {
    acc = acceptor(schema, JS);
  } catch (err) {
    return unsatisfiable(err);
  }
  for (const inst of instances) {
    const texts = permutations(Object.entries(inst)).map((entries) => JSON.stringify(Object.fromEntries(entries)));
    const valid = validate(inst);
    expect({ schema, inst, dfa: texts.some((t) => acc.dfa(t)), ref: texts.some((t) => acc.ref(t)) }).toEqual({ schema, inst, dfa: valid, ref: valid });
  }
  return "enforced";
}

describe("random object schemas", () => {
  it("when reported enforced, the grammar accepts exactly what ajv accepts", () => {
    const counts: Record<Outcome, number> = { enforced: 0, validatedAfter: 0, unsatisfiable: 0, oracleFailed: 0 };
    fc.assert(
      fc.property(objectSchema, fc.constantFrom(D2020, D7), fc.array(instance, { minLength: 20, maxLength: 40 }), (schema, draft, instances) => {
        counts[check({ $schema: draft, ...schema }, instances)]++;
      }),
      { numRuns: 400, seed: 20261201 },
    );
    console.log(`object presence random schemas: ${JSON.stringify(counts)}`);
    expect(counts.enforced).toBeGreaterThan(100);
  }, 300_000);
});
