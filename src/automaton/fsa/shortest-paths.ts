/**
 * Fewest-weight distances to a set of target nodes (Dijkstra run backwards over the edges), for
 * the "fewest bytes to the end" tables of rule automata (rule-analysis.ts) and of their NFAs
 * (subset-rule.ts). Edges come as parallel lists; UNREACHABLE marks nodes that reach no target.
 */
import { MinHeap } from "../../util/index.js";
import { UNREACHABLE } from "./rule-tables.js";

/** Edges from[i] -> to[i] with non-negative weight[i]. */
export interface WeightedEdges {
  readonly from: ArrayLike<number>;
  readonly to: ArrayLike<number>;
  readonly weight: ArrayLike<number>;
}

export function distancesTo(numNodes: number, edges: WeightedEdges, targets: Iterable<number>): Int32Array {
  const n = numNodes;
  // Reverse edges grouped by their target (CSR): count, prefix-sum, fill.
  const off = new Int32Array(n + 1);
  for (let e = 0; e < edges.to.length; e++) off[edges.to[e]! + 1]!++;
  for (let s = 0; s < n; s++) off[s + 1]! += off[s]!;
  const from = new Int32Array(edges.to.length);
  const weight = new Int32Array(edges.to.length);
  const fill = off.slice(0, n);
  for (let e = 0; e < edges.to.length; e++) {
    const at = fill[edges.to[e]!]!++;
    from[at] = edges.from[e]!;
    weight[at] = edges.weight[e]!;
  }
  const dist = new Int32Array(n).fill(UNREACHABLE);
  const heap = new MinHeap();
  for (const t of targets) {
    dist[t] = 0;
    heap.push(0, t);
  }
  while (heap.size > 0) {
    const d = heap.topKey();
    const v = heap.pop();
    if (d !== dist[v]) continue;
    for (let e = off[v]!; e < off[v + 1]!; e++) {
      const u = from[e]!;
      const nd = d + weight[e]!;
      if (nd < dist[u]!) {
        dist[u] = nd;
        heap.push(nd, u);
      }
    }
  }
  return dist;
}
