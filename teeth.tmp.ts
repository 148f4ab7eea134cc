import fc from "fast-check";
import { z } from "zod";
import { arbitraryResult } from "./src/testing/index.js";
const Invoice = z.object({ vendor: z.string().max(60), amount: z.number().positive(), currency: z.enum(["CNY", "USD", "EUR"]), dueDate: z.string().date().optional() });
const TEXT = "发票 No. 2024-0117：供应商 锐思科技有限公司，金额 ¥6,299.00（CNY），付款期限 2024-02-15。";
const runs = [];
for (let seed = 1; seed <= 10; seed++) {
  const out = fc.check(fc.property(arbitraryResult(Invoice, TEXT), (r) => !(r.ok && r.fields.find((f) => f.pointer === "/amount")?.status !== "found")), { numRuns: 1000, seed });
  runs.push(out.failed ? out.numRuns : -1);
}
console.log(runs);
const rs = fc.sample(arbitraryResult(Invoice, TEXT), { numRuns: 1000, seed: 5 });
const c: Record<string, number> = {};
for (const r of rs) { const a = r.fields.find(f => f.pointer === "/amount")!; const k = `${r.ok}/${a.status}`; c[k] = (c[k] ?? 0) + 1; }
console.log(c);
