/**
 * Approximate matching for values that are almost, but not exactly, in the text: a dropped or
 * added word or character ("北京星河文化传媒公司" for 北京星河文化传媒有限公司, "Anderson and Wright"
 * for "Anderson & Wright"). Works on units of the normalized text: a Latin word or digit group is
 * one unit, every other character (a Han character) is one unit.
 *
 * The alignment lets the value leave out units of the text anywhere (an abbreviation), and add
 * only short Latin filler words between matched units ("and" for "&", "in"); it never allows a
 * replaced unit: a changed unit is a different fact, not a copying slip (Parker vs Carter, Chen vs
 * Cheng, 云海 vs 云帆, a changed digit), and neither is a unit added at either end ("Cork
 * warehouse" for "Dublin warehouse" would otherwise align with "warehouse"). Similarity = 2 * matched characters / (value chars + window chars), i.e.
 * normalized LCS over units weighted by their length; a window is a hit when similarity >=
 * threshold and the digits of the window equal the digits of the value.
 *
 * Search is Sellers' algorithm (free start in the text) over units with indel costs, then a small
 * backward alignment per candidate end to find the start and check the no-replacement rule.
 */
import { isWordChar } from "./fold.js";
import type { NormalizedText } from "./normalize.js";

/** Units of a normalized text: [start, end) offsets into `NormalizedText.text`. */
export interface Units {
  readonly texts: readonly string[];
  /** Unit ids (equal ids = equal units), so the alignment loops compare integers. */
  readonly ids: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Id of each distinct unit text. */
  readonly idOf: ReadonlyMap<string, number>;
}

export interface FuzzyHit {
  /** Offsets into the normalized text. */
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

/** Splits a normalized text into units: runs of word characters that touch in the original
 *  text form one unit (normalization removed the spaces between words, the offset map keeps
 *  them). */
export function toUnits(nt: NormalizedText): Units {
  const texts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const t = nt.text;
  let i = 0;
  while (i < t.length) {
    let j = i + 1;
    const c = t.charCodeAt(i);
    if (isWordChar(t[i])) while (j < t.length && isWordChar(t[j]) && nt.starts[j]! <= nt.ends[j - 1]!) j++;
    else if (c >= 0xd800 && c <= 0xdbff && j < t.length) j++;
    texts.push(t.slice(i, j));
    starts.push(i);
    ends.push(j);
    i = j;
  }
  const idOf = new Map<string, number>();
  const ids = new Int32Array(texts.length);
  texts.forEach((u, k) => {
    let id = idOf.get(u);
    if (id === undefined) idOf.set(u, (id = idOf.size));
    ids[k] = id;
  });
  return { texts, ids, starts: Int32Array.from(starts), ends: Int32Array.from(ends), idOf };
}

const digitsOf = (s: string): string => s.replace(/\D/g, "");

/** The only units a value may add to the text: short Latin words ("and", "in", "of"), between
 *  matched units. A value's own content (a name, a CJK character, a number) must come from
 *  the text. */
const MAX_FILLER_LENGTH = 3;
/** Cost of a value unit the text lacks: its length for filler, impossible for anything else, so
 *  the alignments never consider adding content. */
const dropCost = (u: string): number => (u.length <= MAX_FILLER_LENGTH && /^[a-z]+$/.test(u) ? u.length : Infinity);

/** The value's units in the text's id space (-1: not in the text), with their lengths and the
 *  cost of leaving each one out. */
interface ValueUnits {
  readonly ids: Int32Array;
  readonly drop: Float64Array;
  readonly chars: number;
}

/** Aligns value units against the window ending at text unit `end` (exclusive), free start;
 *  returns the window start and matched character count, or undefined when no alignment keeps
 *  the rules above. */
function alignBack(v: ValueUnits, text: Units, end: number, maxUnits: number): { start: number; matched: number } | undefined {
  const m = v.ids.length;
  const L = Math.min(maxUnits, end);
  const base = end - L;
  const wLen = (j: number): number => text.ends[base + j]! - text.starts[base + j]!;
  // D[i][j]: indel cost (in characters) of aligning v[i..m) with window[j..L).
  const D: Float64Array[] = [];
  for (let i = 0; i <= m; i++) D.push(new Float64Array(L + 1));
  const last = D[m]!;
  for (let j = L - 1; j >= 0; j--) last[j] = last[j + 1]! + wLen(j);
  for (let i = m - 1; i >= 0; i--) {
    const row = D[i]!;
    const below = D[i + 1]!;
    const drop = v.drop[i]!;
    row[L] = below[L]! + drop;
    for (let j = L - 1; j >= 0; j--) {
      row[j] = v.ids[i] === text.ids[base + j] ? below[j + 1]! : Math.min(below[j]! + drop, row[j + 1]! + wLen(j));
    }
  }
  // Free start: the cheapest j; ties go to the shortest window.
  const first = D[0]!;
  let j0 = L;
  for (let j = L - 1; j >= 0; j--) if (first[j]! < first[j0]!) j0 = j;
  let i = 0;
  let j = j0;
  let matched = 0;
  let vGap = 0;
  let wGap = 0;
  while (i < m || j < L) {
    if (i < m && j < L && v.ids[i] === text.ids[base + j]) {
      if (vGap > 0 && (wGap > 0 || matched === 0)) return undefined;
      vGap = wGap = 0;
      matched += wLen(j);
      i++;
      j++;
    } else if (i < m && (j === L || D[i]![j] === D[i + 1]![j]! + v.drop[i]!)) {
      if (!Number.isFinite(D[i]![j])) return undefined;
      vGap++;
      i++;
    } else {
      wGap++;
      j++;
    }
  }
  if (vGap > 0) return undefined;
  return { start: base + j0, matched };
}

export function fuzzyFind(value: Units, text: Units, threshold: number): FuzzyHit[] {
  const m = value.texts.length;
  const n = text.texts.length;
  if (m === 0 || n === 0) return [];
  const v: ValueUnits = {
    ids: Int32Array.from(value.texts, (u) => text.idOf.get(u) ?? -1),
    drop: Float64Array.from(value.texts, dropCost),
    chars: value.texts.reduce((k, u) => k + u.length, 0),
  };
  // sim = 1 - cost / (vChars + wChars) with wChars <= vChars + cost, so sim >= threshold needs
  // cost <= 2 * vChars * (1 - threshold) / threshold.
  const maxCost = (2 * v.chars * (1 - threshold)) / threshold;
  const endCost = new Float64Array(n);
  let col = new Float64Array(m + 1);
  let next = new Float64Array(m + 1);
  for (let i = 1; i <= m; i++) col[i] = col[i - 1]! + v.drop[i - 1]!;
  for (let j = 0; j < n; j++) {
    const t = text.ids[j];
    const tLen = text.ends[j]! - text.starts[j]!;
    next[0] = 0;
    for (let i = 1; i <= m; i++) {
      const keep = v.ids[i - 1] === t ? col[i - 1]! : Infinity;
      next[i] = Math.min(keep, col[i]! + tLen, next[i - 1]! + v.drop[i - 1]!);
    }
    endCost[j] = next[m]!;
    [col, next] = [next, col];
  }
  const wantDigits = digitsOf(value.texts.join(""));
  const hits: FuzzyHit[] = [];
  for (let j = 0; j < n; j++) {
    const d = endCost[j]!;
    // First end of each local minimum: later ends of a plateau only add inserted units.
    if (d > maxCost || (j > 0 && endCost[j - 1]! <= d) || (j + 1 < n && endCost[j + 1]! < d)) continue;
    const a = alignBack(v, text, j + 1, m + Math.ceil(maxCost));
    if (!a) continue;
    const window = text.texts.slice(a.start, j + 1).join("");
    const score = (2 * a.matched) / (v.chars + window.length);
    if (score < threshold || digitsOf(window) !== wantDigits) continue;
    const hit = { start: text.starts[a.start]!, end: text.ends[j]!, score };
    const last = hits[hits.length - 1];
    if (last && hit.start < last.end) {
      if (score > last.score) hits[hits.length - 1] = hit;
      continue;
    }
    hits.push(hit);
  }
  return hits;
}
