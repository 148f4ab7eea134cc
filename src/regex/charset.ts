/**
 * Code point sets as sorted, disjoint, non-adjacent inclusive ranges, with the ECMAScript
 * character classes (\d \w \s, `.`) and Unicode property escapes. Not for byte-level sets.
 */
export type Ranges = [number, number][];

export const MAX_CP = 0x10ffff;

export function normalize(ranges: Ranges): Ranges {
  const sorted = ranges.filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function union(...sets: Ranges[]): Ranges {
  return normalize(sets.flat().map(([a, b]) => [a, b] as [number, number]));
}

export function negate(set: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [a, b] of normalize(set)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

export const DIGIT: Ranges = [[0x30, 0x39]];
export const WORD: Ranges = normalize([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
/** ECMAScript WhiteSpace and LineTerminator. */
export const SPACE: Ranges = normalize([
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: Ranges = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];
/** `.` without the s flag. */
export const DOT: Ranges = negate(LINE_TERMINATORS);
export const ANY: Ranges = [[0, MAX_CP]];

const propertyCache = new Map<string, Ranges>();

/**
 * Code points of `\p{body}`, computed once per body by asking the host's RegExp engine (so the
 * Unicode version matches what `new RegExp(p, "u")` does). Returns null when the host rejects
 * the property name.
 */
export function propertyRanges(body: string): Ranges | null {
  const cached = propertyCache.get(body);
  if (cached) return cached;
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${body}}$`, "u");
  } catch {
    return null;
  }
  const out: Ranges = [];
  let start = -1;
  for (let cp = 0; cp <= MAX_CP + 1; cp++) {
    const inside = cp <= MAX_CP && (cp < 0xd800 || cp > 0xdfff) && re.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    else if (!inside && start >= 0 && (cp < 0xd800 || cp > 0xdfff)) {
      out.push([start, cp - 1]);
      start = -1;
    }
  }
  const result = normalize(out);
  propertyCache.set(body, result);
  return result;
}
