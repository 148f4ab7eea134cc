/**
 * Recursive `$ref`s where merging would have to inline them forever (compile.ts): an `allOf`
 * whose one asserting branch is the whole schema, and an anyOf/oneOf whose only sibling is a
 * `type` every branch implies, compile their branches as written (a `$ref` stays a rule). Each
 * grammar must accept exactly what ajv accepts; a sibling `type` a branch does not imply must
 * still be applied to it.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const JS = { mode: "jsonschema" } as const;
const ajv = new Ajv2020({ strict: false });

/** Compiles `schema` with nothing checked after decoding, and compares it with ajv on `instances`. */
function expectAsAjv(schema: object, instances: readonly unknown[]): void {
  expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
  const acc = acceptor(schema, JS);
  const valid = ajv.compile(schema);
  for (const x of instances) {
    const text = JSON.stringify(x);
    expect({ text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ text, dfa: valid(x), ref: valid(x) });
  }
}

const MENU = {
  $defs: {
    item: {
      type: "object",
      properties: { label: { type: "string" }, children: { type: "array", items: { allOf: [{ $ref: "#/$defs/item" }], description: "a sub-item" } } },
      required: ["label"],
      additionalProperties: false,
    },
  },
  $ref: "#/$defs/item",
};

/** A node's kids are nodes or leaves, through an inline oneOf (not a `$ref` to a shared rule). */
const KIDS = { type: "object", oneOf: [{ $ref: "#/$defs/node" }, { $ref: "#/$defs/leaf" }] };
const TREE = {
  $defs: {
    node: { type: "object", properties: { kids: { type: "array", items: KIDS } }, required: ["kids"], additionalProperties: false },
    leaf: { type: "object", properties: { v: { type: "integer" } }, required: ["v"], additionalProperties: false },
  },
  ...KIDS,
};

describe("recursive $ref branches compiled as written", () => {
  it("an allOf with one asserting branch is that branch", () => {
    expectAsAjv(MENU, [
      { label: "a" },
      { label: "a", children: [] },
      { label: "a", children: [{ label: "b", children: [{ label: "c" }] }] },
      { label: "a", children: [{ children: [] }] },
      { label: "a", children: [{ label: "b", x: 1 }] },
      { label: "a", children: [1] },
    ]);
  });

  it("anyOf/oneOf siblings that only repeat the branches' type are not merged into them", () => {
    expectAsAjv(TREE, [{ v: 1 }, { kids: [] }, { kids: [{ v: 2 }, { kids: [{ v: 3 }] }] }, { kids: [{ v: 1.5 }] }, { kids: [{ kids: [], v: 1 }] }, { kids: [[]] }, "x", { v: 1, kids: [] }]);
    expectAsAjv({ $defs: TREE.$defs, type: "object", anyOf: [{ $ref: "#/$defs/node" }, { $ref: "#/$defs/leaf" }] }, [{ v: 1 }, { kids: [{ v: 2 }] }, { kids: [{ w: 2 }] }, 3]);
  });

  it("a sibling type a branch does not imply still applies to it", () => {
    const defs = { $defs: { anything: {}, positive: { type: "number", minimum: 0 } } };
    expectAsAjv({ ...defs, type: "string", anyOf: [{ $ref: "#/$defs/anything" }] }, ["a", 1, null, {}]);
    expectAsAjv({ ...defs, type: "integer", oneOf: [{ $ref: "#/$defs/positive" }] }, [1, 1.5, -1, "a"]);
    expectAsAjv({ ...defs, type: ["object", "string"], anyOf: [{ $ref: "#/$defs/positive" }, { type: "string" }] }, [1, "a", null]);
  });
});
