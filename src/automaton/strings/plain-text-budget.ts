/**
 * Plain-text budgets of a byte automaton's states (see rule-analysis.ts `plainBudget`): how many
 * characters of plain text (plain-text.ts) each state provably survives, per UTF-8 position.
 * Finished automata (shared and immutable) have theirs computed once (`plainBudgetsOf`).
 */
import { UNBOUNDED, type ByteDfa } from "../fsa/index.js";
import { plainLeadPending } from "./plain-text.js";

/** For each UTF-8 position p, the distinct (byte class, next position) pairs of plain text bytes. */
function plainMoves(dfa: ByteDfa): { cls: number; next: number }[][] {
  const moves: { cls: number; next: number }[][] = [[], [], [], []];
  const seen = [new Set<number>(), new Set<number>(), new Set<number>(), new Set<number>()];
  const add = (p: number, b: number, next: number): void => {
    const key = dfa.classOf[b]! * 4 + next;
    if (!seen[p]!.has(key)) {
      seen[p]!.add(key);
      moves[p]!.push({ cls: dfa.classOf[b]!, next });
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
export function plainBudgets(dfa: ByteDfa): Int32Array {
  const n = dfa.numStates * 4;
  const moves = plainMoves(dfa);
  const dist = new Int32Array(n).fill(UNBOUNDED);
  // Reverse edges (t,p') -> (s,p) with weight w, in CSR form: count, prefix-sum, fill.
  const counts = new Int32Array(n + 1);
  const edgeFrom: number[] = [];
  const edgeTo: number[] = [];
  for (let s = 0; s < dfa.numStates; s++) {
    for (let p = 0; p < 4; p++) {
      const from = s * 4 + p;
      const list = moves[p]!;
      const row = s * dfa.numClasses;
      // A node with a dead move is at its least possible distance already: its edges cannot
      // matter, and skipping them keeps sparse automata (verbatim texts) cheap.
      let dies = false;
      for (let k = 0; k < list.length && !dies; k++) dies = dfa.trans[row + list[k]!.cls]! < 0;
      if (dies) {
        dist[from] = p === 0 ? 1 : 0;
        continue;
      }
      for (let k = 0; k < list.length; k++) {
        const to = dfa.trans[row + list[k]!.cls]! * 4 + list[k]!.next;
        edgeFrom.push(from);
        edgeTo.push(to);
        counts[to + 1]!++;
      }
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1]! += counts[i]!;
  const revFrom = new Int32Array(counts[n]!);
  const fill = counts.slice(0, n);
  for (let e = 0; e < edgeFrom.length; e++) revFrom[fill[edgeTo[e]!]!++] = edgeFrom[e]!;
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
      for (let e = counts[v]!; e < counts[v + 1]!; e++) {
        const u = revFrom[e]!;
        // An edge's weight is set by its source: moves from position 0 start a character.
        const w = (u & 3) === 0 ? 1 : 0;
        if (d + w < dist[u]!) {
          dist[u] = d + w;
          (w === 0 ? layer : next).push(u);
        }
      }
    }
    layer = next;
    next = [];
  }
  for (let i = 0; i < n; i++) if (dist[i] !== UNBOUNDED) dist[i]! -= 1;
  return dist;
}

const plainBudgetCache = new WeakMap<ByteDfa, Int32Array>();

/** plainBudgets of a finished automaton (trimmed, no calls), computed once: [state * 4 + UTF-8 position]. */
export function plainBudgetsOf(dfa: ByteDfa): Int32Array {
  let budgets = plainBudgetCache.get(dfa);
  if (budgets === undefined) plainBudgetCache.set(dfa, (budgets = plainBudgets(dfa)));
  return budgets;
}
