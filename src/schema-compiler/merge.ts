/**
 * `allOf` by merging: two schemas become one whose instances are those both accept, keyword by
 * keyword (types intersect, bounds tighten, properties merge with their counterparts, enums
 * intersect, anyOf lists multiply out, `not a` and `not b` become `not (a or b)`). Where two values
 * cannot become one constraint (two different patterns, formats or `contains`, two
 * validated-after keywords) the first is kept in the grammar and the second is reported as
 * checked after decoding. Object shapes that cannot be merged exactly (additionalProperties on
 * one side, patternProperties on the other) are rejected with SCHEMA_UNSUPPORTED naming allOf.
 */

import { SchemaError } from "../errors.js";
import { isAnnotationKeyword, isRecord, jsonEqual, keywordSpec, keywordsWhere, normalizeNode, SchemaNode, type JsonSchema } from "../schema/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { bothPatterns, checkPattern, testPattern } from "./patterns.js";

type Mutable = { [k: string]: unknown };
const NO_SCHEMAS: ReadonlyMap<string, unknown> = new Map();
/** The keywords merged as an object shape, and as an array shape (mergeObjects, mergeArrays). */
const OBJECT_SHAPE = keywordsWhere((s) => s.merge === "shape" && s.instance === "object");
const ARRAY_SHAPE = keywordsWhere((s) => s.merge === "shape" && s.instance === "array");

/** `not: a` and `not: b` as one `not`: the instances of either (two enums become one, which keeps a
 *  string exclusion in the form the string compiler applies, see negate.ts). */
function either(a: unknown, b: unknown): unknown {
  const ea = enumOnly(a);
  const eb = enumOnly(b);
  if (ea !== undefined && eb !== undefined) return { enum: [...ea, ...eb.filter((v) => !ea.some((w) => jsonEqual(v, w)))] };
  return { anyOf: [a, b] };
}

/** The values of a schema that is an `enum` or `const` and nothing else. */
export function enumOnly(schema: unknown): readonly unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  const node = new SchemaNode(normalizeNode(schema), "");
  const values = node.peek("enum");
  if (values === undefined || node.keywords().some((k) => k !== "enum" && !isAnnotationKeyword(k))) return undefined;
  return values;
}

/** Both, as one subschema (`true` and identical halves collapse). */
export function both(a: unknown, b: unknown): unknown {
  if (a === undefined || a === true) return b ?? true;
  if (b === undefined || b === true || jsonEqual(a, b)) return a;
  return { allOf: [a, b] };
}

const typeList = (t: unknown): string[] => (Array.isArray(t) ? (t as string[]) : [t as string]);

/** The types in both lists ("integer" is a "number"); merge runs before the types are checked. */
function intersectTypes(a: unknown, b: unknown): string[] {
  const x = typeList(a);
  const y = typeList(b);
  const out = new Set<string>();
  for (const t of x) {
    if (y.includes(t)) out.add(t);
    else if (t === "integer" && y.includes("number")) out.add("integer");
    else if (t === "number" && y.includes("integer")) out.add("integer");
  }
  return [...out];
}

/** Merges two `$ref`-free schemas; `false` when they have no common instance. */
export function mergeSchemas(ctx: CompileContext, a: JsonSchema, b: JsonSchema, pointer: string): JsonSchema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const xRaw = normalizeNode(a);
  const x = new SchemaNode(xRaw, pointer);
  const y = new SchemaNode(normalizeNode(b), pointer);
  const out: Mutable = { ...xRaw };
  mergeObjects(x, y, out, pointer);
  mergeArrays(x, y, out);
  for (const k of y.keywords()) {
    const spec = keywordSpec(k);
    if (spec?.merge === "shape") continue;
    const vb = y.raw[k];
    if (!(k in out)) {
      out[k] = vb;
      continue;
    }
    const va = out[k];
    if (jsonEqual(va, vb)) continue;
    const merged = mergeValues(ctx, k, x, y, pointer);
    if (merged === NO_COMMON_TYPE) return false;
    if (merged !== undefined) out[k] = merged;
    else if (!isAnnotationKeyword(k)) {
      // pattern, format, multipleOf, uniqueItems, if/then/else, dependencies, ... and annotations.
      ctx.report.set(pointer, k, "validatedAfter", `allOf: a second, different "${k}" is checked after decoding`);
    }
  }
  ctx.resolver.inheritBase(out, xRaw);
  ctx.report.derive(out, a, b);
  return out;
}

const NO_COMMON_TYPE = Symbol("no common type");

/**
 * Two different values of keyword `k` as one, by the keyword's merge rule (the keyword table);
 * undefined when they cannot become one constraint (or a value is malformed): the first is kept.
 */
function mergeValues(ctx: CompileContext, k: string, x: SchemaNode, y: SchemaNode, pointer: string): unknown {
  const spec = keywordSpec(k);
  const va = x.raw[k];
  const vb = y.raw[k];
  const lists = (): [readonly unknown[], readonly unknown[]] | undefined => (Array.isArray(va) && Array.isArray(vb) ? [va, vb] : undefined);
  switch (spec?.merge) {
    case "intersectTypes": {
      const t = intersectTypes(va, vb);
      if (t.length > 0) return t;
      ctx.unsat("allOf branches share no type", "allOf", pointer);
      return NO_COMMON_TYPE;
    }
    case "intersectValues": {
      const l = lists();
      return l && l[0].filter((v) => l[1].some((w) => jsonEqual(v, w)));
    }
    case "union": {
      const l = lists();
      return l && [...new Set([...l[0], ...l[1]])];
    }
    case "tighter":
      if (typeof va !== "number" || typeof vb !== "number") return undefined;
      return spec.bound === "lower" ? Math.max(va, vb) : Math.min(va, vb);
    case "both":
      return both(va, vb);
    case "either":
      return either(va, vb);
    case "concat": {
      const l = lists();
      return l && [...l[0], ...l[1]];
    }
    case "multiply": {
      const l = lists();
      if (l === undefined) return undefined;
      if (l[0].length * l[1].length > LIMITS.maxBranches) {
        throw new SchemaError("SCHEMA_TOO_LARGE", `merging allOf multiplies ${k} out to ${l[0].length * l[1].length} branches (limit ${LIMITS.maxBranches})`, { keyword: "allOf", pointer });
      }
      return l[0].flatMap((p) => l[1].map((q) => both(p, q)));
    }
    case "bothPatterns":
      return typeof va === "string" && typeof vb === "string" ? bothPatterns(va, vb) : undefined;
    case "mapBoth":
      return isRecord(va) && isRecord(vb) ? mergeMaps(new Map(Object.entries(va)), new Map(Object.entries(vb))) : undefined;
    default:
      return undefined;
  }
}

function mergeMaps(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): Mutable {
  const out: Mutable = Object.fromEntries(a);
  for (const [k, v] of b) out[k] = k in out ? both(out[k], v) : v;
  return out;
}

function mergeObjects(x: SchemaNode, y: SchemaNode, out: Mutable, pointer: string): void {
  if (!OBJECT_SHAPE.some((k) => x.has(k) || y.has(k))) return;
  const px = x.peek("patternProperties") ?? NO_SCHEMAS;
  const py = y.peek("patternProperties") ?? NO_SCHEMAS;
  const ax = x.get("additionalProperties");
  const ay = y.get("additionalProperties");
  const samePatterns = jsonEqual([...px.keys()].sort(), [...py.keys()].sort());
  if (!samePatterns && ((ax !== undefined && py.size > 0) || (ay !== undefined && px.size > 0))) {
    throw new SchemaError("SCHEMA_UNSUPPORTED", "allOf branches combine additionalProperties with different patternProperties; no exact merge", { keyword: "allOf", pointer });
  }
  const propsX = x.peek("properties") ?? NO_SCHEMAS;
  const propsY = y.peek("properties") ?? NO_SCHEMAS;
  // A name declared on one side only is governed on the other side by its patterns or additionalProperties.
  const governing = (additional: unknown, pats: ReadonlyMap<string, unknown>, name: string): unknown =>
    [...pats.keys()].some((p) => testPattern(checkPattern(p, "patternProperties", pointer), name)) ? true : additional;
  const props: Mutable = {};
  for (const name of new Set([...propsX.keys(), ...propsY.keys()])) {
    const sx = propsX.has(name) ? propsX.get(name) : governing(ax, px, name);
    const sy = propsY.has(name) ? propsY.get(name) : governing(ay, py, name);
    props[name] = both(sx, sy);
  }
  if (Object.keys(props).length > 0) out.properties = props;
  if (px.size + py.size > 0) out.patternProperties = mergeMaps(px, py);
  if (ax !== undefined || ay !== undefined) out.additionalProperties = both(ax, ay);
}

function mergeArrays(x: SchemaNode, y: SchemaNode, out: Mutable): void {
  if (!ARRAY_SHAPE.some((k) => x.has(k) || y.has(k))) return;
  const ax = x.peek("prefixItems") ?? [];
  const ay = y.peek("prefixItems") ?? [];
  const ix = x.get("items");
  const iy = y.get("items");
  const prefix: unknown[] = [];
  for (let i = 0; i < Math.max(ax.length, ay.length); i++) prefix.push(both(i < ax.length ? ax[i] : ix, i < ay.length ? ay[i] : iy));
  if (prefix.length > 0) out.prefixItems = prefix;
  if (ix !== undefined || iy !== undefined) out.items = both(ix, iy);
}
