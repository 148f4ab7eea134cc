/**
 * The extraction schemas and texts the MNN engine tests run end to end (toy model and real
 * export), and the check that an output is complete JSON whose every field is valid or null.
 */
import { expect } from "vitest";
import { z } from "zod";
import { chatTurns, joinSegments } from "../../src/prompt/chatml.js";

const Order = z.object({
  product: z.string().max(40),
  quantity: z.number().int().min(1).max(99),
  price: z.number().nullable(),
});
const Sentiment = z.object({
  sentiment: z.enum(["positive", "negative", "neutral"]),
  confident: z.boolean(),
});
const Contact = z.object({
  name: z.string().max(30),
  phones: z.array(z.string().regex(/^[0-9]{3,11}$/)).max(2),
  city: z.string().max(20).nullable(),
});

export const SCHEMAS = [
  { name: "order", schema: Order, text: "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价¥6,299.00。" },
  { name: "sentiment", schema: Sentiment, text: "The delivery was late but the support team fixed everything quickly." },
  { name: "contact", schema: Contact, text: "Call Li Wei at 13800138000 or 021-555-0199; he lives in Hangzhou." },
] as const;

/**
 * Complete JSON where every field is valid for the schema, or null: the grammar's escape for
 * "not in the text", which the extractor reports as a missing field.
 */
export function expectCompleteValidJson(name: string, schema: z.ZodObject<z.ZodRawShape>, raw: string): void {
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  expect(Object.keys(parsed).sort(), `${name}: ${raw}`).toEqual(Object.keys(schema.shape).sort());
  for (const [key, field] of Object.entries(schema.shape)) {
    const value = parsed[key];
    expect(value === null || (field as z.ZodType).safeParse(value).success, `${name}.${key}: ${raw}`).toBe(true);
  }
}

/** The one-turn ChatML prompt as the model sees it (control tokens spelled out), for tokenizer and logit checks. */
export function chatPrompt(system: string, document: string): string {
  const { prefix, suffix } = chatTurns(system);
  return joinSegments(prefix) + document + joinSegments(suffix);
}
