import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as z3 from "zod/v3";
import { zodToJsonSchema } from "zod-to-json-schema";
import { SchemaError, type PocketExtractError } from "../../src/errors.js";
import type { JsonSchema } from "../../src/schema/index.js";
import { compileValidator, validate } from "../../src/validate/index.js";

const Order = z.object({
  product: z.string(),
  quantity: z.number().int().min(1),
  email: z.string().email().optional(),
  items: z.array(z.object({ sku: z.string(), qty: z.number() })),
  total: z.number().refine((n) => n % 5 === 0, "total must be a multiple of 5"),
});
const orderSchema = z.toJSONSchema(Order) as JsonSchema;

describe("ajv's evaluated-properties tracking (ajv 8.20 throws a TypeError inside its generated code)", () => {
  // An `if` clause with `properties` that does not run, and patternProperties beside it marking a key.
  const conditional = { if: { properties: { kind: { const: "a" } } }, else: { properties: { a: { type: "integer" } } } };
  const D2020 = "https://json-schema.org/draft/2020-12/schema";

  it("a schema without unevaluated* is validated without the tracking, with the right verdicts", () => {
    const schema = { $schema: D2020, type: "object", patternProperties: { "^a": { type: "integer" } }, ...conditional };
    const verdicts = [{ a: 1 }, { kind: "a", a: 1 }, { a: "x" }, { kind: "b", a: "x" }, { kind: "b", b: "x" }].map((v) => validate(v, schema).ok);
    expect(verdicts).toEqual([true, true, false, false, true]);
  });

  it("where the tracking is needed, ajv's failure is a typed SchemaError saying what to do, never a raw TypeError", () => {
    const schema = { $schema: D2020, type: "object", patternProperties: { "^b": { type: "integer" } }, allOf: [conditional], unevaluatedProperties: false };
    let error: unknown;
    try {
      validate({ kind: "a", b: 1 }, schema);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as PocketExtractError).code).toBe("SCHEMA_UNSUPPORTED");
    expect((error as Error).message).toMatch(/validator \(ajv\) failed .* simplify the keywords around unevaluatedProperties/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe("validate", () => {
  it("accepts a valid value and returns zod's output as data", () => {
    const Trimmed = z.object({ name: z.string().transform((s) => s.toUpperCase()) });
    const r = validate({ name: "ada" }, z.toJSONSchema(Trimmed, { io: "input" }) as JsonSchema, Trimmed);
    expect(r).toEqual({ ok: true, data: { name: "ADA" }, issues: [] });
  });

  it("reports ajv issues with paths into nested arrays", () => {
    const r = validate({ product: "x", quantity: 0, items: [{ sku: "a", qty: 1 }, { sku: 7, qty: 1 }], total: 10 }, orderSchema);
    expect(r.ok).toBe(false);
    expect(r.data).toBeNull();
    const byPointer = new Map(r.issues.map((i) => [i.pointer, i]));
    expect(byPointer.get("/quantity")?.source).toBe("ajv");
    expect(byPointer.get("/items/1/sku")?.path).toEqual(["items", 1, "sku"]);
  });

  it("points required-property issues at the missing property", () => {
    const r = validate({ quantity: 2, items: [], total: 5 }, orderSchema);
    expect(r.issues.map((i) => i.pointer)).toContain("/product");
    expect(r.issues.find((i) => i.pointer === "/product")?.path).toEqual(["product"]);
  });

  it("checks formats with ajv-formats", () => {
    const r = validate({ product: "x", quantity: 1, email: "not-an-email", items: [], total: 5 }, orderSchema);
    expect(r.issues.some((i) => i.pointer === "/email" && i.source === "ajv")).toBe(true);
  });

  it("runs zod refinements after ajv and reports them with their path", () => {
    const r = validate({ product: "x", quantity: 1, items: [], total: 7 }, orderSchema, Order);
    expect(r.ok).toBe(false);
    expect(r.issues).toEqual([{ path: ["total"], pointer: "/total", message: "total must be a multiple of 5", source: "zod" }]);
  });

  it("does not repeat a zod issue at a pointer ajv already reported", () => {
    const r = validate({ product: 1, quantity: 1, items: [], total: 5 }, orderSchema, Order);
    expect(r.issues.filter((i) => i.pointer === "/product")).toHaveLength(1);
  });

  it("accepts zod v3 schemas (safeParse)", () => {
    const V3 = z3.object({ n: z3.number().max(3) });
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] } as const;
    expect(validate({ n: 2 }, schema, V3).ok).toBe(true);
    const bad = validate({ n: 9 }, schema, V3);
    expect(bad.issues).toEqual([expect.objectContaining({ pointer: "/n", source: "zod" })]);
  });

  it("picks the draft from $schema: draft-07 tuples vs 2020-12 prefixItems", () => {
    const d7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }, { type: "number" }] };
    expect(validate(["a", 1], d7).ok).toBe(true);
    expect(validate(["a", "b"], d7).issues[0]!.pointer).toBe("/1");
    const d2020 = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "string" }, { type: "number" }] };
    expect(validate(["a", "b"], d2020).issues[0]!.pointer).toBe("/1");
    const d2019 = { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { a: { type: "integer" } } };
    expect(validate({ a: 1.5 }, d2019).ok).toBe(false);
  });

  it("compiles each schema object once", () => {
    const schema = { type: "string" };
    expect(compileValidator(schema)).toBe(compileValidator(schema));
    expect(compileValidator(schema)).not.toBe(compileValidator({ type: "string" }));
  });

  it("allows two schemas with the same $id", () => {
    const a = { $id: "https://example.com/s", type: "string" };
    const b = { $id: "https://example.com/s", type: "number" };
    expect(validate("x", a).ok).toBe(true);
    expect(validate(1, b).ok).toBe(true);
  });

  it("throws a SchemaError for a schema that does not compile", () => {
    const bad = { type: "object", properties: { a: { type: "no-such-type" } } };
    expect(() => validate({}, bad)).toThrow(SchemaError);
    try {
      validate({}, bad);
    } catch (e) {
      expect((e as PocketExtractError).code).toBe("SCHEMA_INVALID");
    }
  });
});

interface TreeNode {
  label: string;
  children: TreeNode[];
}
const Tree: z.ZodType<TreeNode> = z.object({
  label: z.string().max(6),
  get children() {
    return z.array(Tree).max(2);
  },
});
interface Chain {
  v: number;
  next: Chain | null;
}
const Chain: z.ZodType<Chain> = z.lazy(() => z.object({ v: z.number().int(), next: Chain.nullable() }));

const pointers = (r: { issues: { pointer: string }[] }): string[] => r.issues.map((i) => i.pointer);

describe("validate: recursive schemas whose JSON Schema refers to the root ($ref '#')", () => {
  const treeSchema = z.toJSONSchema(Tree) as JsonSchema;
  const deep: TreeNode = { label: "a", children: [{ label: "b", children: [{ label: "c", children: [] }] }, { label: "d", children: [] }] };

  it("zod v4 getter recursion: the emitted schema refers to the root, and nested data validates", () => {
    expect(JSON.stringify(treeSchema)).toContain('"$ref":"#"');
    expect(validate(deep, treeSchema, Tree)).toEqual({ ok: true, data: deep, issues: [] });
  });

  it("rejects invalid data at any depth, with the nested path", () => {
    const at = (leaf: unknown): unknown => ({ label: "a", children: [{ label: "b", children: [leaf] }] });
    expect(pointers(validate(at({ label: 7, children: [] }), treeSchema, Tree))).toEqual(["/children/0/children/0/label"]);
    expect(pointers(validate(at({ label: "toolong", children: [] }), treeSchema))).toEqual(["/children/0/children/0/label"]);
    expect(pointers(validate(at({ label: "c" }), treeSchema, Tree))).toEqual(["/children/0/children/0/children"]);
    expect(pointers(validate(at({ label: "c", children: [], x: 1 }), treeSchema))).toEqual(["/children/0/children/0/x"]);
    const three = { label: "c", children: [deep, deep, deep] };
    expect(pointers(validate(at(three), treeSchema))).toEqual(["/children/0/children/0/children"]);
  });

  it("zod v4 z.lazy recursion through a nullable", () => {
    const schema = z.toJSONSchema(Chain) as JsonSchema;
    expect(JSON.stringify(schema)).toContain('"$ref":"#"');
    expect(validate({ v: 1, next: { v: 2, next: { v: 3, next: null } } }, schema, Chain).ok).toBe(true);
    // anyOf reports each failed branch too (allErrors); the innermost issue is the bad integer.
    expect(pointers(validate({ v: 1, next: { v: 2, next: { v: 3.5, next: null } } }, schema, Chain))[0]).toBe("/next/next/v");
  });

  it("zod v3 through zod-to-json-schema (draft-07) and a hand-written draft-04 schema", () => {
    interface N3 {
      name: string;
      kids: N3[];
    }
    const T3: z3.ZodType<N3> = z3.lazy(() => z3.object({ name: z3.string(), kids: z3.array(T3) }));
    const d7 = zodToJsonSchema(T3) as JsonSchema;
    expect(validate({ name: "a", kids: [{ name: "b", kids: [] }] }, d7, T3).ok).toBe(true);
    expect(pointers(validate({ name: "a", kids: [{ name: "b", kids: [{ kids: [] }] }] }, d7))).toEqual(["/kids/0/kids/0/name"]);
    const d4 = { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { next: { anyOf: [{ $ref: "#" }, { type: "null" }] }, n: { type: "integer" } } };
    expect(validate({ n: 1, next: { n: 2, next: null } }, d4).ok).toBe(true);
    expect(pointers(validate({ n: 1, next: { n: "2", next: null } }, d4))).toContain("/next/n");
  });

  it("each compiled schema's '#' is its own root, with or without an $id of its own", () => {
    const strings = { type: "object", properties: { v: { type: "string" }, next: { $ref: "#" } } };
    const numbers = { type: "object", properties: { v: { type: "number" }, next: { $ref: "#" } } };
    const withId = { $id: "https://example.com/list", type: "object", properties: { v: { type: "boolean" }, next: { $ref: "#" } } };
    expect(validate({ v: "a", next: { v: "b" } }, strings).ok).toBe(true);
    expect(validate({ v: 1, next: { v: 2 } }, numbers).ok).toBe(true);
    expect(pointers(validate({ v: "a", next: { v: 2 } }, strings))).toEqual(["/next/v"]);
    expect(pointers(validate({ v: 1, next: { v: "b" } }, numbers))).toEqual(["/next/v"]);
    expect(validate({ v: true, next: { v: false } }, withId).ok).toBe(true);
    expect(pointers(validate({ v: true, next: { v: 1 } }, withId))).toEqual(["/next/v"]);
  });
});
