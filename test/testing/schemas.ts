/** Schemas the testing-kit tests share: a typical extraction schema and harder shapes. */
import { z } from "zod";

/** A typical extraction schema; every keyword of it is enforced by the grammar (checked in a test). */
export const Invoice = z.object({
  vendor: z.string().max(40).describe("seller as written"),
  amount: z.number(),
  currency: z.enum(["CNY", "USD", "EUR"]),
  paid: z.boolean(),
  note: z.string().max(10).optional(),
  code: z.string().regex(/^[A-Z]{2}-\d{3}$/),
  items: z.array(z.object({ name: z.string().max(20), qty: z.number().int().min(1).max(999) })).max(5),
});

/** A format, nullable, post-decode checks (exclusiveMinimum, date pattern) and a refinement. */
export const Order = z.object({
  product: z.string(),
  price: z.number().positive().nullable(),
  due: z.string().date().optional(),
  sku: z.string().min(2).max(8).refine((s) => s !== "XX", "XX is a placeholder"),
});

interface Node {
  label: string;
  children: Node[];
}
/** Recursive: the grammar bounds the depth (maxRecursionDepth). */
export const Tree: z.ZodType<Node> = z.object({
  label: z.string().max(6),
  get children() {
    return z.array(Tree).max(2);
  },
});

export const INVOICE_TEXT = "发票：供应商 锐思科技有限公司，金额 ¥6,299.00，币种 CNY，编号 AB-123。明细：笔记本电脑 3 台。已付款。";
