import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractResult, Extractor } from "../../src/index.js";
import { arbitraryResult } from "../../src/testing/index.js";
import { grammarAccepts, scriptedExtractor } from "./grammar-oracle.js";
import { INVOICE_TEXT, Invoice, Order } from "./schemas.js";

let script = "";
let ex: Extractor;
beforeAll(async () => {
  ex = await scriptedExtractor(() => script);
});

const SYNTHETIC = /synthetic issue/;

function checkSpans(r: ExtractResult<unknown>, text: string): void {
  for (const f of r.fields) {
    for (const s of f.spans) {
      expect(0 <= s.start && s.start <= s.end && s.end <= text.length).toBe(true);
      expect(text.slice(s.start, s.end)).toBe(s.text);
    }
    if (f.status === "found") expect(f.spans.length).toBeGreaterThan(0);
    if (f.spans.length > 0) expect(f.best).toEqual(f.spans[0]);
  }
}

function checkConsistency(r: ExtractResult<unknown>): void {
  expect(r.ok).toBe(r.data !== null);
  expect(r.stats.cutShort).toBe(r.stats.stopReason === "budget");
  if (r.ok) {
    expect(r.issues).toEqual([]);
    expect(r.stats.cutShort).toBe(false);
  }
  for (const f of r.fields) {
    // A required field answered null is `invalid` and fails the result; an empty "" or [] is
    // `missing` but valid, and the real extractor then says ok (see "equals what the real extractor returns").
    if (f.required && (f.value === null || f.value === undefined)) expect(f.status).toBe("invalid");
    if (f.status === "invalid") expect(r.ok).toBe(false);
    if (f.status === "invalid") expect(r.issues.some((i) => i.pointer === f.pointer)).toBe(true);
    expect(r.grounded).toBe(!r.fields.some((g) => g.status === "fabricated"));
    if (f.truncated) expect(r.stats.cutShort).toBe(true);
  }
  const s = r.stats;
  for (const n of [s.tokensSampled, s.tokensForced, s.tokensCompleted, s.maskMs, s.engineMs, s.promptTokens]) expect(n).toBeGreaterThanOrEqual(0);
  expect(s.totalMs).toBeGreaterThanOrEqual(s.engineMs);
}

describe("arbitraryResult(schema, text)", () => {
  it("spans point into the text, statuses agree with ok/data/issues, raw is a grammar output", () => {
    fc.assert(
      fc.property(arbitraryResult(Invoice, INVOICE_TEXT), (r) => {
        checkSpans(r, INVOICE_TEXT);
        checkConsistency(r);
        expect(grammarAccepts(ex, Invoice, r.raw)).toBe(true);
      }),
      { numRuns: 500, seed: 31 },
    );
  });

  it("covers every status, ok and not ok, budget cuts and truncated fields", () => {
    const results = fc.sample(arbitraryResult(Invoice, INVOICE_TEXT), { numRuns: 500, seed: 32 });
    const statuses = new Set(results.flatMap((r) => r.fields.map((f) => f.status)));
    expect(statuses).toEqual(new Set(["found", "missing", "fabricated", "inferred", "invalid"]));
    expect(results.some((r) => r.ok)).toBe(true);
    expect(results.some((r) => !r.ok && !r.stats.cutShort)).toBe(true);
    expect(results.some((r) => r.fields.some((f) => f.truncated))).toBe(true);
    // found values really are pieces of the text, not only coincidences like single digits
    expect(results.some((r) => r.fields.some((f) => f.status === "found" && typeof f.value === "string" && f.value.length >= 3))).toBe(true);
  });

  it("equals what the real extractor returns for the same model output", async () => {
    const results = fc
      .sample(arbitraryResult(Order, "订单：商品 锐思Book Pro 14，价格 6299 元，交货日期 2025-03-01，货号 RS-14。"), { numRuns: 40, seed: 33 })
      .filter((r) => !r.stats.cutShort && !r.issues.some((i) => SYNTHETIC.test(i.message)));
    expect(results.length).toBeGreaterThan(20);
    for (const r of results) {
      script = r.raw;
      const real = await ex.extract(Order, "订单：商品 锐思Book Pro 14，价格 6299 元，交货日期 2025-03-01，货号 RS-14。");
      expect({ ok: real.ok, data: real.data, partial: real.partial, fields: real.fields, issues: real.issues, raw: real.raw }).toEqual({
        ok: r.ok,
        data: r.data,
        partial: r.partial,
        fields: r.fields,
        issues: r.issues,
        raw: r.raw,
      });
    }
  });

  it("is deterministic under a seed", () => {
    const a = fc.sample(arbitraryResult(Invoice, INVOICE_TEXT), { numRuns: 30, seed: 34 });
    const b = fc.sample(arbitraryResult(Invoice, INVOICE_TEXT), { numRuns: 30, seed: 34 });
    expect(a).toEqual(b);
  });
});

describe("arbitraryResult(schema) without a text", () => {
  it("writes a text that states the found values", () => {
    const results = fc.sample(arbitraryResult(Invoice), { numRuns: 200, seed: 35 });
    let found = 0;
    for (const r of results) {
      checkConsistency(r);
      for (const f of r.fields.filter((x) => x.status === "found")) {
        found++;
        expect(f.best!.text.length).toBeGreaterThan(0);
      }
    }
    expect(found).toBeGreaterThan(100);
  });
});
