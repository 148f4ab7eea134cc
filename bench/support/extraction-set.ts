/**
 * Typical extraction schemas with realistic filled-in instances: the workload pocket-extract is
 * built for (flat and nested objects, enums, bounded integers, short bounded strings, arrays of
 * objects, nullable fields, CJK text). Every object is closed (`additionalProperties: false`) and
 * every property required, so JSON Schema semantics and XGrammar's strict mode admit the same set.
 */

export interface BenchCase {
  readonly name: string;
  readonly schema: unknown;
  /** Instances in compact serialization (separators "," and ":"). */
  readonly texts: readonly string[];
}

const closed = (properties: Record<string, unknown>): Record<string, unknown> => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const str = { type: "string" };
const nullableStr = { type: ["string", "null"] };

export const EXTRACTION_CASES: readonly BenchCase[] = [
  {
    name: "person",
    schema: closed({ name: str, age: { type: "integer", minimum: 0, maximum: 150 }, email: nullableStr, occupation: str }),
    texts: [
      { name: "Maria Fernández", age: 34, email: "maria.fernandez@example.org", occupation: "structural engineer" },
      { name: "Li Wei", age: 61, email: null, occupation: "retired schoolteacher" },
    ],
  },
  {
    name: "invoice",
    schema: closed({
      invoice_number: str,
      date: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" },
      vendor: closed({ name: str, address: str }),
      items: { type: "array", items: closed({ description: str, quantity: { type: "integer", minimum: 1 }, unit_price: { type: "number" } }) },
      total: { type: "number" },
      currency: { enum: ["USD", "EUR", "GBP", "CNY", "JPY"] },
    }),
    texts: [
      {
        invoice_number: "INV-2024-00817",
        date: "2024-03-15",
        vendor: { name: "Northwind Office Supply", address: "1200 Harbor Blvd, Suite 4, Oakland, CA 94607" },
        items: [
          { description: "A4 copy paper, 5 reams", quantity: 4, unit_price: 23.5 },
          { description: "Black toner cartridge TN-760", quantity: 2, unit_price: 71.99 },
          { description: "Desk organizer", quantity: 1, unit_price: 18 },
        ],
        total: 255.98,
        currency: "USD",
      },
    ],
  },
  {
    name: "event",
    schema: closed({
      title: str,
      start: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$" },
      location: nullableStr,
      attendees: { type: "array", items: str, maxItems: 20 },
      online: { type: "boolean" },
    }),
    texts: [
      { title: "Quarterly planning review", start: "2025-01-22T14:30", location: "Room 4B, Building 2", attendees: ["Dana Kim", "Omar Haddad", "Priya Natarajan"], online: false },
      { title: "Vendor sync", start: "2025-02-03T09:00", location: null, attendees: [], online: true },
    ],
  },
  {
    name: "review",
    schema: closed({
      product: str,
      rating: { type: "integer", minimum: 1, maximum: 5 },
      sentiment: { enum: ["positive", "neutral", "negative"] },
      pros: { type: "array", items: str },
      cons: { type: "array", items: str },
    }),
    texts: [
      {
        product: "Aeropress Go travel coffee maker",
        rating: 4,
        sentiment: "positive",
        pros: ["compact", "easy to clean", "makes a strong cup"],
        cons: ["small capacity"],
      },
    ],
  },
  {
    name: "entities",
    schema: closed({
      entities: { type: "array", items: closed({ text: str, type: { enum: ["PERSON", "ORG", "LOCATION", "DATE", "MONEY"] } }) },
    }),
    texts: [
      {
        entities: [
          { text: "Tim Cook", type: "PERSON" },
          { text: "Apple", type: "ORG" },
          { text: "Cupertino", type: "LOCATION" },
          { text: "September 12, 2023", type: "DATE" },
          { text: "$799", type: "MONEY" },
        ],
      },
    ],
  },
  {
    name: "contact-zh",
    schema: closed({ 公司: str, 联系人: str, 电话: { type: "string", pattern: "^[0-9-]{7,20}$" }, 地址: str }),
    texts: [{ 公司: "杭州云栖科技有限公司", 联系人: "王小明", 电话: "0571-88886666", 地址: "浙江省杭州市西湖区文三路 90 号" }],
  },
].map((c) => ({ ...c, texts: c.texts.map((t) => JSON.stringify(t)) }));

/** The mask-cost probe: a free string, a bounded string and a number, in that order. */
export const PROBE_SCHEMA = closed({ name: str, note: { type: "string", maxLength: 64 }, age: { type: "number" } });

/** Prefixes that leave the probe grammar in characteristic states. */
export const PROBE_STATES: ReadonlyArray<readonly [string, string]> = [
  ["after {", "{"],
  ["inside a free string", '{"name":"Jo'],
  ["inside a bounded string (maxLength 64)", '{"name":"Jo","note":"ab'],
  ["in a number", '{"name":"Jo","note":"ab","age":4'],
];

/** The compile-time stress case: one string of at most 200 characters. */
export const MAX_LENGTH_200 = closed({ text: { type: "string", maxLength: 200 } });
