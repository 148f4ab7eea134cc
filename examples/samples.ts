/** Bundled sample documents and schemas for the demo: orders, contacts and events, zh and en. */
import { z } from "zod";

export const Order = z.object({
  product: z.string().describe("product name as written in the text"),
  quantity: z.number().int().min(1).describe("number of units"),
  price: z.number().nullable().describe("unit price"),
  deliveryDate: z.string().date().optional().describe("delivery date, YYYY-MM-DD"),
});

export const Contact = z.object({
  name: z.string().describe("person's full name"),
  phone: z.string().optional().describe("phone number"),
  email: z.string().email().optional(),
  company: z.string().optional(),
});

export const Event = z.object({
  title: z.string().describe("event name"),
  date: z.string().date().describe("YYYY-MM-DD"),
  city: z.string().optional(),
  attendees: z.number().int().optional(),
});

export const SAMPLES = [
  {
    name: "order (zh)",
    schema: Order,
    text: "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价¥6,299.00，要求在2026年3月15日前送达。",
  },
  {
    name: "contact (en)",
    schema: Contact,
    text: "Please reach out to Dr. Emily Chen at Northwind Labs, phone +1 415-555-0132, email emily.chen@northwind.example.",
  },
  {
    name: "event (zh)",
    schema: Event,
    text: "第十二届西湖开发者大会将于2026年5月20日在杭州举行，预计两千人参会。",
  },
] as const;
