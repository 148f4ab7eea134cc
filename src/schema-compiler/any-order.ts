/**
 * An object's members in any order (CompileOptions.propertyOrder "any"). The state after some
 * entries is the set of declared names written so far and how many entries were written (capped
 * where the count bounds no longer tell counts apart, as in presence.ts); from it the grammar
 * may write any declared name not in the set, an additional entry (patternProperties /
 * additionalProperties, which leave the set as it is), or close the object when the set meets
 * the presence rules: every required name written, each written name's dependencies written
 * (dependentRequired, `dependencies`), the count within min/maxProperties. Names a written name
 * forbids, or that can never be written, are never offered, so every state can complete or is
 * trimmed. Each name is written at most once; duplicate additional keys stay a check after
 * decoding, as in the fixed order.
 *
 * Each state but the first is a rule calling its successors last (the grammar automaton returns
 * from such tail calls at once, so the stack does not grow with the keys written); the members'
 * value expressions are the ones the fixed order uses (big values are already rules of their
 * own, ctx.outline), so a value is built once however many states can write it. The number of
 * states is bounded per object and per schema (ANY_ORDER_LIMITS; n optional names reach 2^n
 * sets). Past the bound, when the counts are free (no min/maxProperties a repeated key could
 * miscount), the set tracks only the names a rule is about (required, dependencies) and the
 * other optional names join the additional entries: any order still, but the grammar no longer
 * stops such a name from being written twice (a duplicate key, which every JSON parser reads as
 * its last value, valid here; extraction's verify step reports it). Past that too, the caller
 * writes the object in the declared order.
 */

import { repeat, type Expr } from "../grammar/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";
import { asStateRule, OVER_BUDGET, type Member, type PresenceRules } from "./presence.js";

/**
 * Each state is a rule that compiling builds (up to the eager budget) and a first document may
 * reach. Measured on the MaskBench dev sample: of the 71 schemas refused only for key order in
 * the declared order, 32/128 (with the repeatable tier) write 46 in any order at a fifth to a
 * third more compile time at the median; 128/512 write 60 at two thirds more.
 */
export const ANY_ORDER_LIMITS = {
  /** Subset states of one object; past it the repeatable tier, then the declared order. */
  maxStatesPerObject: 32,
  /** Subset states of all objects of one schema together. */
  maxStatesPerSchema: 128,
} as const;

/** Subset states spent so far per compilation (a rolled-back compile keeps its count: the
 *  budget can only run out earlier, never admit more states). */
const spent = new WeakMap<CompileContext, number>();

/** Whether the order of the entries can differ at all: two declared members, or one beside
 *  additional entries. */
export function orderIsFree(writable: number, extra: Expr | null): boolean {
  return writable >= 2 || (writable === 1 && extra !== null);
}

export interface AnyOrder {
  /** The inside of `{...}`; null when no set of entries satisfies the rules. */
  readonly body: Expr | null;
  /** Whether some optional names may be written more than once (the second tier above). */
  readonly repeatable: boolean;
}

/**
 * `members` and `extra` entries in any order under `rules`, exact (each name once) within
 * ANY_ORDER_LIMITS, else with the free optional names repeatable; OVER_BUDGET past both. As in
 * presenceBody, every name the rules mention is one of the members.
 */
export function anyOrderBody(ctx: CompileContext, members: readonly Member[], extra: Expr | null, rules: PresenceRules): AnyOrder | typeof OVER_BUDGET {
  const exact = subsetBody(ctx, members, extra, rules);
  if (exact !== OVER_BUDGET) return { body: exact, repeatable: false };
  const split = freeNames(members, extra, rules);
  if (split === undefined) return OVER_BUDGET;
  const entries = union([...split.free.map((m) => m.expr), extra]);
  // With the counts free, no bound on them can be reached by the distinct names (see freeNames).
  const body = subsetBody(ctx, split.tracked, entries, { ...rules, maxProperties: Infinity });
  return body === OVER_BUDGET ? OVER_BUDGET : { body, repeatable: true };
}

/**
 * The optional names no presence rule is about (`free`) and the others; undefined when there are
 * none, or when a repeated key could change a count that matters: minProperties above the
 * required names, or a finite maxProperties that the entries can reach.
 */
function freeNames(members: readonly Member[], extra: Expr | null, rules: PresenceRules): { free: Member[]; tracked: Member[] } | undefined {
  const mentioned = mentionedNames(rules);
  const writable = members.filter((m) => m.expr !== null && !rules.absent.has(m.name));
  const free = writable.filter((m) => !m.required && !mentioned.has(m.name));
  const countsFree = rules.minProperties <= members.filter((m) => m.required).length && (rules.maxProperties === Infinity || (extra === null && rules.maxProperties >= writable.length));
  if (free.length === 0 || !countsFree) return undefined;
  return { free, tracked: members.filter((m) => !free.includes(m)) };
}

/** The names a dependency rule is about, as its key or among its names. */
const mentionedNames = (rules: PresenceRules): Set<string> => new Set([...rules.requires, ...rules.forbids].flatMap(([key, names]) => [key, ...names]));

/** The subset automaton over `members` (see above); OVER_BUDGET past ANY_ORDER_LIMITS. */
function subsetBody(ctx: CompileContext, members: readonly Member[], extra: Expr | null, rules: PresenceRules): Expr | null | typeof OVER_BUDGET {
  const index = new Map(members.map((m, i) => [m.name, i]));
  const indices = (names: readonly string[] | undefined): number[] => (names ?? []).map((x) => index.get(x)).filter((i): i is number => i !== undefined);
  const requires = members.map((m) => indices(rules.requires.get(m.name)));
  const forbids = members.map((m) => indices(rules.forbids.get(m.name)));
  const writable = members.map((m, i) => m.expr !== null && !rules.absent.has(m.name) && !forbids[i]!.includes(i));
  const max = rules.maxProperties;
  const cap = max === Infinity ? Math.max(rules.minProperties, 1) : max;
  const sep = ctx.punct(",");
  const budget = Math.min(ANY_ORDER_LIMITS.maxStatesPerObject, ANY_ORDER_LIMITS.maxStatesPerSchema - (spent.get(ctx) ?? 0));
  // Every set of the names no rule ties to another is explored (up to the count bound): when
  // that alone is past the budget, the walk would only find so after spending it.
  const mentioned = mentionedNames(rules);
  const independent = members.filter((m, i) => writable[i] && !mentioned.has(m.name)).length;
  if (2 ** Math.min(independent, max) > budget) return OVER_BUDGET;
  const memo = new Map<string, Expr | null>();
  const made: string[] = [];
  const entry = extra === null ? null : ctx.outline(extra, "obj-extra");
  if (entry !== null && entry !== extra && entry.kind === "ref") made.push(entry.name);
  let states = 0;

  const closes = (written: readonly boolean[], count: number): boolean =>
    count >= rules.minProperties && members.every((m, i) => (written[i] ? requires[i]!.every((t) => written[t]) : !m.required));
  const canWrite = (written: readonly boolean[], i: number): boolean =>
    !written[i] && writable[i]! && !forbids[i]!.some((t) => written[t]) && !written.some((w, k) => w && forbids[k]!.includes(i));

  const at = (written: readonly boolean[], count: number): Expr | null => {
    const key = `${count}|${written.map((w) => (w ? 1 : 0)).join("")}`;
    if (memo.has(key)) return memo.get(key)!;
    if (++states > budget) throw OVER_BUDGET;
    const lead = count > 0 ? sep : null;
    const next = Math.min(count + 1, cap);
    const options: (Expr | null)[] = [closes(written, count) ? cat() : null];
    const write = (what: Expr, rest: Expr | null): void => {
      if (rest !== null) options.push(cat(lead, what, rest));
    };
    if (count < max) members.forEach((m, i) => canWrite(written, i) && write(m.expr!, at(written.map((w, k) => w || k === i), next)));
    // Below the cap an additional entry moves to the next count; at it (only when nothing bounds
    // the count above) any number of them may come before the next choice.
    if (entry !== null && count < cap) write(entry, at(written, next));
    let body = union(options);
    if (body !== null && entry !== null && count === cap && max === Infinity) body = cat(repeat(cat(sep, entry), 0, Infinity), body);
    // Every state but the first is a rule.
    if (body !== null && count > 0) body = asStateRule(ctx, body, "obj-any", made);
    memo.set(key, body);
    return body;
  };

  try {
    const body = at(
      members.map(() => false),
      0,
    );
    spent.set(ctx, (spent.get(ctx) ?? 0) + states);
    return body;
  } catch (err) {
    if (err !== OVER_BUDGET) throw err;
    for (const name of made) ctx.rules.delete(name);
    return OVER_BUDGET;
  }
}

