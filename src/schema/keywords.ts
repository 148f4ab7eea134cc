/**
 * THE keyword table: every JSON Schema keyword the SDK knows, with how its value is parsed (the
 * value kind, read into a typed field by node.ts) and how it is handled: enforced by the grammar,
 * validated after decoding (ajv/zod), an annotation (ignored on purpose), or refused (with the
 * reason). The other facts the compiler needs per keyword live here too (the instance type it
 * constrains, how two values merge under allOf, its negation's opposite keyword), so every module
 * that treats keywords by kind reads this one table. Adding a keyword: one entry here, its value
 * kind's parser (node.ts) and its emitter (src/schema-compiler).
 *
 * The handling is the default the compile report starts from; the compiler refines it where it
 * knows better (`not` enforced where it has an exact positive form, `minProperties` checked after
 * decoding beside optional properties, ...). Keywords not in the table are reported as
 * annotations with the note "unknown keyword, ignored", so they never pass silently.
 */

import { isRecord } from "../util/index.js";

export type Handling = "enforced" | "validatedAfter" | "annotation" | "refused";
/** How a keyword lands in the compile report (a refused keyword never reaches a finished report). */
export type KeywordClass = Exclude<Handling, "refused">;

/**
 * The JSON shape of a keyword's value, each with its parser and typed field (node.ts):
 * `schema` one subschema; `schemas` an array of subschemas that must not be empty (allOf/anyOf/oneOf);
 * `schemaList` an array of subschemas (prefixItems); `schemaMap` names to subschemas;
 * `items` one subschema or (draft 4 tuple) an array of them; `dependencies` names to a subschema
 * or to a list of names; `types` a type name or a list of them; `count` a non-negative integer;
 * `number` a finite number; `exclusiveBound` a number or (draft 4) a boolean; `pattern` a regex
 * source; `string` a string; `strings` an array of strings; `values` an array of JSON values;
 * `value` any JSON value; `ref` a URI reference; `any` not parsed (annotations).
 */
export type ValueKind =
  | "schema" | "schemas" | "schemaList" | "schemaMap" | "items" | "dependencies"
  | "types" | "count" | "number" | "exclusiveBound" | "pattern" | "string" | "strings" | "values" | "value" | "ref" | "any";

/** The instance types a keyword constrains (values of other types satisfy it). */
export type InstanceType = "string" | "number" | "array" | "object";

/** How two values of the keyword combine when allOf merges two schemas (merge.ts). Absent: a
 *  second, different value is checked after decoding (annotations: the first is kept). */
export type MergeRule =
  | "intersectTypes" | "intersectValues" | "union" | "tighter" | "both" | "either" | "concat" | "multiply" | "mapBoth"
  /** two regexes as one (a look-ahead: schema-compiler/patterns.ts) */
  | "bothPatterns"
  /** merged with its siblings as an object or array shape (properties, items, ...) */
  | "shape";

export interface KeywordSpec {
  readonly value: ValueKind;
  readonly handling: Handling;
  /** Why a refused keyword is refused; a remark on the default handling otherwise. */
  readonly note?: string;
  /** The instance type the keyword constrains. */
  readonly instance?: InstanceType;
  /** The evaluator decides the keyword for a given value at compile time (evaluate.ts). */
  readonly decided?: true;
  /** A bound: "lower" (the larger of two wins under allOf) or "upper". */
  readonly bound?: "lower" | "upper";
  /** The keyword whose bound is this one's complement (`not: {minLength: 3}` = `maxLength: 2`). */
  readonly opposite?: string;
  readonly merge?: MergeRule;
  /** Its subschemas apply to the instance itself, not to a part of it (an in-place applicator). */
  readonly inPlace?: true;
  /** Inside `propertyNames`, the grammar applies it to keys (objects.ts). */
  readonly onKeys?: true;
  /** Keywords compiled together: `if`/`then`/`else` (conditional.ts), and the presence rules
   *  of `dependencies`/`dependentRequired`/`dependentSchemas` (dependencies.ts). */
  readonly family?: "conditional" | "dependencies";
}

/** Entry builders; the value kind stays a literal type, so a typed field knows its type. */
type Facts = Omit<KeywordSpec, "value" | "handling">;
const entry = <V extends ValueKind>(value: V, handling: Handling, more: Facts): KeywordSpec & { readonly value: V } => ({ value, handling, ...more });
const enforced = <V extends ValueKind>(value: V, more: Facts = {}) => entry(value, "enforced", more);
const after = <V extends ValueKind>(value: V, more: Facts = {}) => entry(value, "validatedAfter", more);
const annotation = <V extends ValueKind = "any">(value: V = "any" as V, more: Facts = {}) => entry(value, "annotation", more);

/**
 * The table. Order matters where subschemas are visited (report order, `$id` indexing): the
 * one-subschema keywords, then the lists, then the maps, as forEachSubschema walks them.
 */
export const KEYWORDS = {
  // Applicators with one subschema.
  additionalProperties: enforced("schema", { instance: "object", decided: true, merge: "shape" }),
  additionalItems: enforced("schema"),
  contains: after("schema", { instance: "array" }),
  propertyNames: enforced("schema", { instance: "object", decided: true, merge: "both" }),
  not: after("schema", { merge: "either", inPlace: true }),
  // Enforced where `not if` has an exact positive form (the compiler reports each use).
  if: after("schema", { inPlace: true, family: "conditional" }),
  then: after("schema", { inPlace: true, family: "conditional" }),
  else: after("schema", { inPlace: true, family: "conditional" }),
  unevaluatedProperties: after("schema", { instance: "object", merge: "both" }),
  unevaluatedItems: after("schema", { instance: "array", merge: "both" }),
  contentSchema: annotation("schema"),
  // Applicators with a list of subschemas.
  allOf: enforced("schemas", { merge: "concat", inPlace: true }),
  anyOf: enforced("schemas", { merge: "multiply", inPlace: true }),
  oneOf: enforced("schemas", { merge: "multiply", inPlace: true }),
  prefixItems: enforced("schemaList", { instance: "array", decided: true, merge: "shape" }),
  // Applicators with named subschemas.
  properties: enforced("schemaMap", { instance: "object", decided: true, merge: "shape" }),
  patternProperties: enforced("schemaMap", { instance: "object", decided: true, merge: "shape" }),
  $defs: annotation("schemaMap"),
  definitions: annotation("schemaMap"),
  // Enforced where each entry only asks for or forbids names (the compiler reports each use).
  dependentSchemas: after("schemaMap", { merge: "mapBoth", inPlace: true, family: "dependencies" }),
  items: enforced("items", { instance: "array", decided: true, merge: "shape" }),
  dependencies: after("dependencies", { inPlace: true, family: "dependencies" }),

  // Any type.
  type: enforced("types", { merge: "intersectTypes", onKeys: true }),
  enum: enforced("values", { merge: "intersectValues", onKeys: true }),
  const: enforced("value", { onKeys: true }),
  nullable: enforced("any"),
  $ref: enforced("ref"),
  $dynamicRef: entry("ref", "refused", { note: "dynamic scope" }),
  $recursiveRef: entry("ref", "refused", { note: "dynamic scope" }),

  // Objects.
  required: enforced("strings", { instance: "object", decided: true, merge: "union" }),
  minProperties: enforced("count", { instance: "object", decided: true, bound: "lower", opposite: "maxProperties", merge: "tighter" }),
  maxProperties: enforced("count", { instance: "object", decided: true, bound: "upper", opposite: "minProperties", merge: "tighter" }),
  dependentRequired: after("any", { instance: "object", family: "dependencies" }),

  // Arrays.
  minItems: enforced("count", { instance: "array", decided: true, bound: "lower", opposite: "maxItems", merge: "tighter" }),
  maxItems: enforced("count", { instance: "array", decided: true, bound: "upper", opposite: "minItems", merge: "tighter" }),
  uniqueItems: enforced("any", { instance: "array", decided: true, note: "where it cannot fail or the items are a small finite set of values (grammar), or unbounded strings (matcher); checked after decoding otherwise" }),
  minContains: after("count", { instance: "array", bound: "lower", merge: "tighter" }),
  maxContains: after("count", { instance: "array", bound: "upper", merge: "tighter" }),

  // Strings.
  minLength: enforced("count", { instance: "string", decided: true, bound: "lower", opposite: "maxLength", merge: "tighter", onKeys: true }),
  maxLength: enforced("count", { instance: "string", decided: true, bound: "upper", opposite: "minLength", merge: "tighter", onKeys: true }),
  pattern: enforced("pattern", { instance: "string", decided: true, onKeys: true, merge: "bothPatterns" }),
  format: enforced("string", { instance: "string" }),

  // Numbers.
  minimum: enforced("number", { instance: "number", decided: true, bound: "lower", opposite: "exclusiveMaximum", merge: "tighter" }),
  maximum: enforced("number", { instance: "number", decided: true, bound: "upper", opposite: "exclusiveMinimum", merge: "tighter" }),
  exclusiveMinimum: enforced("exclusiveBound", { instance: "number", decided: true, bound: "lower", opposite: "maximum", merge: "tighter" }),
  exclusiveMaximum: enforced("exclusiveBound", { instance: "number", decided: true, bound: "upper", opposite: "minimum", merge: "tighter" }),
  multipleOf: enforced("number", { instance: "number", decided: true, note: "divisors 2^a*5^b/10^k over any range, others over small ranges; checked after decoding otherwise" }),

  // Annotations: no effect on validity.
  title: annotation("any", { onKeys: true }),
  description: annotation("any", { onKeys: true }),
  $comment: annotation("any", { onKeys: true }),
  examples: annotation(),
  example: annotation(),
  default: annotation(),
  $schema: annotation(),
  $id: annotation(),
  id: annotation(),
  deprecated: annotation(),
  readOnly: annotation(),
  writeOnly: annotation(),
  $anchor: annotation(),
  $dynamicAnchor: annotation(),
  $recursiveAnchor: annotation(),
  $vocabulary: annotation(),
  contentMediaType: annotation(),
  contentEncoding: annotation(),
  markdownDescription: annotation(),
  discriminator: annotation(),
  externalDocs: annotation(),
  xml: annotation(),
} as const satisfies Record<string, KeywordSpec>;

export type Keyword = keyof typeof KEYWORDS;

const TABLE: ReadonlyMap<string, KeywordSpec> = new Map(Object.entries(KEYWORDS));

/** Whether the table lists `keyword`. */
export function isKeyword(keyword: string): keyword is Keyword {
  return TABLE.has(keyword);
}

/** The table's entry for `keyword` (undefined for unknown and vendor keywords). */
export function keywordSpec(keyword: string): KeywordSpec | undefined {
  return TABLE.get(keyword);
}

/** Table keywords with a property, in table order. */
export function keywordsWhere(test: (spec: KeywordSpec, keyword: Keyword) => boolean): Keyword[] {
  return (Object.keys(KEYWORDS) as Keyword[]).filter((k) => test(KEYWORDS[k], k));
}

/** The vendor keyword of pocket-extract annotations (`"x-pocket": {"verbatim": true}`). */
export const VENDOR_KEY = "x-pocket";

/** String formats with a grammar (grammars/*.gbnf), enforced exactly (test/schema-compiler/formats.test.ts). */
export const KNOWN_FORMATS = new Set(["date", "time", "date-time", "duration", "email", "uuid", "uri", "uri-reference", "ipv4", "ipv6", "hostname"]);

/** The formats JSON Schema defines (draft 2020-12 validation, section 7.3): assertions for a
 *  validator that asserts formats, so one without a grammar is never reported as enforced. */
export const SPEC_FORMATS = new Set([
  ...KNOWN_FORMATS,
  "idn-email", "idn-hostname", "iri", "iri-reference", "uri-template", "json-pointer", "relative-json-pointer", "regex",
]);

/** Of the defined formats without a grammar, those the after-decoding validator (ajv-formats)
 *  checks; the others (iri, iri-reference, idn-*) are not enforced at all. */
export const VALIDATOR_FORMATS = new Set(["uri-template", "json-pointer", "relative-json-pointer", "regex"]);

/** A keyword's default report class, with a note for the ones the table does not list. */
export function defaultClass(keyword: string): { cls: KeywordClass; note?: string } {
  const spec = TABLE.get(keyword);
  if (spec?.handling === "refused") return { cls: "validatedAfter", note: "rejected when compiled" };
  if (spec !== undefined) return { cls: spec.handling };
  if (keyword.startsWith("x-")) return { cls: "annotation", note: "vendor extension, ignored" };
  return { cls: "annotation", note: "unknown keyword, ignored" };
}

/** Keywords that never constrain an instance (used to tell "empty" schemas apart). */
export function isAnnotationKeyword(keyword: string): boolean {
  return defaultClass(keyword).cls === "annotation";
}

/** Keywords the compiler refuses, with the table's reason. */
export const REFUSED: readonly Keyword[] = keywordsWhere((s) => s.handling === "refused");

const escapePointer = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");
export const childPointer = (ptr: string, ...segments: (string | number)[]): string =>
  ptr + segments.map((s) => `/${escapePointer(String(s))}`).join("");

const ONE_SCHEMA = keywordsWhere((s) => s.value === "schema");
const SCHEMA_LISTS = keywordsWhere((s) => s.value === "schemas" || s.value === "schemaList");
const SCHEMA_MAPS = keywordsWhere((s) => s.value === "schemaMap");

/** Calls `visit` with every direct subschema of `node` and its JSON pointer (values that are not
 *  schemas are skipped). */
export function forEachSubschema(node: Record<string, unknown>, ptr: string, visit: (child: unknown, ptr: string) => void): void {
  for (const k of ONE_SCHEMA) if (k in node) visit(node[k], `${ptr}/${k}`);
  for (const k of SCHEMA_LISTS) {
    const v = node[k];
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) visit(v[i], `${ptr}/${k}/${i}`);
  }
  for (const k of SCHEMA_MAPS) {
    const v = node[k];
    if (isRecord(v)) for (const name of Object.keys(v)) visit(v[name], childPointer(ptr, k, name));
  }
  const items = node.items;
  if (Array.isArray(items)) for (let i = 0; i < items.length; i++) visit(items[i], `${ptr}/items/${i}`);
  else if (items !== undefined) visit(items, `${ptr}/items`);
  const deps = node.dependencies;
  if (isRecord(deps)) for (const name of Object.keys(deps)) if (!Array.isArray(deps[name])) visit(deps[name], childPointer(ptr, "dependencies", name));
}
