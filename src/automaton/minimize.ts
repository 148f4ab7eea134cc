/**
 * DFA minimization for partial transition tables: Valmari & Lehtinen's O(m log n) refinement
 * ("Efficient minimization of DFAs with partial transition functions", 2008), which is Hopcroft's
 * algorithm without a completed dead state. The input must be trimmed (trim.ts) — the algorithm
 * is only correct when every state is reachable and co-reachable.
 */
import type { ByteDfa } from "./dfa.js";

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

  constructor(n: number) {
    this.z = n > 0 ? 1 : 0;
    this.E = new Int32Array(n);
    this.L = new Int32Array(n);
    for (let i = 0; i < n; i++) this.E[i] = this.L[i] = i;
    this.S = new Int32Array(n);
    this.F = new Int32Array(n + 1);
    this.P = new Int32Array(n + 1);
    this.P[0] = n;
    this.M = new Int32Array(n + 1);
    this.W = new Int32Array(n + 1);
  }

  mark(e: number): void {
    const { E, L, S, F, M } = this;
    const s = S[e];
    const i = L[e];
    const j = F[s] + M[s];
    E[i] = E[j];
    L[E[i]] = i;
    E[j] = e;
    L[e] = j;
    if (M[s]++ === 0) this.W[this.w++] = s;
  }

  /** Splits every set with marks into marked and unmarked parts; the smaller part gets a new id. */
  split(): void {
    const { E, S, F, P, M, W } = this;
    while (this.w > 0) {
      const s = W[--this.w];
      const j = F[s] + M[s];
      if (j === P[s]) {
        M[s] = 0;
        continue;
      }
      const z = this.z;
      if (M[s] <= P[s] - j) {
        F[z] = F[s];
        P[z] = F[s] = j;
      } else {
        P[z] = P[s];
        F[z] = P[s] = j;
      }
      for (let i = F[z]; i < P[z]; i++) S[E[i]] = z;
      M[s] = M[z] = 0;
      this.z++;
    }
  }
}

export function minimize(dfa: ByteDfa): ByteDfa {
  const { numStates: n, numClasses: k, trans } = dfa;
  let m = 0;
  const perLabel = new Int32Array(k + 1);
  for (let i = 0; i < trans.length; i++) if (trans[i] >= 0) (m++, perLabel[(i % k) + 1]++);
  const T = new Int32Array(m);
  const H = new Int32Array(m);
  const Lab = new Int32Array(m);
  let t = 0;
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const to = trans[s * k + c];
      if (to >= 0) ((T[t] = s), (H[t] = to), (Lab[t] = c), t++);
    }
  }

  const B = new Refinable(n);
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) B.mark(s);
  B.split();

  // Cords: transitions grouped by label.
  const C = new Refinable(m);
  for (let c = 0; c < k; c++) perLabel[c + 1] += perLabel[c];
  const pos = perLabel.slice(0, k);
  for (let i = 0; i < m; i++) {
    const at = pos[Lab[i]]++;
    C.E[at] = i;
    C.L[i] = at;
    C.S[i] = Lab[i];
  }
  // Compact labels that have transitions into consecutive cord ids.
  let z = 0;
  for (let c = 0; c < k; c++) {
    if (perLabel[c + 1] === perLabel[c]) continue;
    C.F[z] = perLabel[c];
    C.P[z] = perLabel[c + 1];
    for (let i = perLabel[c]; i < perLabel[c + 1]; i++) C.S[C.E[i]] = z;
    z++;
  }
  C.z = z;

  // Incoming transitions per state.
  const inOff = new Int32Array(n + 1);
  for (let i = 0; i < m; i++) inOff[H[i] + 1]++;
  for (let s = 0; s < n; s++) inOff[s + 1] += inOff[s];
  const inc = new Int32Array(m);
  const fill = inOff.slice(0, n);
  for (let i = 0; i < m; i++) inc[fill[H[i]]++] = i;

  let b = 1;
  let c = 0;
  while (c < C.z) {
    for (let i = C.F[c]; i < C.P[c]; i++) B.mark(T[C.E[i]]);
    B.split();
    c++;
    while (b < B.z) {
      for (let i = B.F[b]; i < B.P[b]; i++) {
        const q = B.E[i];
        for (let j = inOff[q]; j < inOff[q + 1]; j++) C.mark(inc[j]);
      }
      C.split();
      b++;
    }
  }

  const nb = B.z;
  if (nb === n) return dfa;
  const out = new Int32Array(nb * k);
  const acc = new Uint8Array(nb);
  for (let blk = 0; blk < nb; blk++) {
    const rep = B.E[B.F[blk]];
    acc[blk] = dfa.accepting[rep];
    for (let cc = 0; cc < k; cc++) {
      const to = trans[rep * k + cc];
      out[blk * k + cc] = to >= 0 ? B.S[to] : -1;
    }
  }
  return { numStates: nb, start: B.S[dfa.start], numClasses: k, classOf: dfa.classOf, trans: out, accepting: acc };
}
