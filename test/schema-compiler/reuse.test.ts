/**
 * A subschema that rewritings merge into several alternatives (siblings distributed over anyOf
 * branches, oneOf made exclusive) keeps its identity in each, and the compiler reuses what it
 * compiled the first time (CompileContext.reuse): one outlined rule instead of one per
 * alternative, with the same language (checked against ajv), the same report and the same
 * unsatisfiable reason as compiling it anew.
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { SchemaError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const OPTIONS = { mode: "jsonschema" } as const;

/** An object value big enough to be outlined as a rule of its own (context.ts, outline). */
const ADDRESS = {
  type: "object",
  properties: { street: { type: "string", maxLength: 8 }, city: { enum: ["x", "y"] }, zip: { type: "integer", minimum: 0 }, country: { const: "fr" } },
  required: ["city"],
  additionalProperties: false,
};

/** Siblings (the address) distributed over three anyOf branches: the address is compiled for each. */
const DISTRIBUTED = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { address: ADDRESS, kind: { enum: ["a", "b", "c"] }, tag: { oneOf: [{ type: "string" }, { type: "integer" }] } },
  required: ["address"],
  anyOf: [{ properties: { kind: { const: "a" } } }, { properties: { kind: { const: "b" } } }, { required: ["tag"] }],
};

const INSTANCES: unknown[] = [
  { address: { city: "x" } },
  { address: { street: "rue", city: "y", zip: 3, country: "fr" }, kind: "a" },
  { address: { city: "x", zip: -1 } },
  { address: { city: "z" }, kind: "b" },
  { address: { street: "too long a street", city: "x" } },
  { address: { city: "x", country: "de" }, kind: "c" },
  { address: { city: "x" }, kind: "c" },
  { address: { city: "x" }, kind: "c", tag: 4 },
  { address: { city: "x" }, kind: "c", tag: "t" },
  { address: { city: "x" }, tag: true },
  { address: { city: "x", extra: 1 }, kind: "a" },
  { kind: "a" },
];

describe("reuse of a subschema compiled in several alternatives", () => {
  it("builds the shared object's rules once", () => {
    const { grammar } = compileSchema(DISTRIBUTED, OPTIONS);
    // Compiled anew for each branch, the zip's rule came three times (value-zip, -2, -3).
    expect([...grammar.rules.keys()].filter((name) => name.startsWith("value-zip"))).toEqual(["value-zip"]);
  });

  it("accepts exactly what ajv accepts", () => {
    const validate = new Ajv2020({ strict: false }).compile(DISTRIBUTED);
    const acc = acceptor(DISTRIBUTED, OPTIONS);
    const verdicts = INSTANCES.map((x) => ({ x, dfa: acc.dfa(JSON.stringify(x)), ref: acc.ref(JSON.stringify(x)) }));
    expect(verdicts).toEqual(INSTANCES.map((x) => ({ x, dfa: validate(x), ref: validate(x) })));
  });

  it("keeps the verdicts recorded on the shared subschema", () => {
    const { report } = compileSchema(DISTRIBUTED, OPTIONS);
    // The tag's branches (string, integer) are disjoint: its oneOf is enforced wherever it was compiled.
    expect(report.enforced).toContainEqual(expect.objectContaining({ keyword: "oneOf", pointer: "/properties/tag" }));
    expect(report.validatedAfter.filter((use) => use.keyword === "oneOf")).toEqual([]);
  });

  it("gives the reason of a shared subschema without instances as a single compile does", () => {
    const properties = { ...DISTRIBUTED.properties, address: { ...ADDRESS, properties: { ...ADDRESS.properties, city: { type: "string", enum: [1] } } } };
    const { anyOf, ...single } = { ...DISTRIBUTED, properties };
    const reason = (schema: unknown): unknown => {
      try {
        compileSchema(schema, OPTIONS);
      } catch (err) {
        if (err instanceof SchemaError) return { code: err.code, message: err.message, keyword: err.keyword, pointer: err.pointer };
        throw err;
      }
      return undefined;
    };
    expect(anyOf).toHaveLength(3);
    expect(reason({ ...single, anyOf })).toEqual(reason(single));
    expect(reason(single)).toMatchObject({ code: "SCHEMA_UNSATISFIABLE", keyword: "required" });
  });
});
