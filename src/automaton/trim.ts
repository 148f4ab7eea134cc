/**
 * Trimming: keeps only states that are reachable from the start and can reach an accepting
 * state, renumbered in breadth-first order from the start. This is the invariant the mask engine
 * relies on (a live state never leads into a dead end). Returns null for the empty language.
 */
import type { ByteDfa } from "./dfa.js";

export function trim(dfa: ByteDfa): ByteDfa | null {
  const { numStates: n, numClasses: k, trans, accepting } = dfa;
  // Co-reachability over reverse edges (CSR layout).
  const indeg = new Int32Array(n + 1);
  for (let i = 0; i < trans.length; i++) if (trans[i] >= 0) indeg[trans[i] + 1]++;
  for (let s = 0; s < n; s++) indeg[s + 1] += indeg[s];
  const rev = new Int32Array(indeg[n]);
  const fill = indeg.slice(0, n);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      if (t >= 0) rev[fill[t]++] = s;
    }
  }
  const live = new Uint8Array(n);
  const queue = new Int32Array(n);
  let qh = 0;
  let qt = 0;
  for (let s = 0; s < n; s++) if (accepting[s]) ((live[s] = 1), (queue[qt++] = s));
  while (qh < qt) {
    const s = queue[qh++];
    for (let i = indeg[s]; i < indeg[s + 1]; i++) {
      const p = rev[i];
      if (!live[p]) ((live[p] = 1), (queue[qt++] = p));
    }
  }
  if (!live[dfa.start]) return null;
  // Forward BFS through live states only; numbering in visit order.
  const id = new Int32Array(n).fill(-1);
  qh = qt = 0;
  id[dfa.start] = qt;
  queue[qt++] = dfa.start;
  while (qh < qt) {
    const s = queue[qh++];
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      if (t >= 0 && live[t] && id[t] < 0) ((id[t] = qt), (queue[qt++] = t));
    }
  }
  const m = qt;
  const out = new Int32Array(m * k);
  const acc = new Uint8Array(m);
  for (let i = 0; i < m; i++) {
    const s = queue[i];
    acc[i] = accepting[s];
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      out[i * k + c] = t >= 0 ? id[t] : -1;
    }
  }
  return { numStates: m, start: 0, numClasses: k, classOf: dfa.classOf, trans: out, accepting: acc };
}
