/**
 * Keywords that hold for an object when each of its entries does, and the entries that make
 * them fail. `not` of such a keyword is "some entry fails it": an existential over the entries
 * that no JSON Schema keyword states positively, which the object compiler writes (some-entry.ts).
 *   patternProperties {P: S, ..}: an entry whose key matches P and whose value fails S;
 *   additionalProperties S beside properties D and patternProperties Q that only name keys (each
 *     `true`, as negate.ts writes them): an entry whose key is none of D and matches none of Q,
 *     and whose value fails S;
 *   propertyNames N: an entry whose key N rejects, N a conjunction of a pattern, lengths, names
 *     (enum/const) and `not: {pattern}`, each failing on its own keys.
 */

import { SchemaError } from "../errors.js";
import { isAnnotationKeyword, isRecord } from "../schema/index.js";
import { checkPattern, testPattern } from "./patterns.js";
import { acceptsEverything } from "./trivial-schemas.js";

/** The keys an entry may have (one string rule: all of it holds). */
export interface EntryKeys {
  readonly pattern?: string;
  readonly exclude: readonly string[];
  readonly excludePatterns: readonly string[];
  readonly minLength: number;
  readonly maxLength: number;
}

/** Entries whose key fits `keys` and whose value fails `fails` (`false`: any value). */
export interface FailingEntry {
  readonly keys: EntryKeys;
  readonly fails: unknown;
  /** A propertyNames schema whose `not: {pattern}` the keys are (that `not` is enforced with them). */
  readonly negatedPatternOf?: object;
}

const ANY_KEY: EntryKeys = { exclude: [], excludePatterns: [], minLength: 0, maxLength: Infinity };

/** A pattern the automaton can run (valid, no look-arounds or back-references, not too large). */
export function runnablePattern(p: unknown): p is string {
  try {
    checkPattern(p, "pattern", "");
    return true;
  } catch (err) {
    if (err instanceof SchemaError) return false;
    throw err;
  }
}

const assertions = (schema: Record<string, unknown>): string[] => Object.keys(schema).filter((k) => !isAnnotationKeyword(k));

/**
 * The entries that fail `universal` (any one of them does), or undefined when it is not one of
 * the keywords above or a pattern in it cannot run.
 */
export function failingEntries(universal: unknown): FailingEntry[] | undefined {
  if (!isRecord(universal)) return undefined;
  const keys = assertions(universal);
  if (keys.length === 1 && keys[0] === "patternProperties") return patternEntries(universal.patternProperties);
  if (keys.length === 1 && keys[0] === "propertyNames") return rejectedKeys(universal.propertyNames);
  if (!keys.includes("additionalProperties") || !keys.every((k) => k === "additionalProperties" || k === "properties" || k === "patternProperties")) return undefined;
  const names = namingOnly(universal.properties ?? {});
  const patterns = namingOnly(universal.patternProperties ?? {});
  if (names === undefined || patterns === undefined || !patterns.every(runnablePattern)) return undefined;
  return [{ keys: { ...ANY_KEY, exclude: names, excludePatterns: patterns }, fails: universal.additionalProperties }];
}

/**
 * The conditions of a `not` that is one such keyword or an anyOf of them: each must be met by
 * some entry (the list of entries that meet it); undefined for any other `not`.
 */
export function someEntryConditions(not: unknown): FailingEntry[][] | undefined {
  const out: FailingEntry[][] = [];
  // Merged `not`s nest (allOf: not a, not b is not (a or b)): every leaf counts.
  const visit = (part: unknown): boolean => {
    if (isRecord(part) && Array.isArray(part.anyOf) && assertions(part).length === 1) return part.anyOf.length > 0 && part.anyOf.every(visit);
    const entries = failingEntries(part);
    if (entries === undefined || entries.length === 0) return false;
    out.push(entries);
    return true;
  };
  return visit(not) ? out : undefined;
}

/** Whether an entry named `name` fits `keys`. */
export function keysAdmit(keys: EntryKeys, name: string): boolean {
  const length = [...name].length;
  return (
    length >= keys.minLength &&
    length <= keys.maxLength &&
    !keys.exclude.includes(name) &&
    (keys.pattern === undefined || testPattern(keys.pattern, name)) &&
    !keys.excludePatterns.some((p) => testPattern(p, name))
  );
}

/** The names of a properties / patternProperties map whose schemas are all `true`. */
function namingOnly(map: unknown): string[] | undefined {
  if (!isRecord(map)) return undefined;
  return Object.values(map).every((v) => v === true) ? Object.keys(map) : undefined;
}

function patternEntries(map: unknown): FailingEntry[] | undefined {
  if (!isRecord(map)) return undefined;
  const out: FailingEntry[] = [];
  for (const [pattern, schema] of Object.entries(map)) {
    if (!runnablePattern(pattern)) return undefined;
    if (!acceptsEverything(schema)) out.push({ keys: { ...ANY_KEY, pattern }, fails: schema });
  }
  return out;
}

/** The keys `names` (a propertyNames schema) rejects, one rule per keyword; undefined for a keyword without one. */
function rejectedKeys(names: unknown): FailingEntry[] | undefined {
  if (!isRecord(names)) return undefined;
  const out: FailingEntry[] = [];
  const rejecting = (keys: Partial<EntryKeys>): void => void out.push({ keys: { ...ANY_KEY, ...keys }, fails: false });
  for (const k of assertions(names)) {
    const v = names[k];
    if (k === "type" && (v === "string" || (Array.isArray(v) && v.includes("string")))) continue;
    if (k === "pattern" && runnablePattern(v)) rejecting({ excludePatterns: [v] });
    else if (k === "minLength" && typeof v === "number") {
      if (v > 0) rejecting({ maxLength: Math.ceil(v) - 1 });
    } else if (k === "maxLength" && typeof v === "number") rejecting({ minLength: Math.floor(v) + 1 });
    else if ((k === "enum" && Array.isArray(v) && v.every((x) => typeof x === "string")) || (k === "const" && typeof v === "string")) {
      rejecting({ exclude: k === "const" ? [v as string] : (v as string[]) });
    } else if (k === "not" && isRecord(v) && assertions(v).length === 1 && runnablePattern(v.pattern)) {
      out.push({ keys: { ...ANY_KEY, pattern: v.pattern }, fails: false, negatedPatternOf: names });
    } else return undefined;
  }
  return out;
}
