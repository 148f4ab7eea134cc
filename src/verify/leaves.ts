/**
 * Walks an extracted value alongside its JSON Schema and lists its leaves: every scalar (arrays
 * indexed), every property the schema declares but the value lacks, and every empty array or
 * object. Each leaf carries what grounding needs from the schema: the sub-schema, whether the
 * schema demands a value there (required and not nullable), and whether it is derived.
 *
 * Schema resolution is deliberately shallow: local `$ref`s ("#/$defs/X", "#/definitions/X"),
 * `anyOf`/`oneOf` (the first branch whose type admits the value), `allOf` (properties looked up in
 * every member). Anything else only loses annotations (enum, derived), never leaves.
 */
import { toPointer } from "./pointer.js";
import { isNullType, isSchemaObject as isObj, resolveSchema as resolve, unionBranches } from "./schema-nav.js";
import type { JsonSchema, JsonSchemaObject } from "./types.js";

/** The annotation key for pocket-extract's own schema annotations. `{"x-pocket": {"derived":
 *  true}}` marks a value that is computed from the text rather than written in it (a total, a
 *  category): grounding reports it as `inferred`. Zod: `.meta({ "x-pocket": { derived: true } })`. */
export const ANNOTATION_KEY = "x-pocket";

export interface Leaf {
  readonly path: (string | number)[];
  readonly pointer: string;
  readonly value: unknown;
  readonly schema: JsonSchemaObject | undefined;
  readonly required: boolean;
  readonly derived: boolean;
}

type Obj = JsonSchemaObject;

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function admitsType(s: Obj, t: string): boolean {
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (!types) return true;
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

/** Narrows a schema to the branch that describes `v`. */
function branchFor(root: JsonSchema | undefined, s: Obj | undefined, v: unknown): Obj | undefined {
  if (!s) return undefined;
  const branches = unionBranches(s);
  if (!branches) return s;
  const t = jsonType(v);
  for (const b of branches) {
    const r = resolve(root, b);
    if (r && admitsType(r, t) && !(t !== "null" && r.type === "null")) {
      const { anyOf: _a, oneOf: _o, ...outer } = s;
      return branchFor(root, { ...outer, ...r }, v);
    }
  }
  return s;
}

export function admitsNull(root: JsonSchema | undefined, s: Obj | undefined): boolean {
  if (!s) return true;
  // A schema that constrains neither type nor values ({} or a bare description) admits null.
  if (s.type === undefined && s.enum === undefined && !("const" in s) && !unionBranches(s)) return true;
  if (isNullType(s)) return true;
  return (unionBranches(s) ?? []).some((b) => admitsNull(root, resolve(root, b)));
}

function members(root: JsonSchema | undefined, s: Obj): Obj[] {
  const all: Obj[] = [s];
  if (Array.isArray(s.allOf)) for (const m of s.allOf) {
    const r = resolve(root, m);
    if (r) all.push(...members(root, r));
  }
  return all;
}

function propertySchema(root: JsonSchema | undefined, s: Obj | undefined, key: string): Obj | undefined {
  if (!s) return undefined;
  for (const m of members(root, s)) {
    if (isObj(m.properties) && key in m.properties) return resolve(root, m.properties[key]);
  }
  for (const m of members(root, s)) if (isObj(m.additionalProperties)) return resolve(root, m.additionalProperties);
  return undefined;
}

function requiredKeys(root: JsonSchema | undefined, s: Obj | undefined): Set<string> {
  const keys = new Set<string>();
  if (s) for (const m of members(root, s)) if (Array.isArray(m.required)) for (const k of m.required) if (typeof k === "string") keys.add(k);
  return keys;
}

function declaredKeys(root: JsonSchema | undefined, s: Obj | undefined): string[] {
  const keys: string[] = [];
  if (s) for (const m of members(root, s)) if (isObj(m.properties)) for (const k of Object.keys(m.properties)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

function itemSchema(root: JsonSchema | undefined, s: Obj | undefined, i: number): Obj | undefined {
  if (!s) return undefined;
  // 2020-12 tuples use prefixItems + items; draft-07 tuples use an items array.
  if (Array.isArray(s.prefixItems) && i < s.prefixItems.length) return resolve(root, s.prefixItems[i]);
  if (Array.isArray(s.items)) return i < s.items.length ? resolve(root, s.items[i]) : resolve(root, s.additionalItems);
  return resolve(root, s.items);
}

export function isDerived(s: Obj | undefined): boolean {
  const a = s?.[ANNOTATION_KEY];
  return isObj(a) && a.derived === true;
}

/** Lists the leaves of `value` in document order (value's keys first, then absent declared keys). */
export function collectLeaves(value: unknown, schema?: JsonSchema): Leaf[] {
  const out: Leaf[] = [];
  const visit = (v: unknown, s: Obj | undefined, path: (string | number)[], required: boolean, derived: boolean): void => {
    const here = branchFor(schema, s, v);
    const d = derived || isDerived(here);
    const leaf = (): void => {
      out.push({ path, pointer: toPointer(path), value: v, schema: here, required: required && !admitsNull(schema, s), derived: d });
    };
    if (Array.isArray(v)) {
      if (v.length === 0) return leaf();
      v.forEach((item, i) => visit(item, itemSchema(schema, here, i), [...path, i], true, d));
      return;
    }
    if (isObj(v)) {
      const req = requiredKeys(schema, here);
      const keys = Object.keys(v);
      for (const k of declaredKeys(schema, here)) if (!keys.includes(k)) keys.push(k);
      if (keys.length === 0) return leaf();
      for (const k of keys) visit(v[k], propertySchema(schema, here, k), [...path, k], req.has(k), d);
      return;
    }
    leaf();
  };
  visit(value, resolve(schema, schema), [], true, false);
  return out;
}
