/**
 * Object subschemas. Declared properties come first, in schema order; optional ones may be
 * left out (the comma placement is handled by a "has anything been written yet" split up to the
 * first required property); then additional entries (patternProperties and additionalProperties),
 * whose keys exclude the declared names and, for additionalProperties, the patterns.
 * Keys are canonical JSON strings. Duplicate additional keys are not excluded by the grammar
 * (checked after decoding). min/maxProperties are enforced when the count is decidable from
 * the shape (all declared properties required, or no declared ones); otherwise checked after.
 * In extraction mode each declared value may also be `null` (the null escape).
 */

import { SchemaError } from "../errors.js";
import { jsonString, lit, optional, ref, repeat, type Expr } from "../grammar/index.js";
import { childPointer, isRecord, keywordSpec, SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";
import { checkPattern, testPattern } from "./patterns.js";

const PROTO = "__proto__";
const NO_SCHEMAS: ReadonlyMap<string, unknown> = new Map();

export type CompileFn = (schema: unknown, pointer: string, instancePath: string) => Expr | null;

interface KeyRule {
  readonly minLength: number;
  readonly maxLength: number;
  readonly pattern?: string;
  readonly names?: readonly string[];
}

/** The subset of `propertyNames` the grammar can apply to keys. */
function keyRule(ctx: CompileContext, node: SchemaNode): KeyRule | null {
  const pn = node.get("propertyNames");
  const ptr = childPointer(node.pointer, "propertyNames");
  const defaultMax = ctx.extraction ? ctx.options.defaultMaxStringLength : Infinity;
  if (pn === undefined || pn === true) return { minLength: 0, maxLength: defaultMax };
  if (pn === false) return null;
  if (!isRecord(pn)) throw new SchemaError("SCHEMA_INVALID", "propertyNames must be a schema", { keyword: "propertyNames", pointer: node.pointer });
  const names = new SchemaNode(pn, ptr);
  const rule: { minLength: number; maxLength: number; pattern?: string; names?: string[] } = {
    minLength: names.get("minLength") ?? 0,
    maxLength: names.get("maxLength") ?? defaultMax,
  };
  const pattern = names.get("pattern");
  if (pattern !== undefined) rule.pattern = checkPattern(pattern, "pattern", ptr);
  const values = names.has("const") ? [names.get("const")] : names.peek("enum");
  if (values !== undefined) rule.names = values.filter((v): v is string => typeof v === "string");
  for (const k of names.keywords()) {
    if (keywordSpec(k)?.onKeys !== true) {
      ctx.report.set(ptr, k, "validatedAfter", "propertyNames: only length, pattern and enum apply to keys in the grammar");
    }
  }
  return rule;
}

function keyAllowed(rule: KeyRule, name: string): boolean {
  const len = [...name].length;
  return len >= rule.minLength && len <= rule.maxLength && (rule.pattern === undefined || testPattern(rule.pattern, name)) && (rule.names === undefined || rule.names.includes(name));
}

const allOfOf = (parts: unknown[]): unknown => (parts.length === 1 ? parts[0] : { allOf: parts });

/** Whether a schema obviously admits null already (then no escape is needed or recorded). */
function admitsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  const node = new SchemaNode(schema, "");
  if (node.peek("type")?.has("null") === true || node.get("nullable") === true) return true;
  if (node.peek("enum")?.includes(null) === true) return true;
  return [node.peek("anyOf"), node.peek("oneOf")].some((b) => b?.some(admitsNull) === true);
}

export function compileObject(ctx: CompileContext, node: SchemaNode, instancePath: string, compile: CompileFn): Expr | null {
  const pointer = node.pointer;
  const properties = node.get("properties") ?? NO_SCHEMAS;
  const patternProps = node.get("patternProperties") ?? NO_SCHEMAS;
  const patterns = [...patternProps.keys()].map((p) => checkPattern(p, "patternProperties", pointer));
  const required = node.get("required") ?? [];
  const requiredSet = new Set(required);
  const additional: unknown = node.get("additionalProperties") ?? (ctx.extraction ? false : true);
  const keys = keyRule(ctx, node);
  const minProps = node.get("minProperties") ?? 0;
  const maxProps = node.get("maxProperties") ?? Infinity;
  if (minProps > maxProps) return ctx.unsat("minProperties > maxProperties", "minProperties", pointer);
  if (keys === null) {
    // propertyNames: false allows only the empty object.
    if (requiredSet.size > 0 || minProps > 0) return ctx.unsat("propertyNames is false but properties are required", "propertyNames", pointer);
    return cat(ctx.punct("{"), ctx.punct("}"));
  }

  // Declared entries: schema order, then required names that are not declared (in required order).
  const names = [...properties.keys(), ...required.filter((r) => !properties.has(r))];
  const entries: { expr: Expr; required: boolean }[] = [];
  const uniqueNames = [...new Set(names)];
  if (uniqueNames.includes(PROTO)) {
    // Ajv drops "__proto__" from properties and required, and JavaScript objects read it as
    // their prototype: the field could be neither validated nor returned faithfully.
    throw new SchemaError("SCHEMA_UNSUPPORTED", `a property named "${PROTO}" cannot be validated or returned as data (it is JavaScript's prototype accessor); rename the field`, {
      keyword: properties.has(PROTO) ? "properties" : "required",
      pointer,
    });
  }
  ctx.countProperties(uniqueNames.length, pointer);
  for (const name of uniqueNames) {
    const isRequired = requiredSet.has(name);
    const declared = properties.has(name);
    const matching = patterns.filter((p) => testPattern(p, name));
    let schema: unknown;
    let ptr: string;
    if (declared) {
      schema = allOfOf([properties.get(name), ...matching.map((p) => patternProps.get(p))]);
      ptr = childPointer(pointer, "properties", name);
    } else {
      schema = matching.length > 0 ? allOfOf(matching.map((p) => patternProps.get(p))) : additional;
      const firstMatch = matching[0];
      ptr = firstMatch !== undefined ? childPointer(pointer, "patternProperties", firstMatch) : childPointer(pointer, "additionalProperties");
    }
    const value = keyAllowed(keys, name) ? compile(schema, ptr, childPointer(instancePath, name)) : ctx.unsat(`"${name}" violates propertyNames`, "propertyNames", pointer);
    if (value === null) {
      if (isRequired) return ctx.unsat(`required property "${name}" can have no value`, "required", pointer);
      continue;
    }
    let v = ctx.outline(value, `value-${name}`);
    if (ctx.options.nullEscape && declared && !admitsNull(properties.get(name))) {
      v = union([value, lit("null")])!;
      ctx.nullEscapes.push({ instancePath: childPointer(instancePath, name), schemaPointer: ptr });
    }
    entries.push({ expr: cat(lit(JSON.stringify(name)), ctx.punct(":"), v), required: isRequired });
  }

  // Additional entries: one alternative per pattern, then additionalProperties for the rest.
  // Open keys never spell "__proto__" in extraction mode (JSON.parse keeps it, but most code
  // that copies the result, zod's record parsing included, would set a prototype instead).
  const declaredNames = ctx.extraction ? [...uniqueNames, PROTO] : uniqueNames;
  const extraParts: (Expr | null)[] = patterns.map((p) => {
    const value = compile(patternProps.get(p), childPointer(pointer, "patternProperties", p), childPointer(instancePath, "*"));
    if (value === null) return null;
    return cat(keyExpr(ctx, keys, pointer, { pattern: p, exclude: declaredNames }), ctx.punct(":"), ctx.outline(value, "value"));
  });
  if (patterns.length > 1) ctx.report.alsoAfter(pointer, "patternProperties", "a key matching several patterns is checked against all of them after decoding");
  if (additional !== false) {
    const value = compile(additional, childPointer(pointer, "additionalProperties"), childPointer(instancePath, "*"));
    if (value !== null) extraParts.push(cat(keyExpr(ctx, keys, pointer, { exclude: declaredNames, excludePatterns: patterns }), ctx.punct(":"), ctx.outline(value, "value")));
  }
  const extra = union(extraParts);
  if (extra !== null || !(additional === false && patterns.length === 0)) {
    ctx.report.set(pointer, "additionalProperties", "enforced", "duplicate keys are not excluded by the grammar (JSON parsers keep the last)");
  }
  const body = objectBody(ctx, entries, extra, minProps, maxProps, pointer);
  if (body === null) return null;
  return cat(ctx.punct("{"), body, ctx.punct("}"));
}

function keyExpr(ctx: CompileContext, keys: KeyRule, pointer: string, opts: { pattern?: string; exclude: string[]; excludePatterns?: string[] }): Expr {
  if (keys.names !== undefined) {
    return union(keys.names.filter((n) => !opts.exclude.includes(n) && keyAllowed(keys, n)).map((n) => lit(JSON.stringify(n)))) ?? jsonString({ maxLength: 0, exclude: [""] });
  }
  let pattern = opts.pattern ?? keys.pattern;
  if (opts.pattern !== undefined && keys.pattern !== undefined && keys.pattern !== opts.pattern) {
    ctx.report.set(childPointer(pointer, "propertyNames"), "pattern", "validatedAfter", "keys matching patternProperties are checked against propertyNames.pattern after decoding");
    pattern = opts.pattern;
  }
  return jsonString({ minLength: keys.minLength, maxLength: keys.maxLength, pattern, exclude: opts.exclude, excludePatterns: opts.excludePatterns });
}

/**
 * The inside of `{...}` (possibly empty); null when no member list satisfies the bounds.
 */
function objectBody(ctx: CompileContext, entries: { expr: Expr; required: boolean }[], extra: Expr | null, minProps: number, maxProps: number, pointer: string): Expr | null {
  const sep = ctx.punct(",");
  const n = entries.length;
  const r = entries.filter((e) => e.required).length;
  let extraMin = 0;
  let extraMax = extra === null ? 0 : Infinity;
  const trivially = minProps <= r && maxProps >= n + extraMax;
  if (!trivially) {
    if (r === n) {
      extraMin = Math.max(0, minProps - r);
      extraMax = Math.min(extraMax, maxProps - r);
      if (extraMax < extraMin) return ctx.unsat("minProperties/maxProperties cannot be met", maxProps < r ? "maxProperties" : "minProperties", pointer);
    } else {
      for (const k of ["minProperties", "maxProperties"]) ctx.report.set(pointer, k, "validatedAfter", "with optional properties the count is checked after decoding");
    }
  }
  // tail(i): entries i.. each preceded by a comma, then the extra entries each preceded by one.
  const extraTail = extra === null || extraMax === 0 ? null : repeat(cat(sep, extra), Math.max(0, extraMin - (n === 0 ? 1 : 0)), n === 0 ? extraMax - 1 : extraMax);
  const firstRequired = entries.findIndex((e) => e.required);
  const leading = firstRequired === -1 ? n : firstRequired + 1;
  // With several possible first entries the tails are shared, so they become named rules and
  // the grammar stays linear in the number of properties.
  const tailAt: (Expr | null)[] = [];
  tailAt[n] = extraTail;
  for (let i = n - 1; i >= 1; i--) {
    const entry = entries[i]!;
    const item = cat(sep, entry.expr);
    const body = cat(entry.required ? item : optional(item), tailAt[i + 1] ?? null);
    if (leading > 1) {
      const name = ctx.ruleName("obj-tail");
      ctx.rules.set(name, body);
      tailAt[i] = ref(name);
    } else tailAt[i] = body;
  }
  const alternatives: Expr[] = [];
  for (let f = 0; f < leading; f++) alternatives.push(cat(entries[f]!.expr, tailAt[f + 1] ?? null));
  if (firstRequired === -1) {
    if (extra !== null && extraMax > 0) alternatives.push(cat(extra, extraTail));
    if (extraMin === 0) return union(alternatives) === null ? cat() : optional(union(alternatives)!);
  }
  return union(alternatives);
}
