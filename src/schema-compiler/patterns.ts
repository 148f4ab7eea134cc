/**
 * Regex checks for `pattern`, `patternProperties` and `propertyNames.pattern`: the source must be
 * a valid ECMAScript regex, read in Unicode mode (a pattern valid only without the u flag is
 * rewritten to its Unicode-mode form where every dialect reads it the same, else refused:
 * regex/unicode-mode.ts); its anchors and look-arounds must stand where the automaton builder can
 * place them, with no back-references (regex/compile.ts says where, with the position); and its
 * counted repetitions must not expand past LIMITS.maxPatternSize (e.g. `(a{1000}){1000}`).
 * Also a cached `RegExp` for testing names against patterns at compile time.
 */

import { SchemaError } from "../errors.js";
import { PatternError, patternLanguage, unicodeModeSource } from "../regex/index.js";
import { LruCache } from "../util/index.js";
import { LIMITS } from "./context.js";

/** Patterns a process keeps checked (with their RegExp) and combined; bounded for long-running servers. */
const PATTERN_CACHE_SIZE = 1024;

/** Checked patterns (as written) and their RegExp (of the Unicode-mode form). */
const cache = new LruCache<string, RegExp>(PATTERN_CACHE_SIZE);

/** `written` once it is known supported (the grammar reads it as its Unicode-mode form). */
export function checkPattern(written: unknown, keyword: string, pointer: string): string {
  if (typeof written !== "string") throw new SchemaError("SCHEMA_INVALID", "a pattern must be a string", { keyword, pointer });
  if (cache.get(written) !== undefined) return written;
  let source: string;
  try {
    source = unicodeModeSource(written);
    patternLanguage(source);
  } catch (err) {
    if (!(err instanceof PatternError)) throw err;
    const code = err.code === "PATTERN_INVALID" ? "SCHEMA_INVALID" : err.code;
    throw new SchemaError(code, `pattern ${JSON.stringify(written)}: ${err.message}`, { keyword, pointer }, { cause: err });
  }
  const size = estimateSize(source);
  if (size > LIMITS.maxPatternSize) {
    throw new SchemaError("SCHEMA_TOO_LARGE", `pattern ${JSON.stringify(written.slice(0, 80))} expands to about ${size} items (limit ${LIMITS.maxPatternSize})`, { keyword, pointer });
  }
  cache.set(written, new RegExp(source, "u"));
  return written;
}

/** Unanchored test, as JSON Schema applies patterns. `source` must have passed checkPattern. */
export function testPattern(source: string, text: string): boolean {
  let re = cache.get(source);
  if (re === undefined) {
    re = new RegExp(unicodeModeSource(source), "u");
    cache.set(source, re);
  }
  return re.test(text);
}

/** The patterns a combined pattern (allPatterns' result) stands for, so that combining it again
 *  adds look-aheads beside its own instead of nesting them (which the automaton cannot place). An
 *  evicted entry only makes a later combination with it fail, which leaves that pattern to the
 *  check after decoding. */
const combined = new LruCache<string, readonly string[]>(PATTERN_CACHE_SIZE);

/**
 * The most patterns combined into one: the string's automaton is the product of their searches,
 * which grows with each (17 searches ran past the work limit for a whole second before failing
 * the compile); past this, allPatterns answers undefined and the rest are checked after decoding.
 */
export const MAX_COMBINED_PATTERNS = 4;

/** One pattern matching the texts both match (`^(?=[^]*(?:A))[^]*(?:B)`: A somewhere, then a
 *  search for B from the start; a pattern combined before counts as the patterns it combines);
 *  undefined when either has no supported form or combining them would nest look-arounds. */
export function bothPatterns(a: string, b: string): string | undefined {
  const parts = [...(combined.get(a) ?? [a]), ...(combined.get(b) ?? [b])];
  return allPatterns([...new Set(parts)]);
}

/** One pattern matching the texts all of `patterns` match: a look-ahead for each but the last,
 *  then a search for the last (see bothPatterns); undefined past MAX_COMBINED_PATTERNS. */
export function allPatterns(patterns: readonly string[]): string | undefined {
  if (patterns.length === 1) return patterns[0];
  if (patterns.length > MAX_COMBINED_PATTERNS) return undefined;
  const sources = patterns.map(unicodeModeSource);
  const last = sources.pop()!;
  try {
    const all = `^${sources.map((s) => `(?=[^]*(?:${s}))`).join("")}[^]*(?:${last})`;
    patternLanguage(all);
    if (combined.get(all) === undefined) combined.set(all, patterns);
    return all;
  } catch (err) {
    if (err instanceof PatternError) return undefined;
    throw err;
  }
}

/** Rough size of the regex with counted repetitions expanded (sum of atoms, times counts). */
function estimateSize(src: string): number {
  const whole = { total: 0, last: 0 };
  const stack: { total: number; last: number }[] = [whole];
  const top = () => stack[stack.length - 1]!; // never empty: only groups above `whole` are popped
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (inClass) {
      if (c === "\\") i++;
      else if (c === "]") inClass = false;
      continue;
    }
    if (c === "\\" || c === "[" || !"()|{*+?".includes(c)) {
      if (c === "\\") i++;
      if (c === "[") inClass = true;
      top().total += 1;
      top().last = 1;
    } else if (c === "(") stack.push({ total: 0, last: 0 });
    else if (c === ")" && stack.length > 1) {
      const g = stack.pop()!.total;
      top().total += g;
      top().last = g;
    } else if (c === "{") {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(src.slice(i));
      if (m === null) continue;
      const count = Math.max(Number(m[1]), m[2] ? Number(m[2]) : 0, 1);
      top().total += top().last * (count - 1);
      top().last *= count;
      i += m[0].length - 1;
    }
  }
  return whole.total;
}
