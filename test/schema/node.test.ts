/**
 * Typed schema nodes: each keyword's value parses into its typed field, and a value of the wrong
 * type is the keyword's typed SchemaError (the messages the compiler has always given), raised
 * only when the field is read; `peek` reads the same field without failing. The compiler's use
 * of these errors: test/schema-compiler/typed-errors.test.ts.
 */

import { describe, expect, it } from "vitest";
import { SchemaError } from "../../src/errors.js";
import { KEYWORDS, SchemaNode, type Keyword, type ValueKind } from "../../src/schema/index.js";

/** A well-formed value and, where the kind can be malformed, a wrong value with its message. */
const SAMPLES: Record<ValueKind, { readonly good: unknown; readonly bad?: unknown; readonly message?: (k: string) => string }> = {
  schema: { good: { type: "string" } },
  schemas: { good: [true], bad: {}, message: (k) => `${k} must be a non-empty array` },
  schemaList: { good: [true], bad: 3, message: (k) => `${k} must be an array` },
  schemaMap: { good: { a: true }, bad: [], message: (k) => `${k} must be an object` },
  items: { good: true },
  dependencies: { good: { a: ["b"] } },
  types: { good: ["string", "null"], bad: "text", message: () => 'unknown type "text"' },
  count: { good: 2, bad: -1, message: (k) => `${k} must be a non-negative integer` },
  number: { good: 1.5, bad: "1", message: (k) => `${k} must be a number` },
  exclusiveBound: { good: 3, bad: "3", message: (k) => `${k} must be a number` },
  pattern: { good: "^a", bad: 1, message: () => "a pattern must be a string" },
  string: { good: "date", bad: 5, message: (k) => `${k} must be a string` },
  strings: { good: ["a"], bad: [1], message: (k) => `${k} must be an array of strings` },
  values: { good: [1, "a"], bad: 5, message: (k) => `${k} must be an array` },
  value: { good: { a: 1 } },
  ref: { good: "#/$defs/a", bad: 5, message: (k) => `${k} must be a string` },
  any: { good: "anything" },
};

describe("SchemaNode", () => {
  it("parses a well-formed value of every keyword into its typed field", () => {
    for (const k of Object.keys(KEYWORDS) as Keyword[]) {
      const node = new SchemaNode({ [k]: SAMPLES[KEYWORDS[k].value].good }, "/at");
      expect(() => node.get(k), k).not.toThrow();
      expect(node.get(k), k).toBeDefined();
    }
  });

  it("types the fields: maps, sets, counts, lists", () => {
    const node = new SchemaNode({ type: ["object", "null"], properties: { b: true, a: false }, required: ["a"], minProperties: 1, anyOf: [true] }, "");
    expect(node.get("type")).toEqual(new Set(["object", "null"]));
    expect([...node.get("properties")!.keys()]).toEqual(["b", "a"]);
    expect(node.get("required")).toEqual(["a"]);
    expect(node.get("minProperties")).toBe(1);
    expect(node.get("anyOf")).toEqual([true]);
    expect(node.get("maxProperties")).toBeUndefined();
  });

  it("gives a wrong-typed keyword its typed error, with keyword and pointer; peek reads it as absent", () => {
    for (const k of Object.keys(KEYWORDS) as Keyword[]) {
      const sample = SAMPLES[KEYWORDS[k].value];
      if (sample.bad === undefined) continue;
      const node = new SchemaNode({ [k]: sample.bad }, "/properties/x");
      let error: unknown;
      try {
        node.get(k);
      } catch (e) {
        error = e;
      }
      expect(error, k).toBeInstanceOf(SchemaError);
      expect((error as SchemaError).code, k).toBe("SCHEMA_INVALID");
      expect((error as SchemaError).keyword, k).toBe(k);
      expect((error as SchemaError).pointer, k).toBe("/properties/x");
      expect((error as SchemaError).message, k).toContain(sample.message!(k));
      expect(node.peek(k), k).toBeUndefined();
    }
  });

  it("reads null as absent for properties, required and prefixItems (as the compiler always did)", () => {
    const node = new SchemaNode({ properties: null, required: null, prefixItems: null }, "");
    expect(node.get("properties")).toBeUndefined();
    expect(node.get("required")).toBeUndefined();
    expect(node.get("prefixItems")).toBeUndefined();
  });
});
