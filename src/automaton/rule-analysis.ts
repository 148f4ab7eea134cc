/**
 * Per-rule facts (rule-tables.ts) the grammar automaton and the mask engine need, computed with
 * linear-time graph searches when a rule is first used, for each recursion depth left where the
 * rule's component is recursive (once otherwise, and shared with the rule's cache entry):
 *  - `next`: the rule's moves with every move removed that cannot complete within the depth
 *    left, so any state the automaton enters can still finish the document (no dead ends);
 *  - `dist`: fewest bytes to the rule's own acceptance, a call counting its callee's shortest text;
 *  - `plainBudget`: how many characters of plain text (plain-text.ts) a state provably survives
 *    within the rule, per UTF-8 position: what lets a trie walk accept whole subtrees inside
 *    string bodies without visiting them (a call or return counts as a death here, which only
 *    makes the budget smaller, never wrong);
 *  - `singleByte`: the only byte a state moves on, for jump-forward.
 */
import type { ByteDfa } from "./dfa.js";
import { plainLeadPending } from "./plain-text.js";
import type { RuleSet } from "./rule-automata.js";
import { isLazyRule, MANY_BYTES, NO_BYTE, UNBOUNDED, UNREACHABLE, type RuleTables } from "./rule-tables.js";

export class RuleAnalysis {
  /** tables[rule][k]: k = depth left for recursive rules, a single entry otherwise. Made on first
   *  use, like the rules themselves (a recursive component all at once). */
  private readonly tables: RuleTables[][] = [];

  constructor(private readonly rules: RuleSet) {}

  /** The tables of `rule` entered with `depth` left. */
  of(rule: number, depth: number): RuleTables {
    const tables = (this.tables[rule] ??= []);
    if (!this.rules.recursive(rule)) return (tables[0] ??= this.sharedAnalysis(rule));
    if (tables.length === 0) this.analyzeComponent(rule);
    return tables[depth];
  }

  /** Depth left inside `callee` when `caller` (with `depth` left) calls it; -1 when not allowed. */
  calleeDepth(caller: number, callee: number, depth: number): number {
    const { rules } = this;
    if (rules.component(caller) !== rules.component(callee)) return rules.maxDepth;
    return rules.head(callee) ? depth - 1 : depth;
  }

  /** Every member of a recursive component, every depth: a non-head callee before its callers
   *  (calls into heads read the depth below, already done). */
  private analyzeComponent(rule: number): void {
    const members = this.rules.componentMembers(rule);
    const order = calleesFirst(members, this.rules);
    for (const id of members) this.tables[id] ??= [];
    for (let k = 0; k <= this.rules.maxDepth; k++) for (const id of order) this.tables[id][k] = this.analyze(id, k);
  }

  /** A non-recursive rule's analysis, taken from (or given to) its shared cache entry. */
  private sharedAnalysis(rule: number): RuleTables {
    const shared = this.rules.shared(rule);
    if (shared === undefined) return this.analyze(rule, this.rules.maxDepth);
    return (shared.tables ??= this.analyze(rule, this.rules.maxDepth));
  }

  private analyze(rule: number, depth: number): RuleTables {
    const dfa = this.rules.dfa(rule);
    if (isLazyRule(dfa)) return dfa.tables;
    const callees = dfa.callees ?? NO_CALLEES;
    const first = dfa.numClasses - callees.length;
    const callWeight = Array.from(callees, (callee: number) => this.rules.minLength(callee, this.calleeDepth(rule, callee, depth)));
    const dist = distances(dfa, first, callWeight);
    const k = dfa.numClasses;
    // A rule without calls is trimmed as built: every move can complete, nothing to remove.
    const trans = callees.length === 0 ? dfa.trans : withoutDeadMoves(dfa, first, dist, callWeight);
    const filtered: ByteDfa = { ...dfa, trans };
    const budget = plainBudgets(filtered);
    const single = singleBytes(filtered, first);
    return {
      next: (state, column) => trans[state * k + column],
      dist: (state) => dist[state],
      plainBudget: (state, pos) => budget[state * 4 + pos],
      singleByte: (state) => single[state],
    };
  }
}

/** The rule's moves minus those into states that cannot complete or through calls that cannot. */
function withoutDeadMoves(dfa: ByteDfa, firstCall: number, dist: Int32Array, callWeight: readonly number[]): Int32Array {
  const trans = dfa.trans.slice();
  const k = dfa.numClasses;
  for (let s = 0; s < dfa.numStates; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      if (t >= 0 && (dist[t] >= UNREACHABLE || (c >= firstCall && callWeight[c - firstCall] >= UNREACHABLE))) trans[s * k + c] = -1;
    }
  }
  return trans;
}

const NO_CALLEES = new Int32Array(0);


/** Rules of one recursive component ordered so that a non-head callee comes before its callers
 *  (calls into heads cost depth and are read from the previous depth, so they impose no order). */
function calleesFirst(members: readonly number[], rules: RuleSet): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  const visit = (id: number): void => {
    seen.add(id);
    for (const callee of rules.dfa(id).callees ?? NO_CALLEES) {
      if (rules.component(callee) === rules.component(id) && !rules.head(callee) && !seen.has(callee)) visit(callee);
    }
    order.push(id);
  };
  for (const id of members) if (!seen.has(id)) visit(id);
  return order;
}

/** Dijkstra backwards from the accepting states; a byte weighs 1, a call its callee's shortest text. */
function distances(dfa: ByteDfa, firstCall: number, callWeight: readonly number[]): Int32Array {
  const { numStates: n, numClasses: k, trans } = dfa;
  const dist = new Int32Array(n).fill(UNREACHABLE);
  // Reverse edges in CSR form, each with its weight.
  const off = new Int32Array(n + 1);
  for (let i = 0; i < trans.length; i++) if (trans[i] >= 0) off[trans[i] + 1]++;
  for (let s = 0; s < n; s++) off[s + 1] += off[s];
  const from = new Int32Array(off[n]);
  const weight = new Int32Array(off[n]);
  const fill = off.slice(0, n);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      if (t < 0) continue;
      const w = c < firstCall ? 1 : callWeight[c - firstCall];
      if (w >= UNREACHABLE) continue;
      from[fill[t]] = s;
      weight[fill[t]++] = w;
    }
  }
  const heap = new MinHeap();
  for (let s = 0; s < n; s++) {
    if (dfa.accepting[s]) {
      dist[s] = 0;
      heap.push(0, s);
    }
  }
  while (heap.size > 0) {
    const d = heap.topKey();
    const v = heap.pop();
    if (d !== dist[v]) continue;
    for (let e = off[v]; e < off[v + 1]; e++) {
      const u = from[e];
      const nd = d + weight[e];
      if (nd < dist[u]) {
        dist[u] = nd;
        heap.push(nd, u);
      }
    }
  }
  return dist;
}

/** A binary min-heap of (key, value) integer pairs. */
class MinHeap {
  private keys: number[] = [];
  private values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  topKey(): number {
    return this.keys[0];
  }

  push(key: number, value: number): void {
    const { keys, values } = this;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] <= key) break;
      keys[i] = keys[p];
      values[i] = values[p];
      i = p;
    }
    keys[i] = key;
    values[i] = value;
  }

  pop(): number {
    const { keys, values } = this;
    const top = values[0];
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1] < keys[child]) child++;
      if (keys[child] >= lastKey) break;
      keys[i] = keys[child];
      values[i] = values[child];
      i = child;
    }
    keys[i] = lastKey;
    values[i] = lastValue;
    return top;
  }
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
  const edgeFrom: number[] = [];
  const edgeTo: number[] = [];
  for (let s = 0; s < dfa.numStates; s++) {
    for (let p = 0; p < 4; p++) {
      const from = s * 4 + p;
      const list = moves[p];
      const row = s * dfa.numClasses;
      // A node with a dead move is at its least possible distance already: its edges cannot
      // matter, and skipping them keeps sparse automata (verbatim texts) cheap.
      let dies = false;
      for (let k = 0; k < list.length && !dies; k++) dies = dfa.trans[row + list[k].cls] < 0;
      if (dies) {
        dist[from] = p === 0 ? 1 : 0;
        continue;
      }
      for (let k = 0; k < list.length; k++) {
        const to = dfa.trans[row + list[k].cls] * 4 + list[k].next;
        edgeFrom.push(from);
        edgeTo.push(to);
        counts[to + 1]++;
      }
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  const revFrom = new Int32Array(counts[n]);
  const fill = counts.slice(0, n);
  for (let e = 0; e < edgeFrom.length; e++) revFrom[fill[edgeTo[e]]++] = edgeFrom[e];
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

/** Per state: its only byte with a move, NO_BYTE or MANY_BYTES (byte columns only). */
function singleBytes(dfa: ByteDfa, byteClasses: number): Int16Array {
  const { numStates, numClasses, trans, classOf } = dfa;
  const classSize = new Int32Array(byteClasses);
  const classByte = new Int16Array(byteClasses);
  for (let b = 255; b >= 0; b--) {
    classSize[classOf[b]]++;
    classByte[classOf[b]] = b;
  }
  const single = new Int16Array(numStates).fill(NO_BYTE);
  for (let s = 0; s < numStates; s++) {
    let live = 0;
    for (let c = 0; c < byteClasses && live <= 1; c++) {
      if (trans[s * numClasses + c] >= 0) {
        live += classSize[c];
        single[s] = classByte[c];
      }
    }
    if (live > 1) single[s] = MANY_BYTES;
  }
  return single;
}
