/**
 * The keyword table: where each JSON Schema keyword keeps its subschemas, and how the compiler
 * treats it by default (enforced by the grammar, validated after decoding, annotation). The
 * compile step refines a default where it knows better (e.g. `not` is enforced where it has an
 * exact positive form, `minProperties` may fall back to validation after decoding). Keywords not in the table are
 * reported as annotations with the note "unknown keyword, ignored" so they never pass silently.
 */

export type KeywordClass = "enforced" | "validatedAfter" | "annotation";

/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = [
  "additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else",
  "unevaluatedProperties", "unevaluatedItems", "contentSchema",
] as const;
/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
export const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;

const ENFORCED = new Set([
  "type", "enum", "const", "nullable",
  "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties",
  "items", "prefixItems", "additionalItems", "minItems", "maxItems",
  "minLength", "maxLength", "pattern", "format",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "anyOf", "oneOf", "allOf", "$ref",
]);
const VALIDATED_AFTER = new Set([
  "uniqueItems", "contains", "minContains", "maxContains", "multipleOf", "not", "if", "then", "else",
  "dependencies", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
]);
const ANNOTATIONS = new Set([
  "title", "description", "examples", "example", "default", "$comment", "$schema", "$id", "id", "deprecated", "readOnly",
  "writeOnly", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$defs", "definitions", "$vocabulary", "contentMediaType",
  "contentEncoding", "contentSchema", "markdownDescription", "discriminator", "externalDocs", "xml",
]);
/** Keywords the compiler refuses (it would have to guess their meaning). */
export const REJECTED = new Set(["$dynamicRef", "$recursiveRef"]);

export const KNOWN_FORMATS = new Set(["date", "time", "date-time", "duration", "email", "uuid", "uri", "uri-reference", "ipv4", "ipv6", "hostname"]);

export function defaultClass(keyword: string): { cls: KeywordClass; note?: string } {
  if (ENFORCED.has(keyword)) return { cls: "enforced" };
  if (VALIDATED_AFTER.has(keyword)) return { cls: "validatedAfter" };
  if (ANNOTATIONS.has(keyword)) return { cls: "annotation" };
  if (REJECTED.has(keyword)) return { cls: "validatedAfter", note: "rejected when compiled" };
  if (keyword.startsWith("x-")) return { cls: "annotation", note: "vendor extension, ignored" };
  return { cls: "annotation", note: "unknown keyword, ignored" };
}

/** Keywords that never constrain an instance (used to tell "empty" schemas apart). */
export function isAnnotationKeyword(keyword: string): boolean {
  return defaultClass(keyword).cls === "annotation" || keyword === "$defs" || keyword === "definitions";
}

const escapePointer = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");
export const childPointer = (ptr: string, ...segments: (string | number)[]): string =>
  ptr + segments.map((s) => `/${escapePointer(String(s))}`).join("");

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Calls `visit` with every direct subschema of `node` and its JSON pointer (values that are not
 *  schemas are skipped). */
export function forEachSubschema(node: Record<string, unknown>, ptr: string, visit: (child: unknown, ptr: string) => void): void {
  for (const k of SCHEMA_KEYWORDS) if (k in node) visit(node[k], `${ptr}/${k}`);
  for (const k of SCHEMA_ARRAY_KEYWORDS) {
    const v = node[k];
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) visit(v[i], `${ptr}/${k}/${i}`);
  }
  for (const k of SCHEMA_MAP_KEYWORDS) {
    const v = node[k];
    if (isRecord(v)) for (const name of Object.keys(v)) visit(v[name], childPointer(ptr, k, name));
  }
  const items = node.items;
  if (Array.isArray(items)) for (let i = 0; i < items.length; i++) visit(items[i], `${ptr}/items/${i}`);
  else if (items !== undefined) visit(items, `${ptr}/items`);
  const deps = node.dependencies;
  if (isRecord(deps)) for (const name of Object.keys(deps)) if (!Array.isArray(deps[name])) visit(deps[name], childPointer(ptr, "dependencies", name));
}
