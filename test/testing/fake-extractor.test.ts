import { beforeAll, describe, expect, it } from "vitest";
import type { Extractor } from "../../src/index.js";
import { fakeExtractor, type FakeExtractor } from "../../src/testing/index.js";
import { scriptedExtractor } from "./grammar-oracle.js";
import { INVOICE_TEXT, Invoice, Order } from "./schemas.js";

// Compile-time contract: a fake fits wherever app code takes the Extractor's methods.
const asAppDependency: Pick<Extractor, "extract" | "extractMany" | "stream" | "dispose"> = fakeExtractor();
void asAppDependency;

// Keys deliberately out of schema order (note comes before code in Invoice): fixtures need not care.
const VALUE = { vendor: "锐思科技有限公司", amount: 6299, currency: "CNY", paid: true, code: "AB-123", items: [], note: null };

let script = "";
let real: Extractor;
beforeAll(async () => {
  real = await scriptedExtractor(() => script);
});

describe("fakeExtractor", () => {
  it("turns a plain value from the table into the result the real extractor gives", async () => {
    const fake = fakeExtractor({ results: new Map([[INVOICE_TEXT, VALUE]]) });
    const r = await fake.extract(Invoice, INVOICE_TEXT);
    script = r.raw;
    expect(JSON.parse(r.raw)).toEqual(VALUE);
    const expected = await real.extract(Invoice, INVOICE_TEXT);
    expect({ ok: r.ok, data: r.data, fields: r.fields, issues: r.issues, raw: r.raw }).toEqual({
      ok: expected.ok,
      data: expected.data,
      fields: expected.fields,
      issues: expected.issues,
      raw: expected.raw,
    });
    expect(r.data?.vendor).toBe("锐思科技有限公司"); // typed as zod's output
    expect(r.fields.find((f) => f.pointer === "/vendor")?.status).toBe("found");
  });

  it("passes full results through, answers from a function, and records calls", async () => {
    const base = await fakeExtractor({ results: () => VALUE }).extract(Invoice, INVOICE_TEXT);
    const canned = { ...base, ok: false, data: null };
    const fake = fakeExtractor({ results: async (text) => (text === "canned" ? canned : undefined), arbitrary: true });
    expect(await fake.extract(Invoice, "canned")).toBe(canned);
    await fake.extract(Invoice, "other text", { maxTokens: 64 });
    expect(fake.calls.map((c) => [c.text, c.options.maxTokens])).toEqual([
      ["canned", undefined],
      ["other text", 64],
    ]);
  });

  it("refuses a fixture the grammar could never produce", async () => {
    const fake = fakeExtractor({ results: () => ({ ...VALUE, extra: 1 }) });
    await expect(fake.extract(Invoice, INVOICE_TEXT)).rejects.toMatchObject({ code: "OPTION_INVALID" });
  });

  it("throws for an unknown text unless arbitrary results are on; those are deterministic per text and seed", async () => {
    await expect(fakeExtractor().extract(Order, "x")).rejects.toMatchObject({ code: "OPTION_INVALID" });
    const a = fakeExtractor({ arbitrary: { seed: 5 } });
    const b = fakeExtractor({ arbitrary: { seed: 5 } });
    const texts = ["订单一：商品 A，价格 10", "订单二：商品 B，价格 20", "订单三"];
    for (const t of texts) expect(await a.extract(Order, t)).toEqual(await b.extract(Order, t));
    const other = fakeExtractor({ arbitrary: { seed: 6 } });
    const differs = await Promise.all(texts.map(async (t) => JSON.stringify(await other.extract(Order, t)) !== JSON.stringify(await a.extract(Order, t))));
    expect(differs).toContain(true);
  });

  it("checks the text and the signal like the real extractor, and refuses calls after dispose", async () => {
    const fake: FakeExtractor = fakeExtractor({ arbitrary: true });
    await expect(fake.extract(Order, "  ")).rejects.toMatchObject({ code: "TEXT_EMPTY" });
    await expect(fake.extract(Order, "t", { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "ABORTED" });
    await fake.dispose();
    await expect(fake.extract(Order, "t")).rejects.toMatchObject({ code: "ENGINE_DISPOSED" });
  });

  it("streams partial values that grow into the result", async () => {
    const fake = fakeExtractor({ results: new Map([[INVOICE_TEXT, VALUE]]) });
    const events = [];
    for await (const e of fake.stream(Invoice, INVOICE_TEXT)) events.push(e);
    const last = events.pop()!;
    expect(last.type).toBe("result");
    if (last.type !== "result") return;
    expect(events.length).toBeGreaterThan(10);
    for (const e of events) {
      expect(e.type).toBe("partial");
      if (e.type === "partial") expect(last.result.raw.startsWith(e.raw)).toBe(true);
    }
  });

  it("extractMany tags results with id and index and reports failures per document", async () => {
    const fake = fakeExtractor({ results: new Map([["a", VALUE]]) });
    const out = [];
    for await (const r of fake.extractMany(Invoice, [{ text: "a", id: "doc-a" }, "b"])) out.push(r);
    expect(out[0]).toMatchObject({ id: "doc-a", index: 0 });
    expect(JSON.parse(out[0]!.result!.raw)).toEqual(VALUE);
    expect(out[1]).toMatchObject({ id: 1, index: 1 });
    expect(out[1]!.error).toBeInstanceOf(Error);
  });
});

describe("fakeExtractor and the long-document options", () => {
  const LONG = `${INVOICE_TEXT}\n\n${"The rest of the letter says nothing about the invoice. ".repeat(40)}`;

  it("checks them as extract does, but answers the whole text without chunking", async () => {
    const fake = fakeExtractor({ results: new Map([[LONG, VALUE]]) });
    const plain = await fake.extract(Invoice, LONG);
    const chunked = await fake.extract(Invoice, LONG, { chunkSize: 500, chunkOverlap: 100, passes: 2 });
    expect(LONG.length).toBeGreaterThan(1000);
    expect(chunked).toEqual(plain);
    expect(chunked.stats.chunks).toBeUndefined();
    expect(fake.calls.map((c) => [c.text, c.options.chunkSize])).toEqual([
      [LONG, undefined],
      [LONG, 500],
    ]);
    for (const options of [{ chunkSize: 10 }, { chunkSize: 1000, chunkOverlap: 500 }, { chunkSize: 1000, passes: 4 }]) {
      await expect(fake.extract(Invoice, LONG, options)).rejects.toMatchObject({ code: "OPTION_INVALID" });
      const many = fake.extractMany(Invoice, [LONG], options);
      await expect(many.next()).rejects.toMatchObject({ code: "OPTION_INVALID" });
    }
    expect(fake.calls).toHaveLength(2);
  });
});
