/**
 * Decides at compile time whether a given JSON value satisfies a schema, with the semantics ajv 8
 * gives the keywords whose meaning is plain: type, enum/const, lengths, pattern, numeric bounds,
 * object and array shape, required, propertyNames, uniqueItems, not/allOf/anyOf/oneOf and
 * in-document `$ref`. Any other keyword (format, multipleOf, contains, if/then/else,
 * dependencies, unevaluated*, ...) is undecided, and so is a verdict that depends on one.
 * The compiler uses it to filter enum values by their sibling keywords and to prove oneOf
 * branches disjoint; both are exact only where the verdict is decided.
 */

import type { CompileContext } from "./context.js";
import { isAnnotationKeyword } from "./keywords.js";
import { jsonEqual, normalizeNode } from "./normalize.js";

/** true / false, or undefined when undecided. */
export type Verdict = boolean | undefined;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

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

/** An unanchored ECMAScript regex test (undecided for an invalid regex). */
export function testRegex(source: unknown, text: string): Verdict {
  if (typeof source !== "string") return undefined;
  try {
    return new RegExp(source, "u").test(text);
  } catch {
    return undefined;
  }
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

export class Evaluator {
  /** The `not` and `oneOf` keywords (with their nodes) whose verdict was decided on some value. */
  readonly judged: [object, "not" | "oneOf"][] = [];

  constructor(private readonly ctx: CompileContext, private readonly pointer: string) {}

  satisfies(schema: unknown, value: unknown, depth = 0): Verdict {
    if (schema === true) return true;
    if (schema === false) return false;
    if (!isRecord(schema) || depth > MAX_DEPTH) return undefined;
    if (typeof schema.$ref === "string" && this.ctx.legacyRefs) return this.viaRef(schema, value, depth);
    const node = normalizeNode(schema);
    return all(Object.keys(node).map((k) => () => (k === "$ref" ? this.viaRef(schema, value, depth) : this.keyword(node, k, value, depth, schema))));
  }

  /** Whether `value` satisfies keyword `k` of `node` (a normalized node; `raw` is the node it was
   *  normalized from, which carries the base URI and the report's provenance). */
  keyword(node: Record<string, unknown>, k: string, value: unknown, depth = 0, raw: object = node): Verdict {
    if (isAnnotationKeyword(k)) return true;
    const sub = (schema: unknown, v: unknown): Verdict => this.satisfies(schema, v, depth + 1);
    switch (k) {
      case "type": {
        const types = Array.isArray(node.type) ? node.type : [node.type];
        return some(types.map((t) => () => hasType(value, t)));
      }
      case "enum":
        return Array.isArray(node.enum) ? node.enum.some((v) => jsonEqual(v, value)) : undefined;
      case "nullable":
        // normalizeNode folded `nullable: true` into `type`; alone, ajv rejects the schema.
        return "type" in node ? true : undefined;
      case "not":
        return this.judge(raw, "not", negated(sub(node.not, value)));
      case "allOf":
        return Array.isArray(node.allOf) ? all(node.allOf.map((s) => () => sub(s, value))) : undefined;
      case "anyOf":
        return Array.isArray(node.anyOf) ? some(node.anyOf.map((s) => () => sub(s, value))) : undefined;
      case "oneOf":
        return Array.isArray(node.oneOf) ? this.judge(raw, "oneOf", exactlyOne(node.oneOf.map((s) => sub(s, value)))) : undefined;
      default:
        return this.shapeKeyword(node, k, value, sub);
    }
  }

  private viaRef(schema: Record<string, unknown>, value: unknown, depth: number): Verdict {
    if (typeof schema.$ref !== "string") return undefined;
    const target = this.ctx.resolver.resolve(schema.$ref, schema, this.pointer);
    return this.satisfies(target.node, value, depth + 1);
  }

  private judge(node: object, keyword: "not" | "oneOf", verdict: Verdict): Verdict {
    if (verdict !== undefined) this.judged.push([node, keyword]);
    return verdict;
  }

  /** Keywords that constrain one type of value (every other type satisfies them). */
  private shapeKeyword(node: Record<string, unknown>, k: string, value: unknown, sub: (s: unknown, v: unknown) => Verdict): Verdict {
    const bound = node[k];
    if (typeof value === "string") return stringKeyword(k, bound, value);
    if (typeof value === "number") return numberKeyword(k, bound, value);
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

const STRING_KEYWORDS = ["minLength", "maxLength", "pattern"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const ARRAY_KEYWORDS = ["prefixItems", "items", "minItems", "maxItems", "uniqueItems"];
const OBJECT_KEYWORDS = ["required", "properties", "patternProperties", "additionalProperties", "propertyNames", "minProperties", "maxProperties"];

/** The type a decided keyword constrains; undefined for keywords this module does not decide. */
function appliesTo(k: string): string | undefined {
  if (STRING_KEYWORDS.includes(k)) return "string";
  if (NUMBER_KEYWORDS.includes(k)) return "number";
  if (ARRAY_KEYWORDS.includes(k)) return "array";
  if (OBJECT_KEYWORDS.includes(k)) return "object";
  return undefined;
}

function stringKeyword(k: string, bound: unknown, value: string): Verdict {
  if (appliesTo(k) !== "string") return appliesTo(k) === undefined ? undefined : true;
  if (k === "pattern") return testRegex(bound, value);
  if (!isCount(bound)) return undefined;
  const length = [...value].length; // code points, as ajv counts
  return k === "minLength" ? length >= bound : length <= bound;
}

function numberKeyword(k: string, bound: unknown, value: number): Verdict {
  if (appliesTo(k) !== "number") return appliesTo(k) === undefined ? undefined : true;
  if (typeof bound !== "number") return undefined;
  if (k === "minimum") return value >= bound;
  if (k === "maximum") return value <= bound;
  if (k === "exclusiveMinimum") return value > bound;
  return value < bound;
}

function arrayKeyword(node: Record<string, unknown>, k: string, value: readonly unknown[], sub: (s: unknown, v: unknown) => Verdict): Verdict {
  if (appliesTo(k) !== "array") return appliesTo(k) === undefined ? undefined : true;
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  switch (k) {
    case "prefixItems":
      return all(value.slice(0, prefix.length).map((v, i) => () => sub(prefix[i], v)));
    case "items":
      return all(value.slice(prefix.length).map((v) => () => sub(node.items, v)));
    case "uniqueItems":
      return node.uniqueItems !== true || value.every((v, i) => value.findIndex((w) => jsonEqual(v, w)) === i);
    default: {
      const bound = node[k];
      if (!isCount(bound)) return undefined;
      return k === "minItems" ? value.length >= bound : value.length <= bound;
    }
  }
}

function objectKeyword(node: Record<string, unknown>, k: string, value: Record<string, unknown>, sub: (s: unknown, v: unknown) => Verdict): Verdict {
  if (appliesTo(k) !== "object") return appliesTo(k) === undefined ? undefined : true;
  const names = Object.keys(value);
  const declared = isRecord(node.properties) ? node.properties : {};
  const patterns = isRecord(node.patternProperties) ? node.patternProperties : {};
  const has = (o: Record<string, unknown>, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);
  switch (k) {
    case "required":
      return Array.isArray(node.required) ? node.required.every((r) => typeof r === "string" && has(value, r)) : undefined;
    case "properties":
      return all(names.filter((n) => has(declared, n)).map((n) => () => sub(declared[n], value[n])));
    case "patternProperties":
      return all(names.flatMap((n) => Object.keys(patterns).map((p) => () => then(testRegex(p, n), () => sub(patterns[p], value[n])))));
    case "additionalProperties":
      return all(names.filter((n) => !has(declared, n)).map((n) => () => {
        const matched = some(Object.keys(patterns).map((p) => () => testRegex(p, n)));
        return matched === undefined ? undefined : matched || sub(node.additionalProperties, value[n]);
      }));
    case "propertyNames":
      return all(names.map((n) => () => sub(node.propertyNames, n)));
    default: {
      const bound = node[k];
      if (!isCount(bound)) return undefined;
      return k === "minProperties" ? names.length >= bound : names.length <= bound;
    }
  }
}

/** "if `condition` then `verdict`", three-valued. */
function then(condition: Verdict, verdict: () => Verdict): Verdict {
  if (condition === false) return true;
  const v = verdict();
  return condition === true ? v : v === true ? true : undefined;
}
