/**
 * An object whose `not` says "some entry fails this" (entry-forms.ts: not patternProperties, not
 * additionalProperties, not propertyNames, or an anyOf of them, each condition to be met by some
 * entry), written exactly by the object grammar. An entry meets a condition when its key fits
 * the condition's keys and its value satisfies the negation of what it fails (negate.ts). Each
 * member and each additional entry gets, besides its plain form, a form per set of conditions it
 * may meet (its value schema and those negations), and the members in their fixed order, then
 * the additional entries, carry the set of conditions met so far and the entries written (capped,
 * for min/maxProperties); the object closes only when all are met, within the counts. Without an
 * exact negation, past the limits below, or beside dependencies (presence.ts), the `not` is
 * checked after decoding.
 */

import { SchemaError } from "../errors.js";
import { empty, lit, never, optional, ref, repeat, type Expr } from "../grammar/index.js";
import type { JsonSchema, SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { keysAdmit, someEntryConditions, type EntryKeys } from "./entry-forms.js";
import { cat, union } from "./format.js";
import { negate, recordConsumed, type Consumed } from "./negate.js";
import { bothPatterns } from "./patterns.js";
import { asStateRule, type Member, type PresenceRules } from "./presence.js";

/** Conditions of one object (a bit each: 2^n states per position). */
const MAX_CONDITIONS = 3;
/** Forms of one entry that meet conditions (each compiles its value once more). */
const MAX_FORMS = 16;

/** The keys of a group of additional entries, as the object compiler spells them. */
export interface KeyOptions {
  readonly pattern?: string;
  readonly exclude: readonly string[];
  readonly excludePatterns?: readonly string[];
}

/** Where an entry's value schema comes from. */
export interface EntrySlot {
  readonly schema: unknown;
  readonly pointer: string;
  readonly instancePath: string;
}

/** What the object compiler knows of its entries: where each value's schema comes from, how keys are spelled. */
export interface ObjectLayout {
  readonly members: readonly (EntrySlot & { readonly member: Member })[];
  readonly extras: readonly (EntrySlot & { readonly keys: KeyOptions })[];
  /** The plain additional entry (any of them), null when there is none. */
  readonly extra: Expr | null;
  readonly value: (schema: unknown, slot: EntrySlot) => Expr | null;
  /** Additional keys with these options, within these lengths too. */
  readonly key: (keys: KeyOptions, minLength: number, maxLength: number) => Expr;
}

/** Whether `node` is an object whose `not` is "some entry" (the object compiler writes it). */
export function asksSomeEntry(node: SchemaNode): boolean {
  const types = node.get("type");
  return types !== undefined && types.size === 1 && types.has("object") && someEntryConditions(node.get("not")) !== undefined;
}

interface Condition {
  readonly entries: readonly { readonly keys: EntryKeys; readonly value: JsonSchema }[];
}

/** One entry form: the conditions it meets (a bit each) and its expression. */
interface EntryForm {
  readonly met: number;
  readonly expr: Expr;
}

const GIVE_UP = Symbol("no exact form");

/**
 * The inside of `{...}` for `layout` with `node`'s `not` (asksSomeEntry) met by some entries,
 * null when no object can meet it; undefined (the `not` reported as checked after decoding, the
 * compile rolled back to where it was) when it has no exact form here.
 */
export function someEntryBody(ctx: CompileContext, node: SchemaNode, layout: ObjectLayout, rules: PresenceRules): Expr | null | undefined {
  const pointer = node.pointer;
  const restore = ctx.checkpoint();
  const consumed: Consumed[] = [];
  try {
    const conditions = rules.requires.size + rules.forbids.size + rules.absent.size === 0 ? negatedConditions(ctx, node, consumed) : undefined;
    if (conditions === undefined) throw GIVE_UP;
    const body = entriesBody(ctx, conditions, layout, rules);
    ctx.report.verdict(node.raw, "not", true, "some entry fails the keyword: the object grammar requires one", pointer);
    recordConsumed(ctx, consumed, pointer);
    return body;
  } catch (err) {
    if (err !== GIVE_UP && !(err instanceof SchemaError)) throw err;
    restore();
    ctx.report.verdict(node.raw, "not", false, "some entry fails the keyword, with no exact form here; checked after decoding", pointer);
    return undefined;
  }
}

/** The conditions with each failing value's negation; undefined when one has none or there are too many. */
function negatedConditions(ctx: CompileContext, node: SchemaNode, consumed: Consumed[]): Condition[] | undefined {
  const conditions = someEntryConditions(node.get("not"));
  if (conditions === undefined || conditions.length > MAX_CONDITIONS) return undefined;
  const out: Condition[] = [];
  for (const entries of conditions) {
    const negated: { keys: EntryKeys; value: JsonSchema }[] = [];
    for (const { keys, fails, negatedPatternOf } of entries) {
      const n = negate(ctx, fails, node.pointer);
      if (n === undefined) return undefined;
      consumed.push(...n.consumed);
      if (negatedPatternOf !== undefined) consumed.push({ node: negatedPatternOf, keyword: "not" });
      if (n.schema !== false) negated.push({ keys, value: n.schema });
    }
    out.push({ entries: negated });
  }
  return out;
}

function entriesBody(ctx: CompileContext, conditions: readonly Condition[], layout: ObjectLayout, bounds: PresenceRules): Expr | null {
  const all = (1 << conditions.length) - 1;
  const colon = ctx.punct(":");
  const memberForms = layout.members.map((slot) => {
    const name = slot.member.name;
    if (slot.member.expr === null) return [];
    return formsOf(conditions, (keys) => keys.every((k) => keysAdmit(k, name)), (values) => {
      const value = layout.value(both(slot.schema, values), slot);
      return value === null ? null : cat(lit(JSON.stringify(name)), colon, value);
    });
  });
  const extraForms = layout.extras.flatMap((slot) =>
    formsOf(conditions, () => true, (values, chosen) => {
      const restricted = restrictKeys(slot.keys, chosen);
      const value = restricted === null ? null : layout.value(both(slot.schema, values), slot);
      return value === null ? null : cat(layout.key(restricted!.keys, restricted!.minLength, restricted!.maxLength), colon, ctx.outline(value, "value"));
    }),
  );
  const sep = ctx.punct(",");
  const made: string[] = [];
  const extrasMet = extraForms.reduce((m, f) => m | f.met, 0);
  const plain = layout.extra;
  const { minProperties: min, maxProperties: max } = bounds;
  // Past `cap` entries the count no longer matters (the minimum is met and nothing bounds it, or
  // the commas only need "at least one"), as in presence.ts.
  const cap = max === Infinity ? Math.max(min, 1) : max;
  const next = (count: number): number => Math.min(count + 1, cap);
  const tails = new Map<string, Expr | null>();
  // The additional entries after the members: plain ones, and forms that meet what is left.
  const tail = (count: number, met: number): Expr | null => {
    const key = `${count}|${met}`;
    if (tails.has(key)) return tails.get(key)!;
    if ((met | extrasMet) !== all) return null;
    const lead = count > 0 ? sep : null;
    if (met === all) {
      const least = Math.max(0, min - count);
      const most = max - count;
      if (plain === null || most === 0) return least === 0 ? empty() : null;
      if (count > 0) return repeat(cat(sep, plain), least, most);
      const some = cat(plain, repeat(cat(sep, plain), Math.max(0, least - 1), most - 1));
      return least === 0 ? optional(some) : some;
    }
    if (count >= max) return null;
    // A rule of its own, named before its body: at the cap a plain entry leads back to it (below
    // it the count only grows, so no state refers to this one before its body is known).
    const name = ctx.ruleName("some-entry");
    made.push(name);
    ctx.rules.set(name, never());
    tails.set(key, ref(name));
    const options: (Expr | null)[] = [];
    for (const [expr, after] of [[plain, met] as const, ...extraForms.map((f) => [f.expr, met | f.met] as const)]) {
      const rest = expr === null ? null : tail(next(count), after);
      if (rest !== null) options.push(cat(lead, expr, rest));
    }
    const body = union(options);
    ctx.rules.set(name, body ?? never());
    tails.set(key, body === null ? null : ref(name));
    return tails.get(key)!;
  };
  const states = new Map<string, Expr | null>();
  const at = (i: number, count: number, met: number): Expr | null => {
    if (i === layout.members.length) return tail(count, met);
    const key = `${i}|${count}|${met}`;
    if (states.has(key)) return states.get(key)!;
    const { member } = layout.members[i]!;
    const lead = count > 0 ? sep : null;
    const options: (Expr | null)[] = [member.required ? null : at(i + 1, count, met)];
    const write = (expr: Expr, after: number): void => {
      const rest = count < max ? at(i + 1, next(count), after) : null;
      if (rest !== null) options.push(cat(lead, expr, rest));
    };
    if (member.expr !== null) write(member.expr, met);
    for (const f of memberForms[i]!) write(f.expr, met | f.met);
    let body = union(options);
    if (body !== null && i > 0) body = asStateRule(ctx, body, "some-entry", made);
    states.set(key, body);
    return body;
  };
  return at(0, 0, 0);
}

/**
 * An entry's forms: for each non-empty set of conditions, each choice of one entry rule per
 * condition whose keys `admits` accepts, built by `build` from the negations to satisfy and the
 * chosen keys (null: no such entry).
 */
function formsOf(conditions: readonly Condition[], admits: (keys: readonly EntryKeys[]) => boolean, build: (values: readonly JsonSchema[], keys: readonly EntryKeys[]) => Expr | null): EntryForm[] {
  const out: EntryForm[] = [];
  let built = 0;
  for (let met = 1; met < 1 << conditions.length; met++) {
    const chosen = conditions.filter((_, i) => met & (1 << i)).map((c) => c.entries);
    for (const choice of choices(chosen)) {
      if (!admits(choice.map((e) => e.keys))) continue;
      if (++built > MAX_FORMS) throw GIVE_UP;
      const expr = build(choice.map((e) => e.value), choice.map((e) => e.keys));
      if (expr !== null) out.push({ met, expr });
    }
  }
  return out;
}

/** Every way to pick one item from each list. */
function choices<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((picked) => list.map((x) => [...picked, x])), [[]]);
}

/** Additional keys `keys` that also fit each of `chosen`; null when none can, GIVE_UP when the patterns cannot be combined. */
function restrictKeys(keys: KeyOptions, chosen: readonly EntryKeys[]): { keys: KeyOptions; minLength: number; maxLength: number } | null {
  let pattern = keys.pattern;
  for (const c of chosen) {
    if (c.pattern === undefined) continue;
    pattern = pattern === undefined ? c.pattern : bothPatterns(pattern, c.pattern);
    if (pattern === undefined) throw GIVE_UP;
  }
  const minLength = Math.max(0, ...chosen.map((c) => c.minLength));
  const maxLength = Math.min(Infinity, ...chosen.map((c) => c.maxLength));
  if (minLength > maxLength) return null;
  const restricted: KeyOptions = {
    exclude: [...keys.exclude, ...chosen.flatMap((c) => c.exclude)],
    excludePatterns: [...(keys.excludePatterns ?? []), ...chosen.flatMap((c) => c.excludePatterns)],
  };
  return { keys: pattern === undefined ? restricted : { ...restricted, pattern }, minLength, maxLength };
}

/** `schema` and each of `values`, as one subschema. */
function both(schema: unknown, values: readonly JsonSchema[]): unknown {
  const parts = [schema, ...values].filter((s) => s !== true);
  return parts.length === 0 ? true : parts.length === 1 ? parts[0] : { allOf: parts };
}
