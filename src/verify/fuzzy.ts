/**
 * Approximate substring search (Sellers' algorithm): where in `text` does `pattern` occur with
 * few edits? Similarity of a window = 1 - editDistance(pattern, window) / max(|pattern|, |window|);
 * a window is a hit when similarity >= threshold. Both strings are already normalized (so case,
 * width and spacing do not count as edits). Cost O(|pattern| * |text|), run only for values the
 * exact and normalized tiers could not place.
 *
 * Digits are never approximated: a window whose digits differ from the pattern's (13812345679
 * vs 13812345678, 1号 vs 7号) is no hit, because a changed digit is a different fact, not a typo
 * worth forgiving.
 */

export interface FuzzyHit {
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

const digitsOf = (s: string): string => s.replace(/\D/g, "");

/** Edit distance of `pattern` against text[start..end) read backwards, for every start; returns
 *  the start with the smallest distance (ties: the window length closest to the pattern's). */
function bestStart(pattern: string, text: string, end: number, maxLen: number): { start: number; dist: number } {
  const m = pattern.length;
  const L = Math.min(maxLen, end);
  // rows: window length l (0..L), columns: pattern suffix length i (0..m), reading backwards.
  let prev = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) prev[i] = i;
  let best = { start: end, dist: m };
  for (let l = 1; l <= L; l++) {
    const cur = new Int32Array(m + 1);
    cur[0] = l;
    const t = text[end - l];
    for (let i = 1; i <= m; i++) {
      const sub = prev[i - 1] + (pattern[m - i] === t ? 0 : 1);
      cur[i] = Math.min(sub, prev[i] + 1, cur[i - 1] + 1);
    }
    const d = cur[m];
    if (d < best.dist || (d === best.dist && Math.abs(l - m) < Math.abs(end - best.start - m))) best = { start: end - l, dist: d };
    prev = cur;
  }
  return best;
}

export function fuzzyFind(pattern: string, text: string, threshold: number): FuzzyHit[] {
  const m = pattern.length;
  const n = text.length;
  if (m === 0 || n === 0) return [];
  // A window of length <= m + k with k edits keeps similarity >= threshold only if
  // k / (m + k) <= 1 - threshold.
  const maxEdits = Math.floor(((1 - threshold) * m) / threshold);
  const endDist = new Int32Array(n);
  let col = new Int32Array(m + 1);
  let next = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) col[i] = i;
  for (let j = 0; j < n; j++) {
    const t = text[j];
    for (let i = 1; i <= m; i++) {
      next[i] = Math.min(col[i - 1] + (pattern[i - 1] === t ? 0 : 1), col[i] + 1, next[i - 1] + 1);
    }
    endDist[j] = next[m];
    [col, next] = [next, col];
  }
  const wantDigits = digitsOf(pattern);
  const hits: FuzzyHit[] = [];
  for (let j = 0; j < n; j++) {
    const d = endDist[j];
    // First end of each local minimum: later ends of a plateau only add a substituted character.
    if (d > maxEdits || (j > 0 && endDist[j - 1] <= d) || (j + 1 < n && endDist[j + 1] < d)) continue;
    const { start, dist } = bestStart(pattern, text, j + 1, m + maxEdits);
    const window = text.slice(start, j + 1);
    const score = 1 - dist / Math.max(m, window.length);
    if (score < threshold || digitsOf(window) !== wantDigits) continue;
    const last = hits[hits.length - 1];
    if (last && start < last.end) {
      if (score > last.score) hits[hits.length - 1] = { start, end: j + 1, score };
      continue;
    }
    hits.push({ start, end: j + 1, score });
  }
  return hits;
}
