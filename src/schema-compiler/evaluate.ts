/**
 * Decides at compile time whether a given JSON value satisfies a schema, with the semantics ajv 8
 * gives the keywords whose meaning is plain: type, enum/const, lengths, pattern, numeric bounds,
 * object and array shape, required, propertyNames, uniqueItems, not/allOf/anyOf/oneOf and
 * in-document `$ref`, `format` as ajv-formats checks it, and `multipleOf` on decimals as src/validate
 * decides it. Any other keyword (contains, if/then/else,
 * dependencies, unevaluated*, ...) is undecided, and so is a verdict that depends on one.
 * The compiler uses it to filter enum values by their sibling keywords and to prove oneOf
 * branches disjoint; both are exact only where the verdict is decided.
 */

import { fullFormats, type FormatName } from "ajv-formats/dist/formats.js";
import { isAnnotationKeyword, isRecord, jsonEqual, keywordSpec, normalizeNode, SchemaNode, SPEC_FORMATS, type InstanceType } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { unicodeModeSource } from "../regex/index.js";
import { isDecimalMultiple, mapDefined } from "../util/index.js";

/** true / false, or undefined when undecided. */
export type Verdict = boolean | undefined;

/** $ref hops on one value before giving up (a cycle such as `{"$ref": "#"}` at the root). */
const MAX_DEPTH = 64;

/** Three-valued "and": false wins, then undecided. */
function all(verdicts: Iterable<() => Verdict>): Verdict {
  let out: Verdict = true;
  for (const v of verdicts) {
    const r = v();
    if (r === false) return false;
    if (r === undefined) out = undefined;
  }
  return out;
}

/** Three-valued "or": true wins, then undecided. */
function some(verdicts: Iterable<() => Verdict>): Verdict {
  let out: Verdict = false;
  for (const v of verdicts) {
    const r = v();
    if (r === true) return true;
    if (r === undefined) out = undefined;
  }
  return out;
}

function hasType(value: unknown, type: unknown): Verdict {
  switch (type) {
    case "null": return value === null;
    case "boolean": return typeof value === "boolean";
    case "string": return typeof value === "string";
    case "number": return typeof value === "number";
    case "integer": return Number.isInteger(value);
    case "array": return Array.isArray(value);
    case "object": return isRecord(value);
    default: return undefined;
  }
}

/** An unanchored ECMAScript regex test, read in Unicode mode as the grammar reads it (undecided
 *  for a regex without a Unicode-mode form). */
export function testRegex(source: unknown, text: string): Verdict {
  if (typeof source !== "string") return undefined;
  try {
    return new RegExp(unicodeModeSource(source), "u").test(text);
  } catch {
    return undefined;
  }
}

export class Evaluator {
  /** The `not` and `oneOf` keywords (with their nodes) whose verdict was decided on some value. */
  readonly judged: [object, "not" | "oneOf"][] = [];

  constructor(private readonly ctx: CompileContext, private readonly pointer: string) {}

  satisfies(schema: unknown, value: unknown, depth = 0): Verdict {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isRecord(schema) || depth > MAX_DEPTH) return undefined;
    const written = new SchemaNode(schema, this.pointer);
    if (this.ctx.legacyRefs && written.peek("$ref") !== undefined) return this.viaRef(written, value, depth);
    const node = new SchemaNode(normalizeNode(schema), this.pointer);
    // Every keyword, also past one that fails: a `not` or `oneOf` beside it is then decided as well,
    // where the compile report would otherwise keep it checked after decoding.
    const verdicts = node.keywords().map((k) => (k === "$ref" ? this.viaRef(written, value, depth) : this.keyword(node, k, value, depth, schema)));
    return all(verdicts.map((v) => () => v));
  }

  /** Whether `value` satisfies keyword `k` of `node` (a normalized node; `raw` is the node it was
   *  normalized from, which carries the base URI and the report's provenance). */
  keyword(node: SchemaNode, k: string, value: unknown, depth = 0, raw: object = node.raw): Verdict {
    if (isAnnotationKeyword(k)) return true;
    const sub = (schema: unknown, v: unknown): Verdict => this.satisfies(schema, v, depth + 1);
    switch (k) {
      case "type": {
        // As written, name by name: an unknown name is undecided while a known one may still
        // decide (the compiler refuses unknown names where it compiles the node).
        const types = node.raw.type;
        return some((Array.isArray(types) ? types : [types]).map((t) => () => hasType(value, t)));
      }
      case "enum":
        return node.peek("enum")?.some((v) => jsonEqual(v, value));
      case "nullable":
        // normalizeNode folded `nullable: true` into `type`; alone, ajv rejects the schema.
        return node.has("type") ? true : undefined;
      case "not":
        return this.judge(raw, "not", negated(sub(node.get("not"), value)));
      case "allOf":
        return mapDefined(node.peek("allOf"), (list) => all(list.map((s) => () => sub(s, value))));
      case "anyOf":
        return mapDefined(node.peek("anyOf"), (list) => some(list.map((s) => () => sub(s, value))));
      case "oneOf":
        return mapDefined(node.peek("oneOf"), (list) => this.judge(raw, "oneOf", exactlyOne(list.map((s) => sub(s, value)))));
      case "format":
        return formatVerdict(node.raw.format, value);
      default:
        return this.shapeKeyword(node, k, value, sub);
    }
  }

  private viaRef(written: SchemaNode, value: unknown, depth: number): Verdict {
    const target = this.ctx.resolver.refTarget(written);
    return target === undefined ? undefined : this.satisfies(target.node, value, depth + 1);
  }

  private judge(node: object, keyword: "not" | "oneOf", verdict: Verdict): Verdict {
    if (verdict !== undefined) this.judged.push([node, keyword]);
    return verdict;
  }

  /** Keywords that constrain one type of value (every other type satisfies them). */
  private shapeKeyword(node: SchemaNode, k: string, value: unknown, sub: (s: unknown, v: unknown) => Verdict): Verdict {
    if (typeof value === "string") return stringKeyword(node, k, value);
    if (typeof value === "number") return numberKeyword(node, k, value);
    if (Array.isArray(value)) return arrayKeyword(node, k, value, sub);
    if (isRecord(value)) return objectKeyword(node, k, value, sub);
    return appliesTo(k) === undefined ? undefined : true;
  }
}

const negated = (v: Verdict): Verdict => (v === undefined ? undefined : !v);

function exactlyOne(verdicts: readonly Verdict[]): Verdict {
  const yes = verdicts.filter((v) => v === true).length;
  if (yes > 1) return false;
  if (verdicts.includes(undefined)) return undefined;
  return yes === 1;
}

/** The type a keyword constrains, for the keywords the table marks decided; undefined otherwise. */
function appliesTo(k: string): InstanceType | undefined {
  const spec = keywordSpec(k);
  return spec?.decided === true ? spec.instance : undefined;
}

function stringKeyword(node: SchemaNode, k: string, value: string): Verdict {
  if (appliesTo(k) !== "string") return appliesTo(k) === undefined ? undefined : true;
  if (k === "pattern") return testRegex(node.peek("pattern"), value);
  const length = [...value].length; // code points, as ajv counts
  return k === "minLength" ? mapDefined(node.peek("minLength"), (n) => length >= n) : mapDefined(node.peek("maxLength"), (n) => length <= n);
}

function numberKeyword(node: SchemaNode, k: string, value: number): Verdict {
  if (appliesTo(k) !== "number") return appliesTo(k) === undefined ? undefined : true;
  if (k === "minimum") return mapDefined(node.peek("minimum"), (b) => value >= b);
  if (k === "maximum") return mapDefined(node.peek("maximum"), (b) => value <= b);
  if (k === "multipleOf") return mapDefined(node.peek("multipleOf"), (m) => isDecimalMultiple(value, m));
  const bound = node.peek(k === "exclusiveMinimum" ? "exclusiveMinimum" : "exclusiveMaximum");
  if (typeof bound !== "number") return undefined;
  return k === "exclusiveMinimum" ? value > bound : value < bound;
}

function arrayKeyword(node: SchemaNode, k: string, value: readonly unknown[], sub: (s: unknown, v: unknown) => Verdict): Verdict {
  if (appliesTo(k) !== "array") return appliesTo(k) === undefined ? undefined : true;
  const prefix = node.peek("prefixItems") ?? [];
  switch (k) {
    case "prefixItems":
      return all(value.slice(0, prefix.length).map((v, i) => () => sub(prefix[i], v)));
    case "items":
      return all(value.slice(prefix.length).map((v) => () => sub(node.get("items"), v)));
    case "uniqueItems":
      return node.get("uniqueItems") !== true || value.every((v, i) => value.findIndex((w) => jsonEqual(v, w)) === i);
    case "minItems":
      return mapDefined(node.peek("minItems"), (n) => value.length >= n);
    default:
      return mapDefined(node.peek("maxItems"), (n) => value.length <= n);
  }
}

const NO_SCHEMAS: ReadonlyMap<string, unknown> = new Map();

function objectKeyword(node: SchemaNode, k: string, value: Record<string, unknown>, sub: (s: unknown, v: unknown) => Verdict): Verdict {
  if (appliesTo(k) !== "object") return appliesTo(k) === undefined ? undefined : true;
  const names = Object.keys(value);
  const declared = node.peek("properties") ?? NO_SCHEMAS;
  const patterns = [...(node.peek("patternProperties") ?? NO_SCHEMAS)];
  switch (k) {
    case "required":
      return mapDefined(node.peek("required"), (required) => required.every((r) => Object.prototype.hasOwnProperty.call(value, r)));
    case "properties":
      return all(names.filter((n) => declared.has(n)).map((n) => () => sub(declared.get(n), value[n])));
    case "patternProperties":
      return all(names.flatMap((n) => patterns.map(([p, s]) => () => then(testRegex(p, n), () => sub(s, value[n])))));
    case "additionalProperties":
      return all(names.filter((n) => !declared.has(n)).map((n) => () => {
        const matched = some(patterns.map(([p]) => () => testRegex(p, n)));
        return matched === undefined ? undefined : matched || sub(node.get("additionalProperties"), value[n]);
      }));
    case "propertyNames":
      return all(names.map((n) => () => sub(node.get("propertyNames"), n)));
    case "minProperties":
      return mapDefined(node.peek("minProperties"), (n) => names.length >= n);
    default:
      return mapDefined(node.peek("maxProperties"), (n) => names.length <= n);
  }
}

/**
 * `format` as the after-decoding validator judges it (ajv with ajv-formats, full mode): by its
 * ajv-formats check where it has one (a check for numbers passes other values, one for strings
 * other types); a defined format ajv-formats lacks (iri, idn-*) is undecided on strings; any other
 * name is an annotation.
 */
function formatVerdict(format: unknown, value: unknown): Verdict {
  if (typeof format !== "string") return undefined;
  const check = Object.prototype.hasOwnProperty.call(fullFormats, format) ? fullFormats[format as FormatName] : undefined;
  if (check === undefined) return typeof value === "string" && SPEC_FORMATS.has(format) ? undefined : true;
  if (check === true) return true; // a name ajv-formats knows and accepts anything under (password, binary)
  const forNumbers = typeof check === "object" && !(check instanceof RegExp) && check.type === "number";
  if (forNumbers ? typeof value !== "number" : typeof value !== "string") return true;
  const test = typeof check === "object" && !(check instanceof RegExp) ? check.validate : check;
  if (test instanceof RegExp) return test.test(value as string);
  if (typeof test === "string") return new RegExp(test, "u").test(value as string);
  const verdict: unknown = (test as (v: unknown) => unknown)(value);
  return typeof verdict === "boolean" ? verdict : undefined;
}

/** "if `condition` then `verdict`", three-valued. */
function then(condition: Verdict, verdict: () => Verdict): Verdict {
  if (condition === false) return true;
  const v = verdict();
  return condition === true ? v : v === true ? true : undefined;
}
