/**
 * Input detection: Zod v4 (z.toJSONSchema), Zod v3 (`zod/v3` through zod-to-json-schema), plain
 * JSON Schema; anything else is a typed error. Compiled Zod schemas accept what Zod accepts.
 */

import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as z3 from "zod/v3";
import { detectSource, toJsonSchema } from "../../src/schema/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "../schema-compiler/support/accept.js";

describe("detection", () => {
  it("recognizes Zod v4, Zod v3 and JSON Schema", () => {
    expect(detectSource(z.string())).toBe("zod4");
    expect(detectSource(z3.z.string())).toBe("zod3");
    expect(detectSource({ type: "string" })).toBe("json-schema");
    expect(detectSource(true)).toBe("json-schema");
  });
  it("rejects other values with typed errors", () => {
    expect(() => toJsonSchema(() => 1)).toThrow(expect.objectContaining({ code: "SCHEMA_INVALID" }));
    expect(() => toJsonSchema(null)).toThrow(expect.objectContaining({ code: "SCHEMA_INVALID" }));
    expect(() => toJsonSchema({ safeParse: () => 0 })).toThrow(expect.objectContaining({ code: "SCHEMA_UNSUPPORTED" }));
    expect(() => compileSchema(z.date())).toThrow(expect.objectContaining({ code: "SCHEMA_UNSUPPORTED" }));
  });
});

describe("Zod schemas compile to grammars that agree with Zod", () => {
  const Order = z.object({
    product: z.string().describe("product name"),
    quantity: z.number().int().min(1),
    price: z.number().nullable(),
    deliveryDate: z.iso.date().optional(),
    tags: z.array(z.enum(["new", "sale"])).max(2),
  });
  it("zod v4 object with optional, nullable, int range, enum array, format", () => {
    const acc = acceptor(Order, { nullEscape: false });
    const ok = [
      { product: "Book", quantity: 3, price: null, tags: [] },
      { product: "Book", quantity: 1, price: 9.5, deliveryDate: "2024-05-01", tags: ["sale"] },
    ];
    for (const v of ok) {
      expect(Order.safeParse(v).success).toBe(true);
      expect(acc.dfa(JSON.stringify(v))).toBe(true);
    }
    const bad = [
      { product: "Book", quantity: 0, price: null, tags: [] },
      { product: "Book", quantity: 1, price: null, tags: ["old"] },
      { product: "Book", quantity: 1, price: null, deliveryDate: "May 1", tags: [] },
      { product: "Book", quantity: 1, tags: [] },
    ];
    for (const v of bad) {
      expect(Order.safeParse(v).success).toBe(false);
      expect(acc.dfa(JSON.stringify(v))).toBe(false);
    }
  });
  it("null escape paths for a Zod schema", () => {
    const c = compileSchema(Order);
    expect(c.nullEscapes.map((e) => e.instancePath)).toEqual(["/product", "/quantity", "/deliveryDate", "/tags"]);
    expect(acceptor(Order).dfa(JSON.stringify({ product: null, quantity: null, price: null, tags: null }))).toBe(true);
  });
  it("z.lazy recursion", () => {
    type Node = { name: string; children: Node[] };
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(NodeSchema) }));
    const acc = acceptor(NodeSchema, { nullEscape: false, defaultMaxStringLength: 16, maxRecursionDepth: 4 });
    expect(acc.dfa(JSON.stringify({ name: "a", children: [{ name: "b", children: [] }] }))).toBe(true);
    expect(acc.dfa(JSON.stringify({ name: "a", children: [{ name: "b" }] }))).toBe(false);
  });
  it("zod v3 schemas via zod-to-json-schema", () => {
    const S = z3.z.object({ id: z3.z.number().int().max(9), label: z3.z.string().optional() });
    const acc = acceptor(S, { nullEscape: false });
    expect(acc.dfa('{"id":9}')).toBe(true);
    expect(acc.dfa('{"id":9,"label":"x"}')).toBe(true);
    expect(acc.dfa('{"id":10}')).toBe(false);
  });
});
