/**
 * Walks an extracted value alongside its JSON Schema and lists its leaves: every scalar (arrays
 * indexed), every property the schema declares but the value lacks, and every empty array or
 * object. Each leaf carries what grounding needs from the schema: the sub-schema, whether the
 * schema demands a value there (required and not nullable), and whether it is derived.
 *
 * Schema resolution is deliberately shallow: `$ref`s (resolved as the compiler resolves them,
 * see schema-nav.ts), `anyOf`/`oneOf` (the first branch whose type admits the value), `allOf`
 * (properties looked up in every member). Anything else only loses annotations (enum, derived),
 * never leaves.
 */
import type { JsonSchema, JsonSchemaObject } from "../schema/index.js";
import { isRecord } from "../util/index.js";
import { toPointer } from "../util/index.js";
import { isNullType, resolveSchema as resolve, unionBranches } from "./schema-nav.js";

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

/** Narrows a schema to the branch that describes `v` (the first branch admitting its type, its
 *  own unions narrowed in turn). */
function branchFor(root: JsonSchema | undefined, s: Obj | undefined, v: unknown): Obj | undefined {
  const t = jsonType(v);
  let here = s;
  for (let branches = here && unionBranches(here); here && branches; branches = unionBranches(here)) {
    const outer: Obj = here;
    const match = branches.map((b) => resolve(root, b)).find((r) => r && admitsType(r, t) && !(t !== "null" && r.type === "null"));
    if (!match) return here;
    const { anyOf: _a, oneOf: _o, ...rest } = outer;
    here = { ...rest, ...match };
  }
  return here;
}

/** Whether `s` admits null. `memo` holds the answer per raw branch schema: branches shared
 *  through `$ref` are decided once, so a chain of unions sharing their targets stays linear
 *  (a reference cycle counts as not admitting null). */
function admitsNull(root: JsonSchema | undefined, s: Obj | undefined, memo: WeakMap<object, boolean>): boolean {
  if (!s) return true;
  // A schema that constrains neither type nor values ({} or a bare description) admits null.
  if (s.type === undefined && s.enum === undefined && !("const" in s) && !unionBranches(s)) return true;
  if (isNullType(s)) return true;
  return (unionBranches(s) ?? []).some((b) => {
    if (!isRecord(b)) return admitsNull(root, resolve(root, b), memo);
    let known = memo.get(b);
    if (known === undefined) {
      memo.set(b, false);
      known = admitsNull(root, resolve(root, b), memo);
      memo.set(b, known);
    }
    return known;
  });
}

/** `s` and every `allOf` member below it, each raw member once (shared members are not
 *  repeated, so `allOf` chains sharing their targets stay linear). */
function members(root: JsonSchema | undefined, s: Obj): Obj[] {
  const all: Obj[] = [];
  const seen = new Set<unknown>();
  const pending: Obj[] = [s];
  while (pending.length > 0) {
    const m = pending.pop()!;
    all.push(m);
    if (!Array.isArray(m.allOf)) continue;
    for (let i = m.allOf.length - 1; i >= 0; i--) {
      const raw: unknown = m.allOf[i];
      if (seen.has(raw)) continue;
      seen.add(raw);
      const r = resolve(root, raw);
      if (r) pending.push(r);
    }
  }
  return all;
}

function propertySchema(root: JsonSchema | undefined, ms: readonly Obj[], key: string): Obj | undefined {
  for (const m of ms) {
    if (isRecord(m.properties) && Object.prototype.hasOwnProperty.call(m.properties, key)) return resolve(root, m.properties[key]);
  }
  for (const m of ms) if (isRecord(m.additionalProperties)) return resolve(root, m.additionalProperties);
  return undefined;
}

function requiredKeys(ms: readonly Obj[]): Set<string> {
  const keys = new Set<string>();
  for (const m of ms) if (Array.isArray(m.required)) for (const k of m.required) if (typeof k === "string") keys.add(k);
  return keys;
}

function declaredKeys(ms: readonly Obj[]): Set<string> {
  const keys = new Set<string>();
  for (const m of ms) if (isRecord(m.properties)) for (const k of Object.keys(m.properties)) keys.add(k);
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
  return isRecord(a) && a.derived === true;
}

/** Lists the leaves of `value` in document order (value's keys first, then absent declared keys). */
export function collectLeaves(value: unknown, schema?: JsonSchema): Leaf[] {
  const out: Leaf[] = [];
  const nullMemo = new WeakMap<object, boolean>();
  const visit = (v: unknown, s: Obj | undefined, path: (string | number)[], required: boolean, derived: boolean): void => {
    const here = branchFor(schema, s, v);
    const d = derived || isDerived(here);
    const leaf = (): void => {
      out.push({ path, pointer: toPointer(path), value: v, schema: here, required: required && !admitsNull(schema, s, nullMemo), derived: d });
    };
    if (Array.isArray(v)) {
      if (v.length === 0) return leaf();
      v.forEach((item, i) => visit(item, itemSchema(schema, here, i), [...path, i], true, d));
      return;
    }
    if (isRecord(v)) {
      const ms = here ? members(schema, here) : [];
      const req = requiredKeys(ms);
      const keys = new Set(Object.keys(v));
      for (const k of declaredKeys(ms)) keys.add(k);
      if (keys.size === 0) return leaf();
      for (const k of keys) visit(Object.prototype.hasOwnProperty.call(v, k) ? v[k] : undefined, propertySchema(schema, ms, k), [...path, k], req.has(k), d);
      return;
    }
    leaf();
  };
  visit(value, resolve(schema, schema), [], true, false);
  return out;
}
