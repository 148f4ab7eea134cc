/**
 * The compiler reads keywords through typed schema nodes: a malformed keyword fails with its
 * typed error (code, keyword, message as before the model existed), and only where the compiler
 * reads it.
 */

import { describe, expect, it } from "vitest";
import { SchemaError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";

describe("typed keyword errors while compiling", () => {
  it("judges a keyword only when it is read: the compiler ignores malformed keywords of other types", () => {
    expect(() => compileSchema({ type: "integer", minLength: "long" })).not.toThrow();
    expect(() => compileSchema({ type: "string", minLength: "long" })).toThrow(/minLength must be a non-negative integer/);
  });

  it("compiles to the same typed errors as before the model existed", () => {
    const cases: [unknown, string, string][] = [
      [{ type: "object", required: [1] }, "required", "required must be an array of strings"],
      [{ type: "object", properties: [] }, "properties", "properties must be an object"],
      [{ type: "object", propertyNames: 5 }, "propertyNames", "propertyNames must be a schema"],
      [{ type: "object", propertyNames: { minLength: -2 } }, "minLength", "minLength must be a non-negative integer"],
      [{ type: "number", multipleOf: 0 }, "multipleOf", "multipleOf must be greater than 0"],
      [{ type: "integer", exclusiveMaximum: "3" }, "exclusiveMaximum", "exclusiveMaximum must be a number"],
      [{ type: ["string", 3] }, "type", "unknown type 3"],
      [{ enum: 5 }, "enum", "enum must be an array"],
      [{ oneOf: [] }, "oneOf", "oneOf must be a non-empty array"],
      [{ $ref: 5 }, "$ref", "$ref must be a string"],
      [{ type: "string", format: "email", pattern: 5 }, "pattern", "a pattern must be a string"],
      [{ type: "array", prefixItems: {} }, "prefixItems", "prefixItems must be an array"],
    ];
    for (const [schema, keyword, message] of cases) {
      let error: unknown;
      try {
        compileSchema(schema);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(schema)).toBeInstanceOf(SchemaError);
      expect((error as SchemaError).code).toBe("SCHEMA_INVALID");
      expect((error as SchemaError).keyword).toBe(keyword);
      expect((error as SchemaError).message).toContain(message);
    }
  });
});
