/**
 * One block per keyword family: accepted and rejected samples through the byte automaton and the
 * reference matcher (see support/expect.ts), plus the compile report's classification.
 */

import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { expectLanguage, raw } from "./support/expect.js";

const JS = { mode: "jsonschema" } as const;
const EX = { mode: "extraction", nullEscape: false } as const;

describe("type", () => {
  it("each of the seven types, and type arrays", () => {
    expectLanguage({ type: "null" }, JS, [null], [0, false, "null", {}]);
    expectLanguage({ type: "boolean" }, JS, [true, false], [null, 0, "true"]);
    expectLanguage({ type: "integer" }, JS, [0, -7, 123456789012], [1.5, raw("-0.0e1"), raw("01"), "1"]);
    expectLanguage({ type: "number" }, JS, [0, -7, 1.5, 1e-7, 1e21, raw("2E+10")], [raw("01"), raw(".5"), raw("1."), "1"]);
    expectLanguage({ type: "string" }, JS, ["", "héllo 世界 🎉", 'quote " and \\ and \n'], [raw('"\\u0061"'), raw('"tab\there"'), 1]);
    expectLanguage({ type: ["string", "null"] }, JS, ["x", null], [1, true]);
    expectLanguage({ type: "array" }, EX, [[], [1, "a", [null]]], [{}, raw("[1,]")]);
    expectLanguage({ type: "object", additionalProperties: true }, EX, [{}, { a: 1, b: [true] }], [[], raw('{"a":1,}')]);
  });
});

describe("enum and const", () => {
  it("any JSON value, unicode intact", () => {
    expectLanguage({ enum: ["a", 1, null, { "ключ": ["日本"] }] }, JS, ["a", 1, null, { "ключ": ["日本"] }], ["b", 2, { "ключ": [] }]);
    expectLanguage({ const: "😀\u0007" }, JS, ["😀\u0007"], ["😀"]);
    expectLanguage({ type: "string", enum: ["a", 1] }, JS, ["a"], [1]);
  });
  it("empty enum is unsatisfiable", () => {
    expect(() => compileSchema({ enum: [] })).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE", keyword: "enum" }));
  });
});

describe("objects", () => {
  const schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" }, c: { type: "boolean" } }, required: ["b"] };
  it("properties in schema order; optional ones may be omitted with correct commas", () => {
    expectLanguage(schema, EX, [{ b: "x" }, { a: 1, b: "x" }, { b: "x", c: true }, { a: 1, b: "x", c: false }], [{}, { a: 1 }, { b: "x", a: 1 }, raw('{,"b":"x"}'), raw('{"b":"x",}'), { b: "x", d: 1 }]);
  });
  it("JSON Schema mode allows additional properties, excluding declared names; in the declared order only after the declared ones", () => {
    expectLanguage(schema, JS, [{ b: "x", z: 1 }, { b: "x", z: 1, y: [] }], [{ b: "x", a: 1 }, { z: 1, b: "x" }, { b: "x", a: "s" }, { z: 1 }]);
    expectLanguage(schema, { ...JS, propertyOrder: "any" }, [{ b: "x", z: 1 }, { b: "x", a: 1 }, { z: 1, b: "x" }], [{ b: "x", a: "s" }, { z: 1 }]);
    expectLanguage({ properties: { a: { type: "integer" } } }, JS, [{ a: 1, b: "s" }, { b: "s" }, "not an object"], [{ a: "s" }, { b: "s", a: 1 }]);
  });
  it("additionalProperties schema, patternProperties, propertyNames", () => {
    expectLanguage({ type: "object", additionalProperties: { type: "integer" } }, EX, [{}, { x: 1, y: 2 }], [{ x: "1" }]);
    expectLanguage({ type: "object", patternProperties: { "^n_": { type: "number" } }, additionalProperties: false }, JS, [{ n_a: 1.5 }, {}], [{ a: 1 }, { n_a: "x" }]);
    expectLanguage({ type: "object", propertyNames: { maxLength: 2 }, additionalProperties: true }, JS, [{ ab: 1 }, {}], [{ abc: 1 }]);
    // A patternProperties key also meets propertyNames.pattern: both patterns as one.
    const both = { type: "object", propertyNames: { pattern: "^[0-9]+$" }, patternProperties: { "^4": { type: "integer" } }, additionalProperties: { type: "string" } };
    expectLanguage(both, JS, [{ 404: 1, 500: "x" }, {}], [{ "4a": 1 }, { 500: 1 }, { x: "y" }]);
    expect(compileSchema(both, JS).report.validatedAfter).toEqual([]);
  });
  it("minProperties / maxProperties", () => {
    expectLanguage({ type: "object", additionalProperties: { type: "integer" }, minProperties: 1, maxProperties: 2 }, EX, [{ a: 1 }, { a: 1, b: 2 }], [{}, { a: 1, b: 2, c: 3 }]);
    expectLanguage({ type: "object", properties: { a: {} }, required: ["a"], additionalProperties: { type: "null" }, maxProperties: 2 }, JS, [{ a: 1 }, { a: 1, b: null }], [{ a: 1, b: null, c: null }]);
  });
  it("null escape in extraction mode, recorded per path", () => {
    const compiled = compileSchema({ type: "object", properties: { p: { type: "string" }, q: { type: ["integer", "null"] } }, required: ["p", "q"] });
    expect(compiled.nullEscapes).toEqual([{ instancePath: "/p", schemaPointer: "/properties/p" }]);
    expectLanguage({ type: "object", properties: { p: { type: "string" } }, required: ["p"] }, {}, [{ p: "x" }, { p: null }], [{}, { p: 1 }]);
  });
});

describe("arrays", () => {
  it("items, prefixItems, draft-4 tuples, additionalItems, min/maxItems", () => {
    expectLanguage({ type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3 }, JS, [[1], [1, 2, 3]], [[], [1, 2, 3, 4], ["a"]]);
    expectLanguage({ prefixItems: [{ type: "string" }, { type: "integer" }], items: false }, JS, [[], ["a"], ["a", 1]], [[1], ["a", 1, 2]]);
    expectLanguage({ $schema: "http://json-schema.org/draft-04/schema#", items: [{ type: "string" }], additionalItems: { type: "boolean" } }, JS, [["a", true, false]], [["a", 1]]);
    expectLanguage({ type: "array", prefixItems: [{ const: 1 }], minItems: 2, items: { type: "null" } }, JS, [[1, null], [1, null, null]], [[1], [null, null]]);
  });
  it("an item repeated many times becomes a rule of its own, however few its nodes", () => {
    // 100 copies of an array of 100 strings would be 10,000 strings' worth in one rule.
    const nested = { type: "array", maxItems: 100, items: { type: "array", maxItems: 100, items: { type: "string", maxLength: 3 } } };
    const { grammar } = compileSchema(nested, JS);
    expect([...grammar.rules.keys()].some((name) => name.startsWith("item"))).toBe(true);
    const full = Array.from({ length: 100 }, () => ["abc"]);
    expectLanguage(nested, JS, [[], [[]], [["a", "b"], []], full], [[["abcd"]], [...full, []], [Array(101).fill("")]]);
  });
  it("uniqueItems over items without a finite set of values, and contains beside distinct items, are reported as checked after decoding", () => {
    const r = compileSchema({ type: "array", uniqueItems: true, contains: { type: "integer" } }, JS).report;
    expect(r.validatedAfter.map((u) => u.keyword)).toEqual(["uniqueItems"]);
    const distinct = compileSchema({ type: "array", items: { enum: [1, 2] }, uniqueItems: true, contains: { const: 1 } }, JS).report;
    expect(distinct.validatedAfter.map((u) => u.keyword)).toEqual(["contains"]);
  });
  it("uniqueItems is enforced where it cannot fail (false, at most one item)", () => {
    for (const schema of [{ type: "array", uniqueItems: false }, { type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 1 }]) {
      const r = compileSchema(schema, JS).report;
      expect(r.validatedAfter).toEqual([]);
      expect(r.enforced.map((u) => u.keyword)).toContain("uniqueItems");
    }
  });
});

describe("strings", () => {
  it("length in code points, pattern", () => {
    expectLanguage({ type: "string", minLength: 2, maxLength: 3 }, JS, ["ab", "日本語", "😀😀"], ["a", "abcd"]);
    expectLanguage({ type: "string", pattern: "^[a-z]+\\d$" }, JS, ["ab1"], ["ab", "AB1"]);
    expectLanguage({ type: "string", pattern: "b" }, JS, ["abc"], ["ac"]);
  });
  it("extraction mode bounds unbounded strings", () => {
    expectLanguage({ type: "string" }, { defaultMaxStringLength: 4 }, ["abcd"], ["abcde"]);
  });
  it("formats from grammars/*.gbnf", () => {
    expectLanguage({ format: "date", type: "string" }, JS, ["2024-02-29", "1999-12-31"], ["2024-02-30", "2024-13-01", "24-01-01"]);
    expectLanguage({ format: "time", type: "string" }, JS, ["23:59:60Z", "08:30:06.283185+01:00"], ["24:00:00Z", "08:30:06"]);
    expectLanguage({ format: "date-time", type: "string" }, JS, ["1963-06-19T08:30:06.283185Z"], ["1963-06-19 08:30:06Z"]);
    expectLanguage({ format: "duration", type: "string" }, JS, ["P4DT12H30M5S", "P1W"], ["PT1D", "P"]);
    expectLanguage({ format: "email", type: "string" }, JS, ["joe.bloggs@example.com"], ["joe..bloggs@example.com", "@x"]);
    expectLanguage({ format: "uuid", type: "string" }, JS, ["2EB8AA08-AA98-11EA-B4AA-73B441D16380"], ["2eb8aa08-aa98-11ea-b4aa-73b441d1638"]);
    expectLanguage({ format: "ipv4", type: "string" }, JS, ["192.168.0.1"], ["256.1.1.1", "1.1.1"]);
    expectLanguage({ format: "ipv6", type: "string" }, JS, ["::1", "1:2:3:4:5:6:7:8", "::ffff:192.168.0.1"], ["12345::", "1:2:3"]);
    expectLanguage({ format: "hostname", type: "string" }, JS, ["www.example.com"], ["-bad.com", "a..b"]);
    expectLanguage({ format: "uri", type: "string" }, JS, ["http://foo.bar/?baz=qux#quux", "urn:isbn:0451450523"], ["//foo.bar", "\\\\WINDOWS"]);
    expectLanguage({ format: "uri-reference", type: "string" }, JS, ["/abc", "#frag", "http://x"], ["\\\\WINDOWS"]);
  });
  it("unsatisfiable lengths", () => {
    expect(() => compileSchema({ type: "string", minLength: 3, maxLength: 2 })).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE", keyword: "minLength", pointer: "" }));
  });
});

describe("numbers", () => {
  it("integer ranges are exact, both draft styles", () => {
    expectLanguage({ type: "integer", minimum: -12, maximum: 305 }, JS, [-12, -1, 0, 9, 10, 99, 100, 305], [-13, 306, 1000, -100]);
    // eslint-disable-next-line no-loss-of-precision -- a 20-digit integer literal on purpose: the grammar must accept its JSON form
    expectLanguage({ type: "integer", exclusiveMinimum: 0 }, JS, [1, 12345678901234567890], [0, -1]);
    expectLanguage({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer", minimum: 5, exclusiveMinimum: true, maximum: 7, exclusiveMaximum: true }, JS, [6], [5, 7]);
    expectLanguage({ type: "integer", minimum: 1.5, maximum: 2.5 }, JS, [2], [1, 3]);
  });
  it("number bounds are exact (test/schema-compiler/number-bounds.test.ts has the property test)", () => {
    expectLanguage({ type: "number", minimum: 0 }, JS, [0, 1.5, 3e10], [-1, -0.5]);
    expectLanguage({ type: "number", minimum: 0, maximum: 1 }, JS, [0, 0.25, 1], [-0.5, 1.01, 2]);
    expect(compileSchema({ type: "number", minimum: 0, maximum: 1 }, JS).report.validatedAfter).toEqual([]);
  });
  it("multipleOf is in the grammar (multiple-of.test.ts), or checked after decoding when it cannot be", () => {
    expectLanguage({ type: "number", multipleOf: 0.25, maximum: 1 }, JS, [0.75, -2.5, 1], [0.3, 1.25]);
    expectLanguage({ type: "integer", multipleOf: 3 }, JS, [0, 3, -123456789012345], [1, 10, -7]);
    expect(compileSchema({ type: "number", multipleOf: 0.3 }, JS).report.validatedAfter.map((u) => [u.keyword, u.pointer])).toEqual([["multipleOf", ""]]);
  });
});

describe("combinators", () => {
  it("anyOf / oneOf as alternatives, siblings distributed", () => {
    expectLanguage({ anyOf: [{ type: "string", maxLength: 1 }, { type: "integer" }] }, JS, ["a", 3], ["ab", 1.5]);
    expectLanguage({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, additionalProperties: false, oneOf: [{ required: ["a"] }, { required: ["b"] }] }, JS, [{ a: 1 }, { b: 1 }], [{}]);
  });
  it("allOf merges", () => {
    const branches = [{ type: "object", properties: { a: { type: "integer" } }, required: ["a"] }, { properties: { b: { type: "string" } }, required: ["b"] }];
    expectLanguage({ allOf: branches }, EX, [{ a: 1, b: "x" }], [{ a: 1 }, { b: "x" }, { a: 1, b: "x", c: 1 }]);
    // additionalProperties beside allOf does not see the branches' properties (JSON Schema semantics).
    expect(() => compileSchema({ allOf: branches, additionalProperties: false }, JS)).toThrow(expect.objectContaining({ code: "SCHEMA_UNSATISFIABLE" }));
    expectLanguage({ allOf: [{ type: ["integer", "string"] }, { type: ["number"] }, { minimum: 2 }] }, JS, [2], ["x", 1]);
  });
  it("not, and if/then/else, without an exact positive form are checked after decoding", () => {
    const r = compileSchema({ not: { multipleOf: 2 }, if: { multipleOf: 3 }, then: { minLength: 1 }, else: true }, JS).report;
    expect(r.validatedAfter.map((u) => u.keyword).sort()).toEqual(["else", "if", "not", "then"]);
  });
  it("if/then/else with an exact negation of if are enforced (test/schema-compiler/object-presence.test.ts has more)", () => {
    const schema = { if: { type: "string" }, then: { minLength: 1 }, else: { type: "integer" } };
    expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
    expectLanguage(schema, JS, ["a", 3], ["", 1.5, null]);
  });
});

describe("$ref", () => {
  it("#/$defs, #/definitions, #, relative pointers, $id-relative, recursion", () => {
    const tree = { $defs: { node: { type: "object", properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["v"], additionalProperties: false } }, $ref: "#/$defs/node" };
    expectLanguage(tree, JS, [{ v: 1 }, { v: 1, kids: [{ v: 2, kids: [] }] }], [{ kids: [] }, { v: 1, kids: [{}] }]);
    expectLanguage({ definitions: { s: { type: "string" } }, properties: { a: { $ref: "#/definitions/s" } }, type: "object" }, EX, [{ a: "x" }], [{ a: 1 }]);
    expectLanguage({ $id: "https://example.com/root.json", $defs: { x: { $id: "x.json", type: "boolean" } }, $ref: "x.json" }, JS, [true], [1]);
    expectLanguage({ type: "array", items: [{ type: "integer" }, { $ref: "#/items/0" }], $schema: "http://json-schema.org/draft-07/schema#" }, JS, [[1, 2]], [[1, "2"]]);
    expectLanguage({ anyOf: [{ type: "integer" }, { type: "array", items: { $ref: "#" }, maxItems: 2 }] }, JS, [1, [1, [2]], []], ["x", [1, 2, 3]]);
  });
  it("remote refs are rejected", () => {
    expect(() => compileSchema({ $ref: "https://example.com/other.json" })).toThrow(expect.objectContaining({ code: "SCHEMA_REF", keyword: "$ref" }));
  });
});

describe("report", () => {
  it("classifies every keyword; unknown keywords are reported, never silent", () => {
    const r = compileSchema({ title: "T", description: "d", type: "object", properties: { a: { type: "string", "x-foo": 1, frobnicate: true } }, required: ["a"] }).report;
    expect(r.annotations).toEqual(
      expect.arrayContaining([
        { keyword: "title", pointer: "" },
        { keyword: "x-foo", pointer: "/properties/a", note: "vendor extension, ignored" },
        { keyword: "frobnicate", pointer: "/properties/a", note: "unknown keyword, ignored" },
      ]),
    );
    expect(r.enforced).toEqual(expect.arrayContaining([{ keyword: "required", pointer: "" }, { keyword: "type", pointer: "/properties/a" }]));
  });
});

describe("flexible format", () => {
  it("enforces minimum 0 on numbers in the grammar (no minus sign) and reports it enforced", () => {
    expectLanguage({ type: "number", minimum: 0 }, { mode: "jsonschema" }, [0, 1.5, raw("2e3")], [-1, -0.5]);
    const report = compileSchema({ type: "number", minimum: 0 }, { mode: "jsonschema" }).report;
    expect(report.enforced.map((u) => u.keyword)).toContain("minimum");
    expect(report.validatedAfter.map((u) => u.keyword)).not.toContain("minimum");
  });

  it("extraction mode keeps numbers finite doubles, so JSON.parse never yields Infinity", () => {
    expectLanguage({ type: "number" }, { nullEscape: false }, [1.5, raw("-12e99"), raw("1234567890123456.25")], [raw("1e999"), raw("12345678901234567"), raw("1e100")]);
    expectLanguage({ type: "number" }, { mode: "jsonschema", nullEscape: false }, [raw("1e999"), raw("12345678901234567")], []);
  });

  it("flexible accepts any JSON whitespace between tokens, never inside them; compact rejects any whitespace", () => {
    const schema = { type: "object", properties: { a: { type: "array", items: { type: "integer" } } }, required: ["a"] };
    const v = { a: [1, 2] };
    expectLanguage(schema, { format: "flexible", nullEscape: false }, [v, raw(JSON.stringify(v, null, 2)), raw(JSON.stringify(v, null, "\t")), raw(`{"a":[1,${" ".repeat(40)}\r\n2]}`)], [raw('{"a":[1 2]}'), raw('{"a":[1\u00a02]}'), raw('{"a":[-\n1]}')]);
    expectLanguage(schema, { nullEscape: false }, [v], [raw(JSON.stringify(v, null, 2)), raw('{"a": [1]}')]);
  });
});
