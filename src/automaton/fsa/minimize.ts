/**
 * DFA minimization for partial transition tables: Valmari & Lehtinen's O(m log n) refinement
 * ("Efficient minimization of DFAs with partial transition functions", 2008), which is Hopcroft's
 * algorithm without a completed dead state. The input must be trimmed (trim.ts) — the algorithm
 * is only correct when every state is reachable and co-reachable.
 */
import type { ByteDfa } from "./dfa.js";
import { ScratchPool } from "./scratch.js";

const pool = new ScratchPool();

/** A partition of 0..n-1 into sets that can be split by marking elements. */
class Refinable {
  z: number;
  readonly E: Int32Array; // elements grouped by set
  readonly L: Int32Array; // location of each element in E
  readonly S: Int32Array; // set of each element
  readonly F: Int32Array; // first index of each set in E
  readonly P: Int32Array; // past-the-end index of each set in E
  private readonly M: Int32Array; // marked count per set
  private readonly W: Int32Array; // sets with marks
  private w = 0;

  /** Uses pool slots [slot, slot + 7). */
  constructor(n: number, slot: number) {
    this.z = n > 0 ? 1 : 0;
    this.E = pool.int32(slot, n);
    this.L = pool.int32(slot + 1, n);
    for (let i = 0; i < n; i++) this.E[i] = this.L[i] = i;
    this.S = pool.int32(slot + 2, n).fill(0);
    this.F = pool.int32(slot + 3, n + 1).fill(0);
    this.P = pool.int32(slot + 4, n + 1).fill(0);
    this.P[0] = n;
    this.M = pool.int32(slot + 5, n + 1).fill(0);
    this.W = pool.int32(slot + 6, n + 1);
  }

  mark(e: number): void {
    const { E, L, S, F, M } = this;
    const s = S[e]!;
    const i = L[e]!;
    const j = F[s]! + M[s]!;
    E[i] = E[j]!;
    L[E[i]!] = i;
    E[j] = e;
    L[e] = j;
    if (M[s]!++ === 0) this.W[this.w++] = s;
  }

  /** Splits every set with marks into marked and unmarked parts; the smaller part gets a new id. */
  split(): void {
    const { E, S, F, P, M, W } = this;
    while (this.w > 0) {
      const s = W[--this.w]!;
      const j = F[s]! + M[s]!;
      if (j === P[s]) {
        M[s] = 0;
        continue;
      }
      const z = this.z;
      if (M[s]! <= P[s]! - j) {
        F[z] = F[s]!;
        P[z] = F[s] = j;
      } else {
        P[z] = P[s]!;
        F[z] = P[s] = j;
      }
      for (let i = F[z]!; i < P[z]!; i++) S[E[i]!] = z;
      M[s] = M[z] = 0;
      this.z++;
    }
  }
}

/** The minimal DFA of a trimmed DFA, states numbered breadth-first from the start. */
export function minimize(dfa: ByteDfa): ByteDfa {
  const { numStates: n, numClasses: k, trans } = dfa;
  let m = 0;
  const perLabel = pool.int32(0, k + 1).fill(0);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) if (trans[s * k + c]! >= 0) (m++, perLabel[c + 1]!++);
  }
  const T = pool.int32(1, m);
  const H = pool.int32(2, m);
  const Lab = pool.int32(3, m);
  let t = 0;
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const to = trans[s * k + c]!;
      if (to >= 0) ((T[t] = s), (H[t] = to), (Lab[t] = c), t++);
    }
  }

  const B = new Refinable(n, 10);
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) B.mark(s);
  B.split();

  // Cords: transitions grouped by label.
  const C = new Refinable(m, 20);
  for (let c = 0; c < k; c++) perLabel[c + 1]! += perLabel[c]!;
  const pos = perLabel.slice(0, k);
  for (let i = 0; i < m; i++) {
    const at = pos[Lab[i]!]!++;
    C.E[at] = i;
    C.L[i] = at;
    C.S[i] = Lab[i]!;
  }
  // Compact labels that have transitions into consecutive cord ids.
  let z = 0;
  for (let c = 0; c < k; c++) {
    if (perLabel[c + 1] === perLabel[c]) continue;
    C.F[z] = perLabel[c]!;
    C.P[z] = perLabel[c + 1]!;
    for (let i = perLabel[c]!; i < perLabel[c + 1]!; i++) C.S[C.E[i]!] = z;
    z++;
  }
  C.z = z;

  // Incoming transitions per state.
  const inOff = pool.int32(4, n + 1).fill(0);
  for (let i = 0; i < m; i++) inOff[H[i]! + 1]!++;
  for (let s = 0; s < n; s++) inOff[s + 1]! += inOff[s]!;
  const inc = pool.int32(5, m);
  const fill = pool.int32(8, n);
  fill.set(inOff.subarray(0, n));
  for (let i = 0; i < m; i++) inc[fill[H[i]!]!++] = i;

  let b = 1;
  let c = 0;
  while (c < C.z) {
    for (let i = C.F[c]!; i < C.P[c]!; i++) B.mark(T[C.E[i]!]!);
    B.split();
    c++;
    while (b < B.z) {
      for (let i = B.F[b]!; i < B.P[b]!; i++) {
        const q = B.E[i]!;
        for (let j = inOff[q]!; j < inOff[q + 1]!; j++) C.mark(inc[j]!);
      }
      C.split();
      b++;
    }
  }

  // Quotient, numbered breadth-first from the start block through block representatives.
  const nb = B.z;
  const id = pool.int32(6, nb).fill(-1);
  const order = pool.int32(7, nb);
  let qt = 0;
  id[B.S[dfa.start]!] = qt;
  order[qt++] = B.S[dfa.start]!;
  const out = new Int32Array(nb * k);
  const acc = new Uint8Array(nb);
  for (let qh = 0; qh < qt; qh++) {
    const rep = B.E[B.F[order[qh]!]!]!;
    acc[qh] = dfa.accepting[rep]!;
    for (let cc = 0; cc < k; cc++) {
      const to = trans[rep * k + cc]!;
      if (to < 0) {
        out[qh * k + cc] = -1;
        continue;
      }
      const blk = B.S[to]!;
      if (id[blk]! < 0) ((id[blk] = qt), (order[qt++] = blk));
      out[qh * k + cc] = id[blk]!;
    }
  }
  return { numStates: nb, start: 0, numClasses: k, classOf: dfa.classOf, trans: out, accepting: acc };
}
