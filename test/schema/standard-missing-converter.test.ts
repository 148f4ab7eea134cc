/**
 * A valibot schema on an install without @valibot/to-json-schema (an optional peer): a typed
 * error naming the package to install. The package's absence is simulated by making `require`
 * refuse that one name (unit isolation: it is installed here as a devDependency).
 */
import type * as nodeModule from "node:module";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";

vi.mock("node:module", async (importOriginal) => {
  const real = await importOriginal<typeof nodeModule>();
  const createRequire = (from: string | URL) => {
    const req = real.createRequire(from);
    return Object.assign((id: string) => {
      if (id === "@valibot/to-json-schema") throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
      return req(id);
    }, req);
  };
  return { ...real, createRequire, default: { ...real, createRequire } };
});

describe("valibot without its JSON Schema converter", () => {
  it("is SCHEMA_UNSUPPORTED naming the package and the install command", async () => {
    const { toJsonSchema } = await import("../../src/schema/index.js");
    const { SchemaError } = await import("../../src/errors.js");
    let err: unknown;
    try {
      toJsonSchema(v.object({ name: v.string() }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SchemaError);
    expect(err).toMatchObject({ code: "SCHEMA_UNSUPPORTED", message: expect.stringContaining("npm install @valibot/to-json-schema") });
    expect((err as Error).cause).toMatchObject({ code: "MODULE_NOT_FOUND" });
  });
});
