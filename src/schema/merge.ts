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
import { LIMITS, type CompileContext } from "./context.js";
import { isAnnotationKeyword } from "./keywords.js";
import { jsonEqual, normalizeNode } from "./normalize.js";
import { testPattern, checkPattern } from "./patterns.js";
import type { JsonSchema, JsonSchemaObject } from "./types.js";

type Mutable = { [k: string]: unknown };
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const MIN_KEYS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"]);
const MAX_KEYS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"]);
// Not `contains`: "contains a" and "contains b" is no single `contains` (two different ones fall
// to the after-decoding case below), nor `not` (see `either`).
const SUBSCHEMA_KEYS = new Set(["propertyNames", "unevaluatedProperties", "unevaluatedItems"]);

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
  const node = normalizeNode(schema);
  if (!Array.isArray(node.enum) || Object.keys(node).some((k) => k !== "enum" && !isAnnotationKeyword(k))) return undefined;
  return node.enum;
}

/** Both, as one subschema (`true` and identical halves collapse). */
export function both(a: unknown, b: unknown): unknown {
  if (a === undefined || a === true) return b ?? true;
  if (b === undefined || b === true || jsonEqual(a, b)) return a;
  return { allOf: [a, b] };
}

function typeList(t: unknown): string[] | undefined {
  return t === undefined ? undefined : Array.isArray(t) ? (t as string[]) : [t as string];
}

function intersectTypes(a: unknown, b: unknown): string[] {
  const x = typeList(a)!;
  const y = typeList(b)!;
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
  const x = normalizeNode(a);
  const y = normalizeNode(b);
  const out: Mutable = { ...x };
  mergeObjects(x, y, out, pointer);
  mergeArrays(x, y, out);
  for (const [k, vb] of Object.entries(y)) {
    if (k in mergedElsewhere) continue;
    if (!(k in out)) {
      out[k] = vb;
      continue;
    }
    const va = out[k];
    if (jsonEqual(va, vb)) continue;
    if (k === "type") {
      const t = intersectTypes(va, vb);
      if (t.length === 0) {
        ctx.unsat("allOf branches share no type", "allOf", pointer);
        return false;
      }
      out.type = t;
    } else if (k === "enum" && Array.isArray(va) && Array.isArray(vb)) {
      out.enum = va.filter((v) => vb.some((w) => jsonEqual(v, w)));
    } else if (k === "required" && Array.isArray(va) && Array.isArray(vb)) {
      out.required = [...new Set([...va, ...vb])];
    } else if (MIN_KEYS.has(k) && typeof va === "number" && typeof vb === "number") {
      out[k] = Math.max(va, vb);
    } else if (MAX_KEYS.has(k) && typeof va === "number" && typeof vb === "number") {
      out[k] = Math.min(va, vb);
    } else if (SUBSCHEMA_KEYS.has(k)) {
      out[k] = both(va, vb);
    } else if (k === "not") {
      out.not = either(va, vb);
    } else if (k === "allOf" && Array.isArray(va) && Array.isArray(vb)) {
      out.allOf = [...va, ...vb];
    } else if ((k === "anyOf" || k === "oneOf") && Array.isArray(va) && Array.isArray(vb)) {
      if (va.length * vb.length > LIMITS.maxBranches) {
        throw new SchemaError("SCHEMA_TOO_LARGE", `merging allOf multiplies ${k} out to ${va.length * vb.length} branches (limit ${LIMITS.maxBranches})`, { keyword: "allOf", pointer });
      }
      out[k] = va.flatMap((p) => vb.map((q) => both(p, q)));
    } else if (k === "dependentSchemas" && isRecord(va) && isRecord(vb)) {
      out[k] = mergeMaps(va, vb);
    } else if (!isAnnotationKeyword(k)) {
      // pattern, format, multipleOf, uniqueItems, if/then/else, dependencies, ... and annotations.
      ctx.report.set(pointer, k, "validatedAfter", `allOf: a second, different "${k}" is checked after decoding`);
    }
  }
  ctx.resolver.inheritBase(out, x);
  ctx.report.derive(out, a, b);
  return out;
}

/** Keys handled by mergeObjects/mergeArrays. */
const mergedElsewhere: Record<string, true> = { properties: true, patternProperties: true, additionalProperties: true, prefixItems: true, items: true };

function mergeMaps(a: Record<string, unknown>, b: Record<string, unknown>): Mutable {
  const out: Mutable = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? both(out[k], v) : v;
  return out;
}

function mergeObjects(x: JsonSchemaObject, y: JsonSchemaObject, out: Mutable, pointer: string): void {
  if (!["properties", "patternProperties", "additionalProperties"].some((k) => k in x || k in y)) return;
  const px = isRecord(x.patternProperties) ? x.patternProperties : {};
  const py = isRecord(y.patternProperties) ? y.patternProperties : {};
  const samePatterns = jsonEqual(Object.keys(px).sort(), Object.keys(py).sort());
  if (!samePatterns && ((x.additionalProperties !== undefined && Object.keys(py).length > 0) || (y.additionalProperties !== undefined && Object.keys(px).length > 0))) {
    throw new SchemaError("SCHEMA_UNSUPPORTED", "allOf branches combine additionalProperties with different patternProperties; no exact merge", { keyword: "allOf", pointer });
  }
  const propsX = isRecord(x.properties) ? x.properties : {};
  const propsY = isRecord(y.properties) ? y.properties : {};
  // A name declared on one side only is governed on the other side by its patterns or additionalProperties.
  const governing = (s: JsonSchemaObject, pats: Record<string, unknown>, name: string): unknown =>
    Object.keys(pats).some((p) => testPattern(checkPattern(p, "patternProperties", pointer), name)) ? true : s.additionalProperties;
  const props: Mutable = {};
  for (const name of new Set([...Object.keys(propsX), ...Object.keys(propsY)])) {
    const sx = name in propsX ? propsX[name] : governing(x, px, name);
    const sy = name in propsY ? propsY[name] : governing(y, py, name);
    props[name] = both(sx, sy);
  }
  if (Object.keys(props).length > 0) out.properties = props;
  if (Object.keys(px).length + Object.keys(py).length > 0) out.patternProperties = mergeMaps(px, py);
  if (x.additionalProperties !== undefined || y.additionalProperties !== undefined) out.additionalProperties = both(x.additionalProperties, y.additionalProperties);
}

function mergeArrays(x: JsonSchemaObject, y: JsonSchemaObject, out: Mutable): void {
  if (!["prefixItems", "items"].some((k) => k in x || k in y)) return;
  const ax = Array.isArray(x.prefixItems) ? x.prefixItems : [];
  const ay = Array.isArray(y.prefixItems) ? y.prefixItems : [];
  const prefix: unknown[] = [];
  for (let i = 0; i < Math.max(ax.length, ay.length); i++) prefix.push(both(i < ax.length ? ax[i] : x.items, i < ay.length ? ay[i] : y.items));
  if (prefix.length > 0) out.prefixItems = prefix;
  if (x.items !== undefined || y.items !== undefined) out.items = both(x.items, y.items);
}
