/**
 * Object subschemas. With propertyOrder "any" (opt-in; the default is "declared") the members and
 * additional entries come in any order (any-order.ts) within its bounds; otherwise, and past
 * them: declared properties come first, in schema order; optional ones may be left out (the
 * comma placement is handled by a "has anything been written yet" split up to the first
 * required property); then additional entries (patternProperties and additionalProperties),
 * whose keys exclude the declared names and, for additionalProperties, the patterns.
 * Keys are canonical JSON strings. Duplicate additional keys are not excluded by the grammar
 * (checked after decoding). min/maxProperties and dependencies (dependencies.ts) are presence
 * rules over that order, enforced by a bounded automaton of written/left-out choices
 * (presence.ts) unless the plain shape already meets them; over its budget the counts are
 * enforced only when the shape decides them (all declared properties required, or none).
 * In extraction mode each declared value may also be `null` (the null escape).
 */

import { SchemaError } from "../errors.js";
import { jsonString, lit, optional, ref, repeat, type Expr } from "../grammar/index.js";
import { childPointer, isRecord, keywordSpec, keywordsWhere, SchemaNode } from "../schema/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { readDependencies, type Dependencies } from "./dependencies.js";
import { cat, union } from "./format.js";
import { patternRegions } from "./pattern-regions.js";
import { bothPatterns, checkPattern, testPattern } from "./patterns.js";
import { ANY_ORDER_LIMITS, anyOrderBody, orderIsFree } from "./any-order.js";
import { OVER_BUDGET, presenceBody, type Member, type PresenceRules } from "./presence.js";
import { asksSomeEntry, someEntryBody, type EntrySlot, type KeyOptions } from "./some-entry.js";

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

  // Declared entries: schema order, then required names that are not declared (in required order),
  // then the other names dependencies mention (declared, so that no additional key spells them).
  const dependencies = readDependencies(node, !ctx.legacyRefs);
  if (ctx.legacyRefs) for (const k of NEWER_DEPENDENCIES) if (node.has(k)) ctx.report.set(pointer, k, "annotation", "not a keyword before draft 2019-09; ignored, as the validator does");
  const names = [...properties.keys(), ...required.filter((r) => !properties.has(r)), ...dependencies.names.filter((d) => !properties.has(d))];
  const entries: Member[] = [];
  // Where each entry's value comes from, for an object `not` met by some entry (some-entry.ts).
  const slots = node.has("not") && asksSomeEntry(node) ? { members: [] as EntrySlot[], extras: [] as (EntrySlot & { keys: KeyOptions })[] } : undefined;
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
    slots?.members.push({ schema, pointer: ptr, instancePath: childPointer(instancePath, name) });
    if (value === null) {
      if (isRequired) return ctx.unsat(`required property "${name}" can have no value`, "required", pointer);
      entries.push({ name, expr: null, required: false });
      continue;
    }
    let v = ctx.outline(value, `value-${name}`);
    if (ctx.options.nullEscape && declared && !admitsNull(properties.get(name))) {
      v = union([value, lit("null")])!;
      ctx.nullEscapes.push({ instancePath: childPointer(instancePath, name), schemaPointer: ptr });
    }
    entries.push({ name, expr: cat(lit(JSON.stringify(name)), ctx.punct(":"), v), required: isRequired });
  }

  // Additional entries: one alternative per pattern, then additionalProperties for the rest.
  // Open keys never spell "__proto__" in extraction mode (JSON.parse keeps it, but most code
  // that copies the result, zod's record parsing included, would set a prototype instead).
  const declaredNames = ctx.extraction ? [...uniqueNames, PROTO] : uniqueNames;
  const regions = patternRegions(patterns, patternProps);
  const extraParts: (Expr | null)[] = (regions ?? patterns.map((p) => ({ pattern: p, excludePatterns: [], patterns: [p] }))).map((region) => {
    const schema = allOfOf(region.patterns.map((p) => patternProps.get(p)));
    const slot = { schema, pointer: childPointer(pointer, "patternProperties", region.patterns[0]!), instancePath: childPointer(instancePath, "*") };
    const value = compile(slot.schema, slot.pointer, slot.instancePath);
    if (value === null) return null;
    const excludePatterns = region.excludePatterns.length > 0 ? region.excludePatterns : undefined;
    const keyOptions = { pattern: region.pattern, exclude: declaredNames, excludePatterns };
    slots?.extras.push({ ...slot, keys: keyOptions });
    return cat(keyExpr(ctx, keys, pointer, keyOptions), ctx.punct(":"), ctx.outline(value, "value"));
  });
  if (regions === undefined) ctx.report.alsoAfter(pointer, "patternProperties", "a key matching several patterns with different schemas is checked against all of them after decoding");
  if (additional !== false) {
    const slot = { schema: additional, pointer: childPointer(pointer, "additionalProperties"), instancePath: childPointer(instancePath, "*"), keys: { exclude: declaredNames, excludePatterns: patterns } };
    const value = compile(slot.schema, slot.pointer, slot.instancePath);
    if (value !== null) {
      slots?.extras.push(slot);
      extraParts.push(cat(keyExpr(ctx, keys, pointer, slot.keys), ctx.punct(":"), ctx.outline(value, "value")));
    }
  }
  const extra = union(extraParts);
  if (extra !== null || !(additional === false && patterns.length === 0)) {
    ctx.report.set(pointer, "additionalProperties", "enforced", "duplicate keys are not excluded by the grammar (JSON parsers keep the last)");
  }
  const rules = { minProperties: minProps, maxProperties: maxProps, ...dependencies };
  if (slots !== undefined) {
    const layout = {
      members: entries.map((member, i) => ({ member, ...slots.members[i]! })),
      extras: slots.extras,
      extra,
      value: (schema: unknown, slot: EntrySlot) => compile(schema, slot.pointer, slot.instancePath),
      key: (options: KeyOptions, minLength: number, maxLength: number) => keyExpr(ctx, { ...keys, minLength: Math.max(keys.minLength, minLength), maxLength: Math.min(keys.maxLength, maxLength) }, pointer, options),
    };
    const witnessed = someEntryBody(ctx, node, layout, rules);
    if (witnessed === null) return ctx.unsat("no entry can meet the object's not", "not", pointer);
    if (witnessed !== undefined) return cat(ctx.punct("{"), witnessed, ctx.punct("}"));
  }
  const body = membersBody(ctx, node, entries, extra, rules);
  if (body === null) return null;
  return cat(ctx.punct("{"), body, ctx.punct("}"));
}

/**
 * The members and additional entries, with their presence constraints enforced by the presence
 * automaton where they are not already met by the plain shape (and the automaton stays in its
 * budget); otherwise the plain shape, with what it leaves out checked after decoding.
 */
function membersBody(ctx: CompileContext, node: SchemaNode, members: Member[], extra: Expr | null, rules: PresenceRules & Dependencies): Expr | null {
  const pointer = node.pointer;
  const writable = members.filter((m) => m.expr !== null) as { expr: Expr; required: boolean }[];
  const hasDependencies = rules.requires.size + rules.forbids.size + rules.absent.size > 0;
  const required = writable.filter((m) => m.required).length;
  const countsFree = rules.minProperties <= required && rules.maxProperties >= (extra === null ? writable.length : Infinity);
  const plain = !hasDependencies && (countsFree || required === writable.length);
  const anyOrder = ctx.options.propertyOrder === "any" && orderIsFree(writable.length, extra) ? anyOrderBody(ctx, members, extra, rules) : OVER_BUDGET;
  const unordered = anyOrder !== OVER_BUDGET;
  if (unordered && anyOrder.repeatable) ctx.report.set(pointer, "properties", "enforced", REPEATABLE_NAMES);
  const body = unordered ? anyOrder.body : plain ? undefined : presenceBody(ctx, members, extra, rules);
  const exact = body !== OVER_BUDGET;
  const over = unordered ? "presence rules over the set of keys written" : "presence rules over the fixed property order";
  for (const [keyword, entriesExact] of rules.keywords) {
    ctx.report.verdict(node.raw, keyword, exact && entriesExact, exact ? (entriesExact ? over : "only name lists and name-only schemas are enforced; the rest is checked after decoding") : PRESENCE_OVER_BUDGET, pointer);
  }
  for (const n of rules.negated) ctx.report.verdict(n, "not", exact, exact ? "a name that must not be written: a presence rule" : PRESENCE_OVER_BUDGET, pointer);
  if (body === undefined || body === OVER_BUDGET) {
    return objectBody(ctx, node, writable, extra, rules.minProperties, rules.maxProperties);
  }
  if (body === null) return ctx.unsat("no set of properties satisfies minProperties, maxProperties and the dependencies", node.has("minProperties") ? "minProperties" : hasDependencies ? [...rules.keywords.keys()][0]! : "maxProperties", pointer);
  return body;
}

const COUNT_KEYWORDS = ["minProperties", "maxProperties"] as const;
/** The dependency keywords draft 2019-09 introduced. */
const NEWER_DEPENDENCIES = keywordsWhere((s, k) => s.family === "dependencies" && k !== "dependencies");
const REPEATABLE_NAMES = `keys in any order; past ${ANY_ORDER_LIMITS.maxStatesPerObject} sets of written names, the optional names no other keyword constrains are not kept from repeating by the grammar (JSON parsers keep the last value)`;
const PRESENCE_OVER_BUDGET = `the presence rules over the optional properties need more than ${LIMITS.maxPresenceStates} grammar states; checked after decoding`;

function keyExpr(ctx: CompileContext, keys: KeyRule, pointer: string, opts: { pattern?: string; exclude: readonly string[]; excludePatterns?: readonly string[] }): Expr {
  if (keys.names !== undefined) {
    const fits = (n: string): boolean =>
      !opts.exclude.includes(n) && keyAllowed(keys, n) && (opts.pattern === undefined || testPattern(opts.pattern, n)) && !(opts.excludePatterns ?? []).some((q) => testPattern(q, n));
    return union(keys.names.filter(fits).map((n) => lit(JSON.stringify(n)))) ?? jsonString({ maxLength: 0, exclude: [""] });
  }
  let pattern = opts.pattern ?? keys.pattern;
  if (opts.pattern !== undefined && keys.pattern !== undefined && keys.pattern !== opts.pattern) {
    pattern = bothPatterns(opts.pattern, keys.pattern);
    if (pattern === undefined) {
      ctx.report.set(childPointer(pointer, "propertyNames"), "pattern", "validatedAfter", "keys matching patternProperties are checked against propertyNames.pattern after decoding");
      pattern = opts.pattern;
    }
  }
  return jsonString({ minLength: keys.minLength, maxLength: keys.maxLength, pattern, exclude: opts.exclude, excludePatterns: opts.excludePatterns });
}

/**
 * The inside of `{...}` (possibly empty); null when no member list satisfies the bounds.
 */
function objectBody(ctx: CompileContext, node: SchemaNode, entries: { expr: Expr; required: boolean }[], extra: Expr | null, minProps: number, maxProps: number): Expr | null {
  const pointer = node.pointer;
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
      for (const k of COUNT_KEYWORDS) if (node.has(k)) ctx.report.verdict(node.raw, k, false, "with optional properties the count is checked after decoding", pointer);
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
