/**
 * Trimming: keeps only states that are reachable from the start and can reach an accepting
 * state, renumbered in breadth-first order from the start. This is the invariant the mask engine
 * relies on (a live state never leads into a dead end). Returns null for the empty language.
 */
import type { ByteDfa } from "./dfa.js";
import { ScratchPool } from "./scratch.js";

const pool = new ScratchPool();

export function trim(dfa: ByteDfa): ByteDfa | null {
  const { numStates: n, numClasses: k, trans, accepting } = dfa;
  // Co-reachability over reverse edges (CSR layout).
  const off = pool.int32(0, n + 1).fill(0);
  for (let i = 0; i < trans.length; i++) if (trans[i]! >= 0) off[trans[i]! + 1]!++;
  for (let s = 0; s < n; s++) off[s + 1]! += off[s]!;
  const rev = pool.int32(1, off[n]!);
  const fill = pool.int32(2, n);
  fill.set(off.subarray(0, n));
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      if (t >= 0) rev[fill[t]!++] = s;
    }
  }
  const live = pool.int32(3, n).fill(0);
  const queue = pool.int32(4, n);
  let qh = 0;
  let qt = 0;
  for (let s = 0; s < n; s++) if (accepting[s]) ((live[s] = 1), (queue[qt++] = s));
  while (qh < qt) {
    const s = queue[qh++]!;
    for (let i = off[s]!; i < off[s + 1]!; i++) {
      const p = rev[i]!;
      if (!live[p]) ((live[p] = 1), (queue[qt++] = p));
    }
  }
  if (!live[dfa.start]) return null;
  return renumber(dfa, (t) => live[t] === 1);
}

/**
 * Breadth-first renumbering from the start through the states `keep` admits; transitions to
 * other states become dead. The result's classes are unchanged.
 */
function renumber(dfa: ByteDfa, keep: (state: number) => boolean): ByteDfa {
  const { numStates: n, numClasses: k, trans, accepting } = dfa;
  const id = pool.int32(5, n).fill(-1);
  const queue = pool.int32(6, n);
  let qh = 0;
  let qt = 0;
  id[dfa.start] = qt;
  queue[qt++] = dfa.start;
  while (qh < qt) {
    const s = queue[qh++]!;
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      if (t >= 0 && id[t]! < 0 && keep(t)) ((id[t] = qt), (queue[qt++] = t));
    }
  }
  const m = qt;
  const out = new Int32Array(m * k);
  const acc = new Uint8Array(m);
  for (let i = 0; i < m; i++) {
    const s = queue[i]!;
    acc[i] = accepting[s]!;
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      out[i * k + c] = t >= 0 ? id[t]! : -1;
    }
  }
  return { numStates: m, start: 0, numClasses: k, classOf: dfa.classOf, trans: out, accepting: acc };
}
