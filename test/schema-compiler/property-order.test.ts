/**
 * The key order the grammar fixes with `propertyOrder: "declared"` (README, "Property order",
 * llguidance's documented order): `properties` in order of appearance, then `required` names not
 * among them; `allOf` branches, a `$ref` target and `anyOf` branches merged with the schema's own
 * properties left to right in the order the keywords are written; additional keys last.
 * (propertyOrder "any" is tested in any-order.test.ts.)
 */

import { describe, expect, it } from "vitest";
import { acceptor } from "./support/accept.js";

const JS = { mode: "jsonschema", propertyOrder: "declared" } as const;
const str = { type: "string" };

function accepts(schema: unknown, ...texts: string[]): boolean[] {
  const acc = acceptor(schema, JS);
  return texts.map((t) => {
    const viaDfa = acc.dfa(t);
    expect(acc.ref(t), t).toBe(viaDfa);
    return viaDfa;
  });
}

describe("property order", () => {
  it("properties in order of appearance, then required names not declared, then additional keys", () => {
    const schema = { type: "object", properties: { b: str, a: str }, required: ["c", "a"] };
    expect(accepts(schema, '{"b":"1","a":"2","c":3,"z":4}', '{"a":"2","b":"1","c":3}', '{"b":"1","c":3,"a":"2"}', '{"a":"2","z":4,"c":3}')).toEqual([true, false, false, false]);
  });

  it("allOf written before the schema's own properties puts its properties first", () => {
    const before = { allOf: [{ properties: { x: str } }], properties: { y: str }, required: ["x", "y"] };
    const after = { properties: { y: str }, required: ["x", "y"], allOf: [{ properties: { x: str } }] };
    expect(accepts(before, '{"x":"1","y":"2"}', '{"y":"2","x":"1"}')).toEqual([true, false]);
    expect(accepts(after, '{"x":"1","y":"2"}', '{"y":"2","x":"1"}')).toEqual([false, true]);
  });

  it("allOf branches merge left to right", () => {
    const schema = { allOf: [{ properties: { p: str }, required: ["p"] }, { properties: { q: str }, required: ["q"] }] };
    expect(accepts(schema, '{"p":"1","q":"2"}', '{"q":"2","p":"1"}')).toEqual([true, false]);
  });

  it("a $ref beside properties brings its target's properties where it is written", () => {
    const $defs = { base: { properties: { id: str }, required: ["id"] } };
    const refFirst = { $schema: "https://json-schema.org/draft/2020-12/schema", $defs, $ref: "#/$defs/base", properties: { name: str }, required: ["name"] };
    const refLast = { $schema: "https://json-schema.org/draft/2020-12/schema", $defs, properties: { name: str }, required: ["name"], $ref: "#/$defs/base" };
    expect(accepts(refFirst, '{"id":"1","name":"n"}', '{"name":"n","id":"1"}')).toEqual([true, false]);
    expect(accepts(refLast, '{"id":"1","name":"n"}', '{"name":"n","id":"1"}')).toEqual([false, true]);
  });
});
