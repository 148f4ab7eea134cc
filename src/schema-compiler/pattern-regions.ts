/**
 * The key regions of an object's `patternProperties`, so that a key matching several patterns
 * gets a value that satisfies all their schemas (JSON Schema applies every matching pattern):
 * each region is a key language and the patterns whose schemas its values must satisfy.
 *
 * First, pair by pair: two patterns proven disjoint (pattern-overlap.ts) need nothing; where one
 * schema implies the other's (the same schema, or one side saying nothing or rejecting
 * everything), the weaker pattern leaves the shared keys to the stronger one. When some pair may
 * share keys and neither schema implies the other, the patterns that may share keys are grouped
 * (connected by "not proven disjoint") and each group of up to MAX_SHARED patterns is split into
 * the keys of every combination of them: the keys matching exactly the patterns T of the group,
 * their pattern the intersection of T (allPatterns) minus the rest of the group, their value all
 * of T's schemas. A combination is left out when two of its patterns are proven disjoint, and
 * its value compiles to nothing when its schemas contradict (no key of it may then be written).
 * Larger groups, or patterns that do not combine, are undefined: the caller checks them after
 * decoding.
 */

import { jsonEqual } from "../schema/index.js";
import { patternsDisjoint } from "./pattern-overlap.js";
import { allPatterns } from "./patterns.js";
import { acceptsEverything, rejectsEverything } from "./trivial-schemas.js";

/** Keys of one region: matching `pattern` and none of `excludePatterns`, valued by all of `patterns`' schemas. */
export interface PatternRegion {
  readonly pattern: string;
  readonly excludePatterns: readonly string[];
  /** The written patterns whose schemas the value satisfies (the first names the region in reports). */
  readonly patterns: readonly string[];
}

/** Most patterns one group of possibly shared keys may hold (2^n - 1 combinations). */
const MAX_SHARED = 3;

/** Whether every value `a` accepts is accepted by `b`, as far as a syntactic look tells. */
const implies = (a: unknown, b: unknown): boolean => acceptsEverything(b) || rejectsEverything(a) || jsonEqual(a, b);

/** The regions of `patterns` (schemas by pattern), or undefined when they cannot be told apart exactly. */
export function patternRegions(patterns: readonly string[], schemas: ReadonlyMap<string, unknown>): PatternRegion[] | undefined {
  const disjoint = new Map<string, boolean>();
  const apart = (p: string, q: string): boolean => {
    const key = p < q ? JSON.stringify([p, q]) : JSON.stringify([q, p]);
    let known = disjoint.get(key);
    if (known === undefined) disjoint.set(key, (known = patternsDisjoint(p, q)));
    return known;
  };
  return byImplication(patterns, schemas, apart) ?? byCombination(patterns, apart);
}

/** One region per pattern, leaving shared keys to the pattern whose schema implies the other's. */
function byImplication(patterns: readonly string[], schemas: ReadonlyMap<string, unknown>, apart: (p: string, q: string) => boolean): PatternRegion[] | undefined {
  const excluded = new Map<string, string[]>(patterns.map((p) => [p, []]));
  for (const [i, p] of patterns.entries()) {
    for (const q of patterns.slice(i + 1)) {
      const pq = implies(schemas.get(p), schemas.get(q));
      const qp = implies(schemas.get(q), schemas.get(p));
      if ((pq && qp) || apart(p, q)) continue;
      if (!pq && !qp) return undefined;
      // The weaker side leaves the shared keys to the stronger one.
      excluded.get(pq ? q : p)!.push(pq ? p : q);
    }
  }
  return patterns.map((p) => ({ pattern: p, excludePatterns: excluded.get(p)!, patterns: [p] }));
}

/** Every combination of each group of patterns that may share keys, as its own region. */
function byCombination(patterns: readonly string[], apart: (p: string, q: string) => boolean): PatternRegion[] | undefined {
  const regions: PatternRegion[] = [];
  for (const group of groupsSharingKeys(patterns, apart)) {
    if (group.length > MAX_SHARED) return undefined;
    for (let bits = 1; bits < 1 << group.length; bits++) {
      const members = group.filter((_, i) => bits & (1 << i));
      if (members.some((p, i) => members.slice(i + 1).some((q) => apart(p, q)))) continue;
      const pattern = members.length === 1 ? members[0] : allPatterns(members);
      if (pattern === undefined) return undefined;
      regions.push({ pattern, excludePatterns: group.filter((p) => !members.includes(p)), patterns: members });
    }
  }
  return regions;
}

/** The patterns grouped by "not proven disjoint", transitively (written order kept). */
function groupsSharingKeys(patterns: readonly string[], apart: (p: string, q: string) => boolean): string[][] {
  const groupOf = new Map<string, string[]>();
  for (const p of patterns) {
    let group = [p];
    for (const q of patterns) {
      const other = groupOf.get(q);
      if (other === undefined || other === group || apart(p, q)) continue;
      group = [...other, ...group];
      for (const member of group) groupOf.set(member, group);
    }
    for (const member of group) groupOf.set(member, group);
  }
  return [...new Set(groupOf.values())].map((group) => patterns.filter((p) => group.includes(p)));
}
