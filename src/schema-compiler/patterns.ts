/**
 * Regex checks for `pattern`, `patternProperties` and `propertyNames.pattern`: the source must be
 * a valid ECMAScript regex in Unicode mode (the automaton builder parses the same subset),
 * without look-arounds or back-references (a byte automaton cannot express them), and its
 * counted repetitions must not expand past LIMITS.maxPatternSize (e.g. `(a{1000}){1000}`).
 * Also a cached `RegExp` for testing names against patterns at compile time.
 */

import { SchemaError } from "../errors.js";
import { LIMITS } from "./context.js";

const cache = new Map<string, RegExp>();

export function checkPattern(source: unknown, keyword: string, pointer: string): string {
  if (typeof source !== "string") throw new SchemaError("SCHEMA_INVALID", "a pattern must be a string", { keyword, pointer });
  if (cache.has(source)) return source;
  let re: RegExp;
  try {
    re = new RegExp(source, "u");
  } catch (err) {
    throw new SchemaError("SCHEMA_INVALID", `pattern ${JSON.stringify(source)} is not a valid ECMAScript regex in Unicode mode: ${(err as Error).message}`, { keyword, pointer });
  }
  const unsupported = findUnsupported(source);
  if (unsupported !== undefined) {
    throw new SchemaError("PATTERN_UNSUPPORTED", `pattern ${JSON.stringify(source)} uses ${unsupported}, which a byte automaton cannot express`, { keyword, pointer });
  }
  const size = estimateSize(source);
  if (size > LIMITS.maxPatternSize) {
    throw new SchemaError("SCHEMA_TOO_LARGE", `pattern ${JSON.stringify(source.slice(0, 80))} expands to about ${size} items (limit ${LIMITS.maxPatternSize})`, { keyword, pointer });
  }
  cache.set(source, re);
  return source;
}

/** Unanchored test, as JSON Schema applies patterns. `source` must have passed checkPattern. */
export function testPattern(source: string, text: string): boolean {
  let re = cache.get(source);
  if (re === undefined) {
    re = new RegExp(source, "u");
    cache.set(source, re);
  }
  return re.test(text);
}

function findUnsupported(src: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      const n = src[i + 1];
      if (!inClass && n !== undefined && /[1-9]/.test(n)) return "a back-reference";
      if (!inClass && n === "k" && src[i + 2] === "<") return "a named back-reference";
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "(" && src[i + 1] === "?") {
      const look = src.slice(i + 2, i + 4);
      if (look[0] === "=" || look[0] === "!" || look === "<=" || look === "<!") return "a look-around";
    }
  }
  return undefined;
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
