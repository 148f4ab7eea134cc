/**
 * The compile report leaves out the keywords of definitions no reference reaches
 * (src/schema-compiler/reachable.ts): they constrain no instance.
 */

import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { reachableSubschemas } from "../../src/schema-compiler/reachable.js";

const JS = { mode: "jsonschema" } as const;
const after = (schema: unknown): string[] => compileSchema(schema, JS).report.validatedAfter.map((u) => `${u.pointer} ${u.keyword}`);

/** A definition whose uniqueItems the grammar cannot enforce (bounded strings: the matcher
 *  keeps only unbounded ones distinct). */
const UNIQUE = { type: "array", items: { type: "string", maxLength: 8 }, uniqueItems: true };

describe("report: unreferenced definitions", () => {
  it("an unsupported keyword in a definition nothing references is not reported; referenced, it is", () => {
    expect(after({ type: "object", properties: { a: { type: "integer" } }, definitions: { tags: UNIQUE } })).toEqual([]);
    expect(after({ type: "object", properties: { a: { $ref: "#/definitions/tags" } }, definitions: { tags: UNIQUE } })).toEqual(["/definitions/tags uniqueItems"]);
    // Reached only through another definition that is referenced.
    const chained = { type: "object", properties: { a: { $ref: "#/$defs/outer" } }, $defs: { outer: { type: "object", properties: { t: { $ref: "#/$defs/tags" } } }, tags: UNIQUE, unused: UNIQUE } };
    expect(after(chained)).toEqual(["/$defs/tags uniqueItems"]);
  });

  it("follows escaped and percent-encoded pointers and the root", () => {
    const schema = { anyOf: [{ $ref: "#/definitions/a~1b" }, { $ref: "#/definitions/c%20d" }, { type: "object", properties: { self: { $ref: "#" } } }], definitions: { "a/b": { ...UNIQUE }, "c d": { type: "integer" }, e: { ...UNIQUE } } };
    const reached = reachableSubschemas(schema)!;
    expect(reached.has(schema.definitions["a/b"])).toBe(true);
    expect(reached.has(schema.definitions["c d"])).toBe(true);
    expect(reached.has(schema.definitions.e)).toBe(false);
  });

  it("stays undecided (reports everything) when a reference is not a local pointer or a subschema has its own $id", () => {
    expect(reachableSubschemas({ properties: { a: { $ref: "#anchor" } }, $defs: { x: { $anchor: "anchor" } } })).toBeUndefined();
    expect(reachableSubschemas({ properties: { a: { $id: "other.json", $ref: "#/definitions/x" } } })).toBeUndefined();
    expect(reachableSubschemas({ properties: { a: { $ref: "#/definitions/missing" } } })).toBeUndefined();
  });
});
