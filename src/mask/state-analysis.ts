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
import { plainLeadPending } from "./vocab-index.js";

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
  // Reverse edges: (t,p') -> (s,p) with weight w, stored in CSR form.
  const counts = new Int32Array(n + 1);
  const edges: number[] = [];
  for (let s = 0; s < dfa.numStates; s++) {
    for (let p = 0; p < 4; p++) {
      const w = p === 0 ? 1 : 0;
      for (const m of moves[p]) {
        const t = dfa.trans[s * dfa.numClasses + m.cls];
        const from = s * 4 + p;
        if (t < 0) {
          if (w < dist[from]) dist[from] = w;
        } else {
          edges.push(t * 4 + m.next, from, w);
          counts[t * 4 + m.next + 1]++;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  const revFrom = new Int32Array(edges.length / 3);
  const revW = new Uint8Array(edges.length / 3);
  const fill = counts.slice(0, n);
  for (let e = 0; e < edges.length; e += 3) {
    const slot = fill[edges[e]]++;
    revFrom[slot] = edges[e + 1];
    revW[slot] = edges[e + 2];
  }
  // 0-1 BFS (deque) seeded with every node that has a direct death.
  const deque = new Int32Array(2 * n + 2);
  let head = n + 1;
  let tail = n + 1;
  for (let i = 0; i < n; i++) if (dist[i] === 0) deque[tail++] = i;
  for (let i = 0; i < n; i++) if (dist[i] === 1) deque[tail++] = i;
  const done = new Uint8Array(n);
  while (head < tail) {
    const v = deque[head++];
    if (done[v]) continue;
    done[v] = 1;
    for (let e = counts[v]; e < counts[v + 1]; e++) {
      const u = revFrom[e];
      const d = dist[v] + revW[e];
      if (d < dist[u]) {
        dist[u] = d;
        if (revW[e] === 0) deque[--head] = u;
        else deque[tail++] = u;
      }
    }
  }
  for (let i = 0; i < n; i++) if (dist[i] !== UNBOUNDED) dist[i] -= 1;
  return dist;
}

/** Reverse BFS from the accepting states over byte transitions. */
function distancesToAccept(dfa: ByteDfa): Int32Array {
  const { numStates, numClasses, trans } = dfa;
  const preds: number[][] = Array.from({ length: numStates }, () => []);
  for (let s = 0; s < numStates; s++) {
    for (let c = 0; c < numClasses; c++) {
      const t = trans[s * numClasses + c];
      if (t >= 0) preds[t].push(s);
    }
  }
  const dist = new Int32Array(numStates).fill(-1);
  const queue: number[] = [];
  for (let s = 0; s < numStates; s++) {
    if (dfa.accepting[s]) {
      dist[s] = 0;
      queue.push(s);
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const u of preds[v]) {
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        queue.push(u);
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
