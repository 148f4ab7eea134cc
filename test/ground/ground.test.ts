import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PocketExtractError } from "../../src/errors.js";
import { verify } from "../../src/extract/verify-value.js";
import { groundFields, type FieldReport } from "../../src/ground/index.js";
import type { JsonSchema } from "../../src/schema/index.js";
import { validate } from "../../src/validate/index.js";

const text = "客户张伟于2026年3月15日购买了三台笔记本电脑，已付款，单价¥1,299.00。";

const Order = z.object({
  customer: z.string(),
  quantity: z.number().int(),
  paid: z.boolean(),
  status: z.enum(["已付款", "未付款"]),
  channel: z.enum(["online", "store"]),
  total: z.number().meta({ "x-pocket": { derived: true } }),
  note: z.string().nullable(),
  coupon: z.string().optional(),
  items: z.array(z.object({ name: z.string(), price: z.number() })),
  tags: z.array(z.string()),
});
const schema = z.toJSONSchema(Order) as JsonSchema;

const byPointer = (reports: FieldReport[]): Map<string, FieldReport> => new Map(reports.map((r) => [r.pointer, r]));

describe("groundFields", () => {
  const value = {
    customer: "张伟",
    quantity: 3,
    paid: true,
    status: "已付款",
    channel: "online",
    total: 3897,
    note: null,
    items: [{ name: "笔记本电脑", price: 1299 }, { name: "鼠标", price: 99 }],
    tags: [],
  };
  const reports = groundFields(value, text, { schema });
  const r = byPointer(reports);

  it("reports every leaf, absent declared fields included, in document order", () => {
    expect(reports.map((x) => x.pointer)).toEqual([
      "/customer", "/quantity", "/paid", "/status", "/channel", "/total", "/note", "/items/0/name", "/items/0/price",
      "/items/1/name", "/items/1/price", "/tags", "/coupon",
    ]);
  });

  it("finds grounded values with their best span", () => {
    expect(r.get("/customer")).toMatchObject({ status: "found", best: { text: "张伟", match: "exact" } });
    expect(r.get("/quantity")).toMatchObject({ status: "found", best: { text: "三", match: "normalized" } });
    expect(r.get("/items/0/price")?.best?.text).toBe("1,299.00");
  });

  it("flags values the text does not support", () => {
    expect(r.get("/items/1/name")).toMatchObject({ status: "fabricated", spans: [] });
    expect(r.get("/items/1/price")?.status).toBe("fabricated");
    expect(r.get("/items/1/name")?.best).toBeUndefined();
  });

  it("reports booleans, unwritten enum values and derived fields as inferred", () => {
    expect(r.get("/paid")).toMatchObject({ status: "inferred", spans: [] });
    expect(r.get("/channel")?.status).toBe("inferred");
    expect(r.get("/total")?.status).toBe("inferred");
  });

  it("reports an enum value written in the text as found", () => {
    expect(r.get("/status")).toMatchObject({ status: "found", best: { text: "已付款" } });
  });

  it("reports null, absent and empty values as missing, with required only where the schema demands a value", () => {
    expect(r.get("/note")).toMatchObject({ status: "missing", required: false, value: null });
    expect(r.get("/coupon")).toMatchObject({ status: "missing", required: false, value: undefined });
    expect(r.get("/tags")).toMatchObject({ status: "missing", value: [] });
    const again = byPointer(groundFields({ ...value, customer: null }, text, { schema }));
    expect(again.get("/customer")).toMatchObject({ status: "missing", required: true });
  });

  it("marks leaves with a validation issue at their path as invalid, spans kept", () => {
    const bad = { ...value, quantity: 3.5, customer: "张伟" };
    const { issues } = validate(bad, schema);
    const g = byPointer(groundFields(bad, text, { schema, issues }));
    expect(g.get("/quantity")?.status).toBe("invalid");
    expect(g.get("/customer")?.status).toBe("found");
    const withSpans = byPointer(groundFields(value, text, { schema, issues: [{ pointer: "/customer" }] }));
    expect(withSpans.get("/customer")).toMatchObject({ status: "invalid", best: { text: "张伟" } });
  });

  it("grounds plain values without a schema", () => {
    const g = groundFields({ a: "张伟", b: ["李四", 3], c: { d: false } }, text);
    expect(g.map((x) => [x.pointer, x.status])).toEqual([["/a", "found"], ["/b/0", "fabricated"], ["/b/1", "found"], ["/c/d", "inferred"]]);
    expect(g.every((x) => !x.required)).toBe(true);
  });

  it("grounds a scalar root value at pointer ''", () => {
    expect(groundFields("张伟", text)).toMatchObject([{ pointer: "", path: [], status: "found" }]);
  });

  it("follows $ref, anyOf with null and allOf", () => {
    const s: JsonSchema = {
      $defs: { Person: { type: "object", properties: { name: { type: "string" }, role: { enum: ["buyer", "seller"] } }, required: ["name"] } },
      type: "object",
      properties: { buyer: { anyOf: [{ $ref: "#/$defs/Person" }, { type: "null" }] }, extra: { allOf: [{ properties: { x: { type: "string", "x-pocket": { derived: true } } } }] } },
      required: ["buyer"],
    };
    const g = byPointer(groundFields({ buyer: { name: "张伟", role: "buyer" }, extra: { x: "abc" } }, text, { schema: s }));
    expect(g.get("/buyer/name")).toMatchObject({ status: "found", required: true });
    expect(g.get("/buyer/role")?.status).toBe("inferred");
    expect(g.get("/extra/x")?.status).toBe("inferred");
    expect(byPointer(groundFields({ buyer: null }, text, { schema: s })).get("/buyer")).toMatchObject({ status: "missing", required: false });
  });

  it("rejects bad options with OPTION_INVALID", () => {
    expect(() => groundFields({}, text, { fuzzyThreshold: 0 })).toThrow(PocketExtractError);
    expect(() => groundFields({}, text, { fuzzyThreshold: 1.5 })).toThrow(/fuzzyThreshold/);
  });

  it("grounds a 4,000-character mixed-script text with 20 fields: real values found, invented ones fabricated", () => {
    // Speed is measured by bench/post-decode.bench.ts, not asserted here.
    const parts = ["客户张伟于2026年3月15日购买了三台笔记本电脑，单价¥1,299.00，电话138-1234-5678。", "Order A-10293 by Emily Carter on March 15, 2026: 3 x MX Master 3S at $99.99. "];
    let big = "";
    for (let i = 0; big.length < 4000; i++) big += parts[i % 2] + `第${i}段。`;
    big = big.slice(0, 4000);
    const v: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) {
      v[`found${i}`] = i % 2 ? "Emily Carter" : "2026-03-15";
      v[`fake${i}`] = i % 2 ? "北京星河文化传媒公司" : 1399 + i;
    }
    const out = byPointer(groundFields(v, big));
    expect(out.size).toBe(20);
    for (let i = 0; i < 10; i++) {
      expect(out.get(`/found${i}`)?.status).toBe("found");
      expect(out.get(`/fake${i}`)?.status).toBe("fabricated");
    }
  });
});

describe("verify", () => {
  it("validates and grounds in one call; a required null is invalid and makes the result not ok", () => {
    const Contact = z.object({ name: z.string(), phone: z.string().nullable() });
    const js = z.toJSONSchema(Contact) as JsonSchema;
    const good = verify({ name: "张伟", phone: null }, text, { jsonSchema: js, zodSchema: Contact });
    expect(good.ok).toBe(true);
    expect(good.data).toEqual({ name: "张伟", phone: null });
    expect(good.fields.map((f) => f.status)).toEqual(["found", "missing"]);
    const bad = verify({ name: null, phone: "138" }, text, { jsonSchema: js, zodSchema: Contact });
    expect(bad.ok).toBe(false);
    expect(bad.data).toBeNull();
    expect(bad.fields.map((f) => [f.pointer, f.status, f.required])).toEqual([["/name", "invalid", true], ["/phone", "fabricated", false]]);
    expect(bad.issues.map((i) => i.pointer)).toContain("/name");
  });
});

describe("required", () => {
  it("is false where the schema admits null or constrains nothing", () => {
    const s: JsonSchema = { type: "object", properties: { a: {}, b: { type: ["string", "null"] }, c: { type: "string" } }, required: ["a", "b", "c"] };
    const g = groundFields({}, "text", { schema: s });
    expect(g.map((f) => [f.pointer, f.required])).toEqual([["/a", false], ["/b", false], ["/c", true]]);
  });
});
