/**
 * End to end through the native llama.cpp engine on the tiny random-weight GGUF: the real model
 * path from `createExtractor({ model })` to a typed result, for schemas of every common shape.
 * The model's values are noise; what is checked is what the grammar guarantees whatever the
 * weights: complete JSON that fits the schema, eos only at completion, forced tokens, stats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, type Extractor } from "../../src/index.js";
import { compileValidator } from "../../src/validate/index.js";

const Node: z.ZodType<{ label: string; children: unknown[] }> = z.lazy(() => z.object({ label: z.string().max(8), children: z.array(Node).max(2) }));

const SCHEMAS: Record<string, z.ZodType> = {
  flat: z.object({ name: z.string(), age: z.number().int().min(0).max(150), vip: z.boolean() }),
  nested: z.object({ order: z.object({ id: z.string().max(12), total: z.number() }), customer: z.object({ name: z.string().max(20) }) }),
  arrays: z.object({ items: z.array(z.object({ sku: z.string().max(10), qty: z.number().int().min(1) })).min(1).max(3) }),
  enums: z.object({ status: z.enum(["paid", "unpaid", "refunded"]), channel: z.enum(["web", "门店"]) }),
  optionalNullable: z.object({ a: z.string().max(10).optional(), b: z.number().nullable(), c: z.string().max(10).nullable().optional() }),
  recursive: z.object({ root: Node }),
};

const TEXT = "订单 A-1029：王小明购买了 3 件商品，已付款，总价 ¥1,299.00，门店自提。";

let extractor: Extractor;
beforeAll(async () => {
  extractor = await createExtractor({ model: await ensureGgufFixture("tiny"), maxTokens: 120 });
});
afterAll(async () => {
  await extractor?.dispose();
});

describe("extract() on the tiny GGUF through the native llama.cpp engine", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name}: complete JSON that the grammar's schema accepts, eos only at completion, stats add up`, async () => {
      const compiled = extractor.compile(schema, { defaultMaxStringLength: 24 });
      const r = await extractor.extract(schema, TEXT, { defaultMaxStringLength: 24 });
      const value: unknown = JSON.parse(r.raw);
      // Every keyword of these schemas is enforced by the grammar: after the null escapes are
      // resolved, the only possible problems are required fields the model left null.
      for (const issue of r.issues) expect(issue.message, r.raw).toMatch(/not stated in the text/);
      expect(compiled.report?.validatedAfter ?? []).toEqual([]);
      expect(value).not.toBeUndefined();
      const s = r.stats;
      expect(["eos", "closed", "budget"]).toContain(s.stopReason);
      expect(s.tokensSampled + s.tokensForced + s.tokensCompleted).toBeLessThanOrEqual(120);
      expect(s.tokensForced).toBeGreaterThan(0);
      expect(s.promptTokens).toBeGreaterThan(20);
      expect(s.engineMs).toBeGreaterThan(0);
      expect(r.fields.length).toBeGreaterThan(0);
    });
  }

  it("the same document twice gives the same output (greedy is deterministic)", async () => {
    const a = await extractor.extract(SCHEMAS.flat, TEXT);
    const b = await extractor.extract(SCHEMAS.flat, TEXT);
    expect(b.raw).toBe(a.raw);
  });

  it("raw output validates against the JSON Schema once null escapes are resolved", async () => {
    const r = await extractor.extract(SCHEMAS.enums, TEXT);
    if (r.ok) expect(compileValidator(extractor.compile(SCHEMAS.enums).jsonSchema!)(r.data)).toBe(true);
    else expect(r.issues.every((i) => /not stated/.test(i.message))).toBe(true);
  });
});
