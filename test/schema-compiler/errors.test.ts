/**
 * Bad input: every failure is a typed SchemaError with code, keyword and JSON pointer, raised
 * within bounded time (no hangs, no stack overflows).
 */

import { describe, expect, it } from "vitest";
import { SchemaError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";

function failure(fn: () => unknown): SchemaError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SchemaError);
    return err as SchemaError;
  }
  throw new Error("expected a SchemaError");
}
const where = (e: SchemaError) => ({ code: e.code, keyword: e.keyword, pointer: e.pointer });

describe("invalid schemas", () => {
  it("wrong keyword values name the keyword and pointer", () => {
    expect(where(failure(() => compileSchema({ type: 5 })))).toEqual({ code: "SCHEMA_INVALID", keyword: "type", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "object", properties: { a: { type: "string", minLength: -1 } } })))).toEqual({ code: "SCHEMA_INVALID", keyword: "minLength", pointer: "/properties/a" });
    expect(where(failure(() => compileSchema({ type: "object", required: "a" })))).toEqual({ code: "SCHEMA_INVALID", keyword: "required", pointer: "" });
    expect(where(failure(() => compileSchema({ anyOf: [] })))).toEqual({ code: "SCHEMA_INVALID", keyword: "anyOf", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "string", pattern: "([a-z" })))).toEqual({ code: "SCHEMA_INVALID", keyword: "pattern", pointer: "" });
  });
  it("non-schemas and non-JSON values", () => {
    expect(failure(() => compileSchema(42)).code).toBe("SCHEMA_INVALID");
    expect(failure(() => compileSchema([{ type: "string" }])).code).toBe("SCHEMA_INVALID");
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(failure(() => compileSchema(cyclic)).code).toBe("SCHEMA_INVALID");
    expect(failure(() => compileSchema({ items: 3 })).code).toBe("SCHEMA_INVALID");
  });
  it("unsupported keywords are rejected by name", () => {
    expect(where(failure(() => compileSchema({ $dynamicRef: "#meta" })))).toEqual({ code: "SCHEMA_UNSUPPORTED", keyword: "$dynamicRef", pointer: "" });
  });
});

describe("references", () => {
  it("cyclic $ref with no base case", () => {
    expect(where(failure(() => compileSchema({ $ref: "#" })))).toMatchObject({ code: "SCHEMA_UNSATISFIABLE", keyword: "$ref" });
    expect(failure(() => compileSchema({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" })).code).toBe("SCHEMA_UNSATISFIABLE");
    expect(failure(() => compileSchema({ type: "object", properties: { next: { $ref: "#" } }, required: ["next"] }, { nullEscape: false })).code).toBe("SCHEMA_UNSATISFIABLE");
  });
  it("remote and dangling references", () => {
    expect(where(failure(() => compileSchema({ properties: { a: { $ref: "other.json#/x" } } })))).toEqual({ code: "SCHEMA_REF", keyword: "$ref", pointer: "/properties/a" });
    expect(failure(() => compileSchema({ $ref: "#/$defs/missing" })).code).toBe("SCHEMA_REF");
  });
  it("recursive $ref inside allOf cannot be inlined forever", () => {
    expect(where(failure(() => compileSchema({ allOf: [{ $ref: "#" }], type: "object" }, { mode: "jsonschema" })))).toMatchObject({ code: "SCHEMA_UNSUPPORTED", keyword: "$ref" });
  });
});

describe("unsatisfiable schemas", () => {
  it("names the keyword and pointer", () => {
    expect(where(failure(() => compileSchema(false)))).toEqual({ code: "SCHEMA_UNSATISFIABLE", keyword: "false", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "object", properties: { a: { type: "string", minLength: 5, maxLength: 2 } }, required: ["a"] }, { nullEscape: false })))).toEqual({ code: "SCHEMA_UNSATISFIABLE", keyword: "required", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "integer", minimum: 5, maximum: 4 })))).toEqual({ code: "SCHEMA_UNSATISFIABLE", keyword: "minimum", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "array", minItems: 3, maxItems: 2 })))).toEqual({ code: "SCHEMA_UNSATISFIABLE", keyword: "minItems", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "string", enum: [1, 2] })))).toEqual({ code: "SCHEMA_UNSATISFIABLE", keyword: "enum", pointer: "" });
  });
});

describe("bounded time and size", () => {
  it("a 10 MB schema is refused quickly", () => {
    const big = { type: "object", properties: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`property_${i}`, { type: "string", description: "x".repeat(20) }])) };
    const t = performance.now();
    expect(failure(() => compileSchema(big)).code).toBe("SCHEMA_TOO_LARGE");
    expect(performance.now() - t).toBeLessThan(3000);
  });
  it("exploding and unsupported regexes", () => {
    expect(where(failure(() => compileSchema({ type: "string", pattern: "(a{1000}){1000}" })))).toEqual({ code: "SCHEMA_TOO_LARGE", keyword: "pattern", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "string", pattern: "a(?!x)" })))).toEqual({ code: "PATTERN_UNSUPPORTED", keyword: "pattern", pointer: "" });
    expect(where(failure(() => compileSchema({ type: "string", pattern: "(a)\\1" })))).toEqual({ code: "PATTERN_UNSUPPORTED", keyword: "pattern", pointer: "" });
  });
  it("deep nesting and combinatorial blow-up", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 5000; i++) deep = { type: "array", items: deep };
    expect(failure(() => compileSchema(deep)).code).toBe("SCHEMA_TOO_LARGE");
    const branchy = { allOf: Array.from({ length: 12 }, (_, i) => ({ anyOf: [{ required: [`a${i}`] }, { required: [`b${i}`] }] })) };
    expect(where(failure(() => compileSchema(branchy, { mode: "jsonschema" })))).toMatchObject({ code: "SCHEMA_TOO_LARGE" });
  });
  it("maxLength 200 does not explode at compile (XGrammar takes ~12 s; bench:mask measures ours)", () => {
    const t = performance.now();
    compileSchema({ type: "string", maxLength: 200 });
    // A hang guard, not a speed claim: an exploding build takes seconds.
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
