/**
 * `not` rewritten as a positive schema with exactly the same instances, where one is known. A
 * schema is the conjunction of its keywords (annotations aside), so `not` of it is the union of
 * its keywords' negations, each being:
 *   true -> false, false -> true, {} -> false;
 *   type T -> the other types ("integer" has no complement: no type says "non-integer number");
 *   enum V (type-filtered) -> the other types, the other boolean, and the strings not in V, kept as
 *     `{type: "string", not: {enum: strings}}`, which the compiler applies as the string token's
 *     exclusion list; a number, array or object in V has no exact complement;
 *   not X -> X; anyOf [A..] -> allOf [not A..]; allOf [A..] -> anyOf [not A..];
 *   $ref -> not of its target (its siblings are keywords like any other, or ignored before 2019-09);
 *   required [a, ..] -> an object without a (`properties: {a: false}`), or ...;
 *   properties {p: S, ..} -> an object whose p is not S, or ...;
 *   minLength n -> a string with maxLength n-1 (and so for the other counts and numeric bounds);
 *   items: false -> a non-empty array.
 * Anything else (oneOf, pattern, format, multipleOf, patternProperties, contains, if, ...) has no
 * exact positive form here; the compiler then checks the `not` after decoding.
 */

import { jsonString, type Expr } from "../grammar/ir.js";
import { LIMITS, type CompileContext } from "./context.js";
import { isAnnotationKeyword } from "./keywords.js";
import { enumOnly } from "./merge.js";
import { normalizeNode } from "./normalize.js";
import type { JsonSchema } from "./types.js";
import { typesOf } from "./values.js";

export interface Negation {
  readonly schema: JsonSchema;
  /** Nodes whose own `not` the rewriting took apart (exact in this use). */
  readonly consumed: readonly object[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const TYPE_NAMES = ["null", "boolean", "object", "array", "string", "number"] as const;

/** Count keywords: the type they constrain and their opposite bound. */
const COUNT_OPPOSITES: Record<string, readonly [string, string, number]> = {
  minLength: ["string", "maxLength", -1], maxLength: ["string", "minLength", 1],
  minItems: ["array", "maxItems", -1], maxItems: ["array", "minItems", 1],
  minProperties: ["object", "maxProperties", -1], maxProperties: ["object", "minProperties", 1],
};
const BOUND_OPPOSITES: Record<string, string> = {
  minimum: "exclusiveMaximum", exclusiveMinimum: "maximum", maximum: "exclusiveMinimum", exclusiveMaximum: "minimum",
};

export function negate(ctx: CompileContext, schema: unknown, pointer: string): Negation | undefined {
  const consumed: object[] = [];
  const out = new Negator(ctx, pointer, consumed).negate(schema, 0);
  return out === undefined ? undefined : { schema: out, consumed };
}

/** The strings of a `not` the string compiler applies itself: `{enum: [strings]}` or `{const: string}`. */
export function stringExclusion(not: unknown): readonly string[] | undefined {
  const values = enumOnly(not);
  return values?.every((v): v is string => typeof v === "string") ? values : undefined;
}

/** A string expression without `values`, where the string token can say so (not a format's grammar). */
export function excludeStrings(expr: Expr, values: readonly string[]): Expr | undefined {
  if (expr.kind !== "jsonString") return undefined;
  const { minLength, maxLength, pattern, exclude, excludePatterns, substringOf } = expr;
  return jsonString({ minLength, maxLength, pattern, exclude: [...(exclude ?? []), ...values], excludePatterns, substringOf });
}

/** At least one of `parts` (false parts drop out, a true part makes it true). */
function anyOfOf(parts: readonly JsonSchema[]): JsonSchema {
  if (parts.includes(true)) return true;
  const rest = parts.filter((p) => p !== false);
  return rest.length === 0 ? false : rest.length === 1 ? rest[0] : { anyOf: rest };
}

const asSchema = (v: unknown): JsonSchema | undefined => (typeof v === "boolean" || isRecord(v) ? v : undefined);

class Negator {
  constructor(private readonly ctx: CompileContext, private readonly pointer: string, private readonly consumed: object[]) {}

  negate(schema: unknown, depth: number): JsonSchema | undefined {
    if (typeof schema === "boolean") return !schema;
    if (!isRecord(schema) || depth > LIMITS.maxInlineDepth) return undefined;
    if (typeof schema.$ref === "string" && this.ctx.legacyRefs) return this.negateRef(schema, depth);
    const node = normalizeNode(schema);
    const parts: JsonSchema[] = [];
    for (const k of Object.keys(node)) {
      // enum already holds only values of the allowed types; `nullable: true` is folded into type.
      if (isAnnotationKeyword(k) || (k === "type" && "enum" in node) || (k === "nullable" && "type" in node)) continue;
      const part = k === "$ref" ? this.negateRef(schema, depth) : this.negateKeyword(node, k, schema, depth);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return anyOfOf(parts);
  }

  private negateRef(schema: Record<string, unknown>, depth: number): JsonSchema | undefined {
    if (typeof schema.$ref !== "string") return undefined;
    return this.negate(this.ctx.resolver.resolve(schema.$ref, schema, this.pointer).node, depth + 1);
  }

  private negateAll(schemas: unknown, depth: number): JsonSchema[] | undefined {
    if (!Array.isArray(schemas)) return undefined;
    const out: JsonSchema[] = [];
    for (const s of schemas) {
      const n = this.negate(s, depth + 1);
      if (n === undefined) return undefined;
      out.push(n);
    }
    return out;
  }

  private negateKeyword(node: Record<string, unknown>, k: string, raw: object, depth: number): JsonSchema | undefined {
    const v = node[k];
    switch (k) {
      case "type":
        return complementTypes(v);
      case "enum":
        return Array.isArray(v) ? complementValues(v.filter((x) => node.type === undefined || typesOf(x).some((t) => [node.type].flat().includes(t)))) : undefined;
      case "not":
        this.consumed.push(raw);
        return asSchema(v);
      case "anyOf": {
        const parts = this.negateAll(v, depth);
        return parts === undefined ? undefined : { allOf: parts };
      }
      case "allOf": {
        const parts = this.negateAll(v, depth);
        return parts === undefined ? undefined : anyOfOf(parts);
      }
      case "required":
        return Array.isArray(v) && v.every((r): r is string => typeof r === "string") ? anyOfOf(v.map((r) => ({ type: "object", properties: { [r]: false } }))) : undefined;
      case "properties":
        return isRecord(v) ? this.negateProperties(v, depth) : undefined;
      case "items":
        // With prefixItems, `items` covers only the rest; `items: true` says nothing.
        return "prefixItems" in node ? undefined : v === false ? { type: "array", minItems: 1 } : v === true ? false : undefined;
      case "uniqueItems":
        return v === false ? false : undefined;
      default:
        return k in COUNT_OPPOSITES ? flipCount(k, v) : k in BOUND_OPPOSITES && typeof v === "number" ? { type: "number", [BOUND_OPPOSITES[k]]: v } : undefined;
    }
  }

  /** Some declared property is present with a value its schema rejects. */
  private negateProperties(properties: Record<string, unknown>, depth: number): JsonSchema | undefined {
    const parts: JsonSchema[] = [];
    for (const [name, s] of Object.entries(properties)) {
      const n = this.negate(s, depth + 1);
      if (n === undefined) return undefined;
      parts.push(n === false ? false : { type: "object", required: [name], properties: { [name]: n } });
    }
    return anyOfOf(parts);
  }
}

function complementTypes(t: unknown): JsonSchema | undefined {
  const list = Array.isArray(t) ? t : [t];
  if (!list.every((x) => typeof x === "string" && (x === "integer" || (TYPE_NAMES as readonly string[]).includes(x)))) return undefined;
  if (list.includes("integer") && !list.includes("number")) return undefined;
  const rest = TYPE_NAMES.filter((x) => !list.includes(x));
  return rest.length === 0 ? false : { type: rest };
}

/** Every value but `values`: exact when they are nulls, booleans and strings only. */
function complementValues(values: readonly unknown[]): JsonSchema | undefined {
  const kinds = new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
  if (kinds.has("number") || kinds.has("array") || kinds.has("object")) return undefined;
  const booleans = values.filter((v): v is boolean => typeof v === "boolean");
  const strings = values.filter((v): v is string => typeof v === "string");
  const otherTypes = TYPE_NAMES.filter((t) => !kinds.has(t));
  const parts: JsonSchema[] = [{ type: otherTypes }];
  if (booleans.length > 0 && !(booleans.includes(true) && booleans.includes(false))) parts.push({ enum: [!booleans[0]] });
  if (strings.length > 0) parts.push({ type: "string", not: { enum: strings } });
  return anyOfOf(parts);
}

/** not (minX n) = of that type with maxX n-1 (nothing when n = 0); not (maxX n) = minX n+1. */
function flipCount(k: string, n: unknown): JsonSchema | undefined {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) return undefined;
  const [type, opposite, step] = COUNT_OPPOSITES[k];
  if (n + step < 0) return false;
  return { type, [opposite]: n + step };
}
