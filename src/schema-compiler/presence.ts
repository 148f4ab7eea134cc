/**
 * An object's members under presence constraints: `minProperties`/`maxProperties` over optional
 * members and additional entries, and dependencies ("when A is written, B must be written" or
 * "must not be"). The grammar writes members in one fixed order, each written or left out, then
 * the additional entries; over that order the constraints are a finite automaton. Its state
 * before member i: how many members are written so far (capped where the bounds no longer tell
 * counts apart), which earlier names a later member's dependency looks back at were written, and
 * which later names an earlier member obliged or banned. Each reachable (i, state) with a
 * completion becomes one rule, so the grammar is exact; the number of states is bounded
 * (LIMITS.maxPresenceStates, a chain of dependencies can otherwise need 2^n), past which the
 * caller checks the constraints after decoding instead.
 */

import { optional, ref, repeat, type Expr } from "../grammar/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { cat, union } from "./format.js";

/** One declared member: its `"name": value` expression (null: it can never be written). */
export interface Member {
  readonly name: string;
  readonly expr: Expr | null;
  readonly required: boolean;
}

export interface PresenceRules {
  readonly minProperties: number;
  readonly maxProperties: number;
  /** Names that must be written too when the key is written. */
  readonly requires: ReadonlyMap<string, readonly string[]>;
  /** Names that must not be written when the key is written. */
  readonly forbids: ReadonlyMap<string, readonly string[]>;
  /** Names that can never be written (a dependency on them is `false`). */
  readonly absent: ReadonlySet<string>;
}

/** The presence automaton has more states than LIMITS.maxPresenceStates. */
export const OVER_BUDGET = Symbol("presence over budget");

interface State {
  /** Members written so far, capped (see `cap`). */
  readonly count: number;
  /** Earlier members written that a later member's dependency looks at. */
  readonly seen: readonly number[];
  /** Later members that must be written. */
  readonly pending: readonly number[];
  /** Later members that must not be written. */
  readonly banned: readonly number[];
}

/**
 * The inside of `{...}` for `members` (in order) and then the `extra` entries (any number,
 * each one counted), under `rules`; null when no member list satisfies them. Every name the
 * rules mention must be one of the members (the caller declares dependency names that the
 * schema leaves to additionalProperties, so no additional key can spell them).
 */
export function presenceBody(ctx: CompileContext, members: readonly Member[], extra: Expr | null, rules: PresenceRules): Expr | null | typeof OVER_BUDGET {
  const n = members.length;
  const index = new Map(members.map((m, i) => [m.name, i]));
  const indices = (names: readonly string[] | undefined): number[] => (names ?? []).map((x) => index.get(x)).filter((i): i is number => i !== undefined);
  const requires = members.map((m) => indices(rules.requires.get(m.name)));
  const forbids = members.map((m) => indices(rules.forbids.get(m.name)));
  // The last member whose dependency looks back at member t (t's "written" bit lives until then).
  const lookedAtUntil = members.map(() => -1);
  members.forEach((_, j) => {
    for (const t of [...requires[j]!, ...forbids[j]!]) if (t < j) lookedAtUntil[t] = Math.max(lookedAtUntil[t]!, j);
  });
  const max = rules.maxProperties;
  // Past `cap` members written, the count no longer matters (the minimum is met and nothing
  // bounds it above, or the comma placement only needs "at least one").
  const cap = max === Infinity ? Math.max(rules.minProperties, 1) : max;
  const sep = ctx.punct(",");
  const memo = new Map<string, Expr | null>();
  const made: string[] = [];

  const extrasAfter = (count: number): Expr | null => {
    const least = Math.max(0, rules.minProperties - count);
    const most = max - count;
    if (extra === null || most === 0) return least === 0 ? cat() : null;
    if (count > 0) return repeat(cat(sep, extra), least, most);
    const some = cat(extra, repeat(cat(sep, extra), Math.max(0, least - 1), most - 1));
    return least === 0 ? optional(some) : some;
  };

  const at = (i: number, s: State): Expr | null => {
    const key = `${i}|${s.count}|${s.seen.join(",")}|${s.pending.join(",")}|${s.banned.join(",")}`;
    if (memo.has(key)) return memo.get(key)!;
    if (memo.size >= LIMITS.maxPresenceStates) throw OVER_BUDGET;
    let body: Expr | null;
    if (i === n) body = extrasAfter(s.count);
    else {
      const m = members[i]!;
      const options: (Expr | null)[] = [];
      const next = i + 1;
      const keep = (xs: readonly number[]): number[] => xs.filter((t) => t >= next);
      if (!m.required && !s.pending.includes(i)) {
        options.push(at(next, { count: s.count, seen: s.seen.filter((t) => lookedAtUntil[t]! >= next), pending: keep(s.pending), banned: keep(s.banned) }));
      }
      const lookBackOk = requires[i]!.every((t) => t >= i || s.seen.includes(t)) && forbids[i]!.every((t) => t >= i || !s.seen.includes(t));
      if (m.expr !== null && !rules.absent.has(m.name) && !s.banned.includes(i) && s.count < max && lookBackOk && !forbids[i]!.includes(i)) {
        const rest = at(next, {
          count: Math.min(s.count + 1, cap),
          seen: [...s.seen, i].filter((t) => lookedAtUntil[t]! >= next),
          pending: sorted([...keep(s.pending), ...requires[i]!.filter((t) => t > i)]),
          banned: sorted([...keep(s.banned), ...forbids[i]!.filter((t) => t > i)]),
        });
        if (rest !== null) options.push(cat(s.count > 0 ? sep : null, m.expr, rest));
      }
      body = union(options);
    }
    if (body !== null && i > 0) body = asStateRule(ctx, body, "obj-presence", made);
    memo.set(key, body);
    return body;
  };

  try {
    return at(0, { count: 0, seen: [], pending: [], banned: [] });
  } catch (err) {
    if (err !== OVER_BUDGET) throw err;
    for (const name of made) ctx.rules.delete(name);
    return OVER_BUDGET;
  }
}

const sorted = (xs: number[]): number[] => [...new Set(xs)].sort((a, b) => a - b);

/**
 * A state of an object's automaton (here and in any-order.ts) as a rule of its own, shared by the
 * paths that reach it, unless it is nothing or a rule already; the rule's name goes to `made`, so
 * an attempt that runs over its budget can remove what it added.
 */
export function asStateRule(ctx: CompileContext, body: Expr, prefix: string, made: string[]): Expr {
  if (body.kind === "ref" || (body.kind === "seq" && body.items.length === 0)) return body;
  const name = ctx.ruleName(prefix);
  ctx.rules.set(name, body);
  made.push(name);
  return ref(name);
}
