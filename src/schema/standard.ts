/**
 * Standard Schema input (https://standardschema.dev): any schema library exposing `~standard`
 * (valibot, arktype, zod, ...). Two jobs: turn the schema into JSON Schema for the grammar, and
 * run the schema's own `~standard.validate` after decoding (its refinements, transforms and
 * output type), shaped like the zod `safeParse` the validator already takes. JSON Schema comes
 * from the Standard JSON Schema interface (`~standard.jsonSchema`, e.g. arktype) when the schema
 * has it, else from the vendor's converter: valibot's is `@valibot/to-json-schema`, an optional
 * peer dependency loaded only when a valibot schema arrives.
 */
import { createRequire } from "node:module";
import { SchemaError } from "../errors.js";
import type { ZodLike } from "./zod-like.js";
import type { JsonSchema } from "./types.js";

type PathSegment = PropertyKey | { readonly key: PropertyKey };
type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly PathSegment[] }[] };

/** The part of a Standard Schema (v1) this package uses. */
export interface StandardSchemaLike {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
    readonly jsonSchema?: { output(options: { readonly target: string }): Record<string, unknown> };
  };
}

export function isStandardSchema(input: unknown): input is StandardSchemaLike {
  if ((typeof input !== "object" && typeof input !== "function") || input === null) return false;
  const std = (input as { "~standard"?: unknown })["~standard"];
  return typeof std === "object" && std !== null && typeof (std as { validate?: unknown }).validate === "function";
}

export function standardToJsonSchema(schema: StandardSchemaLike): JsonSchema {
  const std = schema["~standard"];
  const convert = typeof std.jsonSchema?.output === "function" ? () => std.jsonSchema!.output({ target: "draft-2020-12" }) : vendorConverter(schema);
  try {
    return convert() as JsonSchema;
  } catch (err) {
    if (err instanceof SchemaError) throw err;
    throw new SchemaError("SCHEMA_UNSUPPORTED", `the ${std.vendor} schema cannot be expressed as JSON Schema: ${(err as Error).message}`, { pointer: "" }, { cause: err });
  }
}

/** The schema's own validation in the `safeParse` shape the verifier runs after ajv. Only synchronous validation is supported: the
 *  verifier runs in one synchronous pass after decoding. */
export function standardParser<Out>(schema: StandardSchemaLike): ZodLike<Out> {
  return {
    issueSource: "schema",
    safeParse(data) {
      const result = schema["~standard"].validate(data);
      if (result instanceof Promise) {
        throw new SchemaError(
          "SCHEMA_UNSUPPORTED",
          `the ${schema["~standard"].vendor} schema validates asynchronously (an async refinement or transform); pocket-extract validates synchronously after decoding: make the schema synchronous`,
          { pointer: "" },
        );
      }
      if (!result.issues) return { success: true, data: result.value as Out };
      const issues = result.issues.map((i) => ({ message: i.message, path: (i.path ?? []).map((s) => (typeof s === "object" ? s.key : s)) }));
      return { success: false, error: { issues } };
    },
  };
}

const VENDOR_CONVERTERS: Readonly<Record<string, { readonly pkg: string; readonly call: (mod: Record<string, unknown>, schema: unknown) => unknown }>> = {
  // The input side of pipelines (the model writes the input; transforms run after decoding), and
  // actions JSON Schema cannot say (v.check, v.toUpperCase, ...) left to the schema's own
  // validation after decoding, the way zod refinements are.
  valibot: {
    pkg: "@valibot/to-json-schema",
    call: (mod, schema) =>
      (mod.toJsonSchema as (s: unknown, o: object) => unknown)(schema, {
        errorMode: "throw",
        target: "draft-2020-12",
        typeMode: "input",
        overrideAction: (c: { valibotAction: { kind: string }; jsonSchema: object; errors?: unknown }) =>
          c.errors && c.valibotAction.kind !== "metadata" ? c.jsonSchema : undefined,
      }),
  },
};

function vendorConverter(schema: StandardSchemaLike): () => unknown {
  const vendor = schema["~standard"].vendor;
  const converter = VENDOR_CONVERTERS[vendor];
  if (!converter) {
    throw new SchemaError(
      "SCHEMA_UNSUPPORTED",
      `a ${vendor} schema (Standard Schema) without a JSON Schema converter: pocket-extract needs JSON Schema for the grammar; use a library that implements Standard JSON Schema (~standard.jsonSchema), or pass the JSON Schema with jsonSchema<T>()`,
      { pointer: "" },
    );
  }
  let mod: Record<string, unknown>;
  try {
    mod = createRequire(import.meta.url)(converter.pkg) as Record<string, unknown>;
  } catch (err) {
    throw new SchemaError(
      "SCHEMA_UNSUPPORTED",
      `a ${vendor} schema needs the package ${converter.pkg} (an optional peer dependency of pocket-extract) to become JSON Schema: \`npm install ${converter.pkg}\``,
      { pointer: "" },
      { cause: err },
    );
  }
  return () => converter.call(mod, schema);
}

/** The schema's own validation, run after ajv: zod's `safeParse`, a Standard Schema's
 *  `~standard.validate`; undefined for a plain JSON Schema (ajv is its whole validation). */
export function ownValidation<Out>(schema: unknown): ZodLike<Out> | undefined {
  if (typeof schema === "object" && schema !== null && typeof (schema as { safeParse?: unknown }).safeParse === "function") return schema as ZodLike<Out>;
  return isStandardSchema(schema) ? standardParser<Out>(schema) : undefined;
}
