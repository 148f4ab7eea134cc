import { describe, expect, it } from "vitest";
import { groundFields, resolveSchema } from "../../src/ground/index.js";
import { buildPrompt, describeSchema } from "../../src/prompt/index.js";
import type { JsonSchemaObject } from "../../src/schema/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";

// References the compiler resolves but a walk of local "#/..." pointers from the root does not:
// an anchor, an embedded resource named by its `$id`, an absolute URI with a pointer, and a
// pointer inside the embedded resource (relative to its own `$id`, not to the root).
const order: JsonSchemaObject = {
  $id: "https://example.com/schemas/order.json",
  type: "object",
  properties: {
    status: { $ref: "#status" },
    shipTo: { $ref: "address.json" },
    total: { $ref: "https://example.com/schemas/order.json#/$defs/total" },
  },
  required: ["status", "shipTo", "total"],
  additionalProperties: false,
  $defs: {
    status: { $anchor: "status", enum: ["paid", "open"] },
    address: {
      $id: "address.json",
      type: "object",
      properties: { city: { $ref: "#/$defs/city" } },
      required: ["city"],
      additionalProperties: false,
      $defs: { city: { type: "string", description: "city name as written" } },
    },
    total: { type: "number", "x-pocket": { derived: true } },
  },
};

// Draft 7: an anchor is spelled `$id: "#name"`, definitions live under `definitions`.
const draft7: JsonSchemaObject = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { price: { $ref: "#money" } },
  required: ["price"],
  definitions: { money: { $id: "#money", type: "number", description: "price in euros" } },
};

const text = "Order 17 ships to Dublin.";

describe("schema navigation resolves references the way the compiler does", () => {
  it("the compiler accepts both schemas", () => {
    expect(() => compileSchema(order)).not.toThrow();
    expect(() => compileSchema(draft7)).not.toThrow();
  });

  it("the prompt describes every referenced field", () => {
    const described = ['- status (one of "paid", "open")', "- shipTo (object)", "  - city (string): city name as written", "- total (number)"].join("\n");
    expect(describeSchema(order, "en")).toBe(described);
    expect(buildPrompt({ jsonSchema: order, text, language: "en" }).prefix).toContain(described);
    expect(describeSchema(draft7, "en")).toBe("- price (number): price in euros");
  });

  it("grounding reads enums, derived marks and required fields through the references", () => {
    const fields = (value: unknown) => groundFields(value, text, { schema: order }).map((f) => [f.pointer, f.status, f.required]);
    expect(fields({ status: "open", shipTo: { city: "Dublin" }, total: 42 })).toEqual([
      ["/status", "inferred", true],
      ["/shipTo/city", "found", true],
      ["/total", "inferred", true],
    ]);
    expect(fields({ status: "open", shipTo: {}, total: 42 })).toEqual([
      ["/status", "inferred", true],
      ["/shipTo/city", "missing", true],
      ["/total", "inferred", true],
    ]);
  });

  it("remote and dangling references (an unknown anchor too) resolve to nothing", () => {
    expect(resolveSchema(order, { $ref: "https://elsewhere.example/x.json" })).toBeUndefined();
    expect(resolveSchema(order, { $ref: "#/$defs/nothing" })).toBeUndefined();
    expect(resolveSchema(order, { $ref: "#nothing" })).toBeUndefined();
  });
});
