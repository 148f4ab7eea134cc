/**
 * Validation of an extracted value: ajv against the JSON Schema (structure, formats, bounds),
 * then zod's `safeParse` for what JSON Schema cannot say (refinements, transforms). The typed
 * `data` is zod's output when a zod schema is given. Every issue carries a path.
 *
 * Ajv validators are compiled once per schema object (WeakMap by identity): extractors reuse
 * one schema object for thousands of documents. The draft is chosen from `$schema`
 * (draft-07, 2019-09, 2020-12; 2020-12 when absent, which is what zod v4 emits).
 */
import { _, Ajv, str, type ErrorObject, type FuncKeywordDefinition, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { SchemaError } from "../errors.js";
import { unicodeModeSource } from "../regex/index.js";
import type { JsonSchema, JsonSchemaObject, ZodLike } from "../schema/index.js";
import { fromPointer, isDecimalMultiple, toPointer } from "../util/index.js";
import type { Issue } from "./types.js";

export type { ZodLike, ZodSafeParse } from "../schema/index.js";

export interface ValidationResult<T> {
  readonly ok: boolean;
  /** zod's output (or the value itself without a zod schema) when ok, else null. */
  readonly data: T | null;
  readonly issues: Issue[];
}

type Draft = "07" | "2019" | "2020";
type AjvInstance = InstanceType<typeof Ajv>;

// ajv-formats is CommonJS; depending on the loader the plugin is the default export or its
// `default` property.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/** Per draft, and whether evaluated properties/items are tracked (see tracksEvaluated). */
const instances = new Map<string, AjvInstance>();
const compiled = new WeakMap<object, ValidateFunction>();
const booleanSchemas = new Map<boolean, ValidateFunction>();

function draftOf(schema: JsonSchema): Draft {
  const uri = typeof schema === "object" && typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("2019-09")) return "2019";
  if (/draft-0[467]/.test(uri)) return "07";
  return "2020";
}

/**
 * `multipleOf` decided on decimals (util/decimal.ts), as JSON text means it and as the grammar
 * writes it: ajv's own test divides doubles (0.07 / 0.01 is 7.000000000000001, so 0.07 would
 * fail multipleOf 0.01), and its multipleOfPrecision option only rounds that quotient.
 */
const EXACT_MULTIPLE_OF: FuncKeywordDefinition = {
  keyword: "multipleOf",
  type: "number",
  schemaType: "number",
  errors: false,
  error: { message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`, params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}` },
  validate: (divisor: number, value: number) => Number.isFinite(value) && isDecimalMultiple(value, divisor),
};

/**
 * Patterns as the grammar reads them: in Unicode mode, a pattern valid only without the u flag
 * rewritten where every regex dialect agrees on it (regex/unicode-mode.ts), so `\:` or `\_`
 * compile here as they do in Python's and Rust's validators; ajv's own `new RegExp(p, "u")`
 * would refuse the whole schema. `code` names the function in ajv's standalone output (unused).
 */
const unicodeModeRegExp = Object.assign((source: string, flags: string): RegExp => new RegExp(unicodeModeSource(source), flags), {
  code: "unicodeModeRegExp",
});

/**
 * Whether the schema needs ajv to track which properties and items were evaluated: only
 * `unevaluatedProperties`/`unevaluatedItems` read it. Conservative (any mention of the word).
 */
function tracksEvaluated(schema: JsonSchema): boolean {
  return typeof schema === "object" && JSON.stringify(schema).includes('"unevaluated');
}

function ajvFor(draft: Draft, evaluated: boolean): AjvInstance {
  const key = `${draft}${evaluated ? "+evaluated" : ""}`;
  let ajv = instances.get(key);
  if (!ajv) {
    // addUsedSchema: false so that two schemas sharing an $id do not collide in the instance.
    const opts = { strict: false, allErrors: true, addUsedSchema: false, code: { regExp: unicodeModeRegExp } } as const;
    ajv = draft === "2020" ? new Ajv2020(opts) : draft === "2019" ? new Ajv2019(opts) : new Ajv(opts);
    // Ajv2019/2020 always track evaluated properties, and ajv 8.20's tracking throws a TypeError
    // ("Cannot set properties of undefined") when an `if` clause with `properties` did not run
    // and patternProperties/additionalProperties beside it then mark a key. The tracking only
    // serves unevaluated*, so schemas without them are compiled without it (ajv reads the option
    // at compile time; the constructor gives no other way to turn it off).
    if (!evaluated) (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
    ajv.removeKeyword("multipleOf");
    ajv.addKeyword(EXACT_MULTIPLE_OF);
    addFormats(ajv);
    instances.set(key, ajv);
  }
  return ajv;
}

// Base URI of schemas without their own (see compileValidator). Nothing is registered under it
// (addUsedSchema: false), so every such schema can share it.
const PRIVATE_BASE = "pocket-extract://schema";

/** A root `$id` ajv takes as a base URI: "" and bare fragments ("#", "#/") do not count. */
function hasBaseUri(schema: { readonly $id?: unknown }): boolean {
  return typeof schema.$id === "string" && schema.$id.replace(/#\/?$/, "") !== "";
}

/** Returns the (cached) ajv validator for a schema; throws SchemaError SCHEMA_INVALID. */
export function compileValidator(schema: JsonSchema): ValidateFunction {
  const hit = typeof schema === "boolean" ? booleanSchemas.get(schema) : compiled.get(schema);
  if (hit) return hit;
  const draft = draftOf(schema);
  let target: JsonSchema = schema;
  if (typeof schema === "object") {
    let root: JsonSchemaObject = schema;
    // draft-04/06 meta-schemas are not bundled with ajv 8; their keywords are validated with the
    // draft-07 vocabulary instead of failing on the unknown `$schema`.
    if (typeof schema.$schema === "string" && /draft-0[46]/.test(schema.$schema)) {
      const { $schema: _dropped, ...rest } = schema;
      root = rest;
    }
    // ajv compiles `"$ref": "#"` (zod's recursion into the root) as a call to the root only when
    // the root has a base URI; an id-less root is looked up in ajv's registry instead, where
    // addUsedSchema: false never puts it ("can't resolve reference # from id #").
    if (!hasBaseUri(schema)) root = { ...root, $id: PRIVATE_BASE };
    target = root;
  }
  let fn: ValidateFunction;
  try {
    fn = ajvFor(draft, tracksEvaluated(schema)).compile(target);
  } catch (err) {
    throw new SchemaError("SCHEMA_INVALID", `JSON Schema does not compile: ${(err as Error).message}`, { pointer: "" }, { cause: err });
  }
  if (typeof schema === "boolean") booleanSchemas.set(schema, fn);
  else compiled.set(schema, fn);
  return fn;
}

function ajvIssue(e: ErrorObject, value: unknown): Issue {
  // Point `required` / `additionalProperties` errors at the property itself, not its parent, so
  // the issue lands on the field the user will look at.
  let pointer = e.instancePath;
  const params = e.params as { missingProperty?: unknown; additionalProperty?: unknown };
  const extra = e.keyword === "required" ? params.missingProperty : e.keyword === "additionalProperties" ? params.additionalProperty : undefined;
  if (typeof extra === "string") pointer += toPointer([extra]);
  const path = fromPointer(pointer, value);
  return { path, pointer: toPointer(path), message: e.message ?? e.keyword, source: "ajv" };
}

/**
 * A copy of `value` whose objects have no prototype. Ajv reads properties as `data[key]`: on a
 * plain object an absent "__proto__" (or "constructor", "toString") reads Object.prototype's
 * member, so an absent property would look present. Iterative, so the output's depth costs no stack.
 */
function withoutPrototypes(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const copy = (v: object): object => (Array.isArray(v) ? new Array<unknown>(v.length) : Object.create(null));
  const root = copy(value);
  const pending: [Record<string, unknown>, Record<string, unknown>][] = [[value as Record<string, unknown>, root as Record<string, unknown>]];
  while (pending.length > 0) {
    const [from, to] = pending.pop()!;
    for (const key of Object.keys(from)) {
      const v = from[key];
      if (v !== null && typeof v === "object") {
        const c = copy(v) as Record<string, unknown>;
        pending.push([v as Record<string, unknown>, c]);
        Object.defineProperty(to, key, { value: c, writable: true, enumerable: true, configurable: true });
      } else Object.defineProperty(to, key, { value: v, writable: true, enumerable: true, configurable: true });
    }
  }
  return root;
}

/**
 * Runs an ajv validator; an exception from ajv's generated code (a bug of ajv's on some keyword
 * combination, seen with unevaluated* tracking) becomes a SchemaError saying what failed and
 * what to do, never a raw TypeError out of validate().
 */
function runValidator(fn: ValidateFunction, value: unknown): boolean {
  try {
    return fn(value);
  } catch (err) {
    throw new SchemaError(
      "SCHEMA_UNSUPPORTED",
      `the JSON Schema validator (ajv) failed while checking a value against this schema (${(err as Error).message}); ` +
        "it cannot be validated as written: simplify the keywords around unevaluatedProperties/unevaluatedItems and if/then/else, or validate without them",
      { pointer: "" },
      { cause: err },
    );
  }
}

/** Validates with ajv, then zod. Zod issues at a pointer ajv already reported are dropped as
 *  duplicates (the same type error seen twice). */
export function validate<T = unknown>(value: unknown, jsonSchema: JsonSchema, zodSchema?: ZodLike<T>): ValidationResult<T> {
  const fn = compileValidator(jsonSchema);
  const issues: Issue[] = [];
  if (!runValidator(fn, withoutPrototypes(value))) for (const e of fn.errors ?? []) issues.push(ajvIssue(e, value));
  let data: T | null = issues.length === 0 ? (value as T) : null;
  if (zodSchema) {
    const r = zodSchema.safeParse(value);
    if (r.success) {
      if (issues.length === 0) data = r.data;
    } else {
      data = null;
      const seen = new Set(issues.map((i) => i.pointer));
      for (const zi of r.error.issues) {
        const path = zi.path.map((k) => (typeof k === "number" ? k : String(k)));
        const pointer = toPointer(path);
        if (!seen.has(pointer)) issues.push({ path, pointer, message: zi.message, source: zodSchema.issueSource ?? "zod" });
      }
    }
  }
  return { ok: issues.length === 0, data: issues.length === 0 ? data : null, issues };
}
