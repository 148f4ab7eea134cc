/**
 * Subset construction: byte NFA -> DFA (not yet minimal or trimmed). The byte classes of the
 * result are the elementary intervals cut out by the NFA's edge ranges and its embedded DFAs'
 * classes, so the work per DFA state is proportional to its NFA moves, not to 256. Subsets that
 * are a single state without epsilon moves (most states inside embedded DFAs and literals) are
 * interned by number, without building keys. Every state and edge visit is charged to the budget,
 * so exponential blow-ups stop with AUTOMATON_TOO_LARGE. Calls (nfa.ts) become extra columns after
 * the byte classes, one per callee, listed in the result's `callees`.
 */
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { partitionFromCuts } from "./classes.js";
import type { Fragment, Nfa } from "./nfa.js";

/**
 * With `stopAtAccept`, every subset containing the exit collapses into one accepting state with
 * no transitions: the result accepts the texts that reach a first match, which is all a search
 * needs (the caller appends "any text"), at a fraction of the subsets.
 */
export function determinize(nfa: Nfa, frag: Fragment, budget: Budget, what: string, stopAtAccept = false): ByteDfa {
  const n = nfa.numStates;
  const cuts = new Set<number>();
  for (const e of nfa.edges) for (let i = 0; i < e.length; i += 3) cuts.add(e[i]).add(e[i + 1] + 1);
  for (const { dfa } of nfa.blocks) for (let b = 1; b < 256; b++) if (dfa.classOf[b] !== dfa.classOf[b - 1]) cuts.add(b);
  const { classOf, numClasses: byteClasses } = partitionFromCuts(cuts);
  const callees = [...new Set(nfa.calls.flatMap((c) => c.filter((_, i) => i % 2 === 0)))].sort((a, b) => a - b);
  const callColumn = new Map(callees.map((callee, i) => [callee, byteClasses + i]));
  const numClasses = byteClasses + callees.length;
  // Per block: our class -> the block's class (our partition refines every block's).
  const blockClass = nfa.blocks.map(({ dfa }) => {
    const map = new Int32Array(numClasses);
    for (let b = 0; b < 256; b++) map[classOf[b]] = dfa.classOf[b];
    return map;
  });

  const mark = new Int32Array(n).fill(-1);
  let gen = 0;
  const stack: number[] = [];
  /** Epsilon closure of `seeds`, sorted (the canonical subset). */
  const close = (seeds: readonly number[]): number[] => {
    gen++;
    const out: number[] = [];
    for (const s of seeds) {
      if (mark[s] === gen) continue;
      mark[s] = gen;
      stack.push(s);
    }
    while (stack.length > 0) {
      const s = stack.pop()!;
      out.push(s);
      for (const t of nfa.eps[s]) {
        if (mark[t] !== gen) {
          mark[t] = gen;
          stack.push(t);
        }
      }
    }
    // Sorting and keying large subsets is the expensive part of a blow-up: charge it fully.
    budget.charge(8 * out.length, what);
    return out.length > 1 ? out.sort((a, b) => a - b) : out;
  };

  const dfa = new DfaBuilder(classOf, numClasses, budget, what);
  const subsets: number[][] = [];
  let stop = -1;
  const add = (set: number[]): number => {
    const accepting = set.includes(frag.end);
    if (accepting && stopAtAccept) {
      if (stop < 0) {
        stop = dfa.addState(true);
        subsets.push([]);
      }
      return stop;
    }
    subsets.push(set);
    return dfa.addState(accepting);
  };
  const singleton = new Int32Array(n).fill(-1);
  const ids = new Map<string, number>();
  /** A single state without epsilon moves is its own closure. */
  const internOne = (s: number): number => {
    if (singleton[s] < 0) singleton[s] = add([s]);
    return singleton[s];
  };
  const intern = (seeds: readonly number[]): number => {
    if (seeds.length === 1 && nfa.eps[seeds[0]].length === 0) return internOne(seeds[0]);
    const set = close(seeds);
    if (set.length === 1) {
      if (singleton[set[0]] < 0) singleton[set[0]] = add(set);
      return singleton[set[0]];
    }
    const key = set.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = add(set);
      ids.set(key, id);
    }
    return id;
  };

  const buckets: number[][] = Array.from({ length: numClasses }, () => []);
  const touched: number[] = [];
  const push = (c: number, t: number): void => {
    if (buckets[c].length === 0) touched.push(c);
    buckets[c].push(t);
  };
  const start = intern([frag.start]);
  for (let d = 0; d < subsets.length; d++) {
    const members = subsets[d];
    budget.charge(numClasses, what);
    for (const s of members) {
      const block = nfa.blockOf[s];
      if (block >= 0) {
        const { base, dfa: inner } = nfa.blocks[block];
        const map = blockClass[block];
        const row = (s - base) * inner.numClasses;
        if (members.length === 1) {
          // Fast path: a lone block state maps row to row.
          for (let c = 0; c < numClasses; c++) {
            const t = inner.trans[row + map[c]];
            if (t >= 0) dfa.set(d, c, nfa.eps[base + t].length === 0 ? internOne(base + t) : intern([base + t]));
          }
          continue;
        }
        for (let c = 0; c < numClasses; c++) {
          const t = inner.trans[row + map[c]];
          if (t >= 0) push(c, base + t);
        }
      } else {
        const e = nfa.edges[s];
        budget.charge(e.length, what);
        for (let i = 0; i < e.length; i += 3) {
          const to = e[i + 2];
          for (let c = classOf[e[i]], hi = classOf[e[i + 1]]; c <= hi; c++) push(c, to);
        }
        const calls = nfa.calls[s];
        for (let i = 0; i < calls.length; i += 2) push(callColumn.get(calls[i])!, calls[i + 1]);
      }
    }
    for (const c of touched) {
      const b = buckets[c];
      dfa.set(d, c, intern(b.length === 1 ? b : [...new Set(b)]));
      b.length = 0;
    }
    touched.length = 0;
  }
  const built = dfa.build(start);
  return callees.length === 0 ? built : { ...built, callees: Int32Array.from(callees) };
}
