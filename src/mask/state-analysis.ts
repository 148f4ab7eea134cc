/**
 * Facts about each state of a byte automaton that the mask engine needs, computed once per
 * compiled grammar with linear-time graph searches:
 *  - `plainBudget`: how many characters of arbitrary plain text (see vocab-index) the state
 *    provably survives, per UTF-8 position; this is what lets a trie walk accept whole subtrees
 *    inside string bodies without visiting them (Infinity-like for free text, a count for
 *    length-bounded strings, -1/0 for structural states);
 *  - `distToAccept`: fewest bytes to reach an accepting state (for the shortest completion);
 *  - the single byte a state forces, if its only way on is one byte (for jump-forward).
 */
import type { ByteDfa } from "../automaton/dfa.js";
import { plainLeadPending } from "./plain-text.js";

export const UNBOUNDED = 0x3fffffff;

export interface StateAnalysis {
  /** plainBudget[s * 4 + p]: characters of plain text survivable from state s at UTF-8 position p. */
  readonly plainBudget: Int32Array;
  readonly distToAccept: Int32Array;
  /** The only byte state s can read next (and it does not accept), or -1. */
  readonly forcedByte: Int16Array;
}

export function analyzeStates(dfa: ByteDfa): StateAnalysis {
  return {
    plainBudget: plainBudgets(dfa),
    distToAccept: distancesToAccept(dfa),
    forcedByte: forcedBytes(dfa),
  };
}

/** For each UTF-8 position p, the distinct (byte class, next position) pairs of plain text bytes. */
function plainMoves(dfa: ByteDfa): { cls: number; next: number }[][] {
  const moves: { cls: number; next: number }[][] = [[], [], [], []];
  const seen = [new Set<number>(), new Set<number>(), new Set<number>(), new Set<number>()];
  const add = (p: number, b: number, next: number): void => {
    const key = dfa.classOf[b] * 4 + next;
    if (!seen[p].has(key)) {
      seen[p].add(key);
      moves[p].push({ cls: dfa.classOf[b], next });
    }
  };
  for (let b = 0; b < 256; b++) {
    const pending = plainLeadPending(b);
    if (pending >= 0) add(0, b, pending);
    if (b >= 0x80 && b <= 0xbf) for (let p = 1; p <= 3; p++) add(p, b, p - 1);
  }
  return moves;
}

/**
 * D(s,p) = fewest characters started on a plain-text path from (s,p) that ends in a dead byte;
 * budget = D - 1. Moves from position 0 start a character (weight 1), continuation moves do not
 * (weight 0), so this is a 0-1 shortest-path problem solved backwards from the deaths.
 */
function plainBudgets(dfa: ByteDfa): Int32Array {
  const n = dfa.numStates * 4;
  const moves = plainMoves(dfa);
  const dist = new Int32Array(n).fill(UNBOUNDED);
  // Reverse edges (t,p') -> (s,p) with weight w, in CSR form: count, prefix-sum, fill.
  const counts = new Int32Array(n + 1);
  let maxMoves = 0;
  for (const m of moves) maxMoves = Math.max(maxMoves, m.length);
  const fwd = new Int32Array(n * maxMoves).fill(-1);
  for (let s = 0; s < dfa.numStates; s++) {
    for (let p = 0; p < 4; p++) {
      const from = s * 4 + p;
      const w = p === 0 ? 1 : 0;
      const list = moves[p];
      for (let k = 0; k < list.length; k++) {
        const t = dfa.trans[s * dfa.numClasses + list[k].cls];
        if (t < 0) {
          if (w < dist[from]) dist[from] = w;
        } else {
          const to = t * 4 + list[k].next;
          fwd[from * maxMoves + k] = to;
          counts[to + 1]++;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  const revFrom = new Int32Array(counts[n]);
  const fill = counts.slice(0, n);
  for (let from = 0; from < n; from++) {
    for (let k = 0; k < maxMoves; k++) {
      const to = fwd[from * maxMoves + k];
      if (to >= 0) revFrom[fill[to]++] = from;
    }
  }
  // Dijkstra with 0/1 weights, layer by layer: `layer` holds nodes at distance d (a stack, since
  // 0-weight edges stay in the layer), `next` those at d + 1. Stale entries are skipped on pop.
  let layer: number[] = [];
  let next: number[] = [];
  for (let i = 0; i < n; i++) if (dist[i] === 0) layer.push(i);
  for (let i = 0; i < n; i++) if (dist[i] === 1) next.push(i);
  const done = new Uint8Array(n);
  for (let d = 0; layer.length > 0 || next.length > 0; d++) {
    while (layer.length > 0) {
      const v = layer.pop()!;
      if (done[v] || dist[v] !== d) continue;
      done[v] = 1;
      for (let e = counts[v]; e < counts[v + 1]; e++) {
        const u = revFrom[e];
        // An edge's weight is set by its source: moves from position 0 start a character.
        const w = (u & 3) === 0 ? 1 : 0;
        if (d + w < dist[u]) {
          dist[u] = d + w;
          (w === 0 ? layer : next).push(u);
        }
      }
    }
    layer = next;
    next = [];
  }
  for (let i = 0; i < n; i++) if (dist[i] !== UNBOUNDED) dist[i] -= 1;
  return dist;
}

/** Reverse BFS from the accepting states over byte transitions (predecessors in CSR form). */
function distancesToAccept(dfa: ByteDfa): Int32Array {
  const { numStates, numClasses, trans } = dfa;
  const start = new Int32Array(numStates + 1);
  for (let i = 0; i < trans.length; i++) if (trans[i] >= 0) start[trans[i] + 1]++;
  for (let s = 0; s < numStates; s++) start[s + 1] += start[s];
  const preds = new Int32Array(start[numStates]);
  const fill = start.slice(0, numStates);
  for (let i = 0; i < trans.length; i++) if (trans[i] >= 0) preds[fill[trans[i]]++] = (i / numClasses) | 0;
  const dist = new Int32Array(numStates).fill(-1);
  const queue = new Int32Array(numStates);
  let tail = 0;
  for (let s = 0; s < numStates; s++) {
    if (dfa.accepting[s]) {
      dist[s] = 0;
      queue[tail++] = s;
    }
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head];
    for (let e = start[v]; e < start[v + 1]; e++) {
      const u = preds[e];
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  return dist;
}

function forcedBytes(dfa: ByteDfa): Int16Array {
  const { numStates, numClasses, trans, classOf } = dfa;
  const classSize = new Int32Array(numClasses);
  const classByte = new Int16Array(numClasses);
  for (let b = 255; b >= 0; b--) {
    classSize[classOf[b]]++;
    classByte[classOf[b]] = b;
  }
  const forced = new Int16Array(numStates).fill(-1);
  for (let s = 0; s < numStates; s++) {
    if (dfa.accepting[s]) continue;
    let only = -1;
    let live = 0;
    for (let c = 0; c < numClasses && live <= 1; c++) {
      if (trans[s * numClasses + c] >= 0) {
        live += classSize[c];
        only = c;
      }
    }
    if (live === 1) forced[s] = classByte[only];
  }
  return forced;
}
