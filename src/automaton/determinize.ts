/**
 * Subset construction: byte NFA -> DFA (not yet minimal or trimmed). The byte classes of the
 * result are the elementary intervals cut out by the NFA's edge ranges, so the work per DFA state
 * is proportional to its NFA edges, not to 256. Every state and every edge visit is charged to the
 * budget, so exponential blow-ups stop with AUTOMATON_TOO_LARGE.
 */
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { partitionFromCuts } from "./classes.js";
import type { Fragment, Nfa } from "./nfa.js";

export function determinize(nfa: Nfa, frag: Fragment, budget: Budget, what: string): ByteDfa {
  const n = nfa.numStates;
  const cuts = new Set<number>();
  for (const e of nfa.edges) for (let i = 0; i < e.length; i += 3) cuts.add(e[i]).add(e[i + 1] + 1);
  const part = partitionFromCuts(cuts);
  const { classOf, numClasses } = part;
  // Edges as class intervals: ranges never split a class because classes come from the cuts.
  const cedges: Int32Array[] = nfa.edges.map((e) => {
    const out = new Int32Array(e.length);
    for (let i = 0; i < e.length; i += 3) {
      out[i] = classOf[e[i]];
      out[i + 1] = classOf[e[i + 1]];
      out[i + 2] = e[i + 2];
    }
    return out;
  });

  const mark = new Int32Array(n).fill(-1);
  let gen = 0;
  const stack: number[] = [];
  /** Epsilon closure of `seeds`, sorted (the canonical subset). */
  const close = (seeds: number[]): number[] => {
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
    budget.charge(out.length, what);
    return out.length > 1 ? out.sort((a, b) => a - b) : out;
  };

  const dfa = new DfaBuilder(classOf, numClasses, budget, what);
  const ids = new Map<string, number>();
  const subsets: number[][] = [];
  const intern = (set: number[]): number => {
    const key = set.length === 1 ? String(set[0]) : set.join(",");
    let id = ids.get(key);
    if (id === undefined) {
      id = dfa.addState(set.includes(frag.end));
      ids.set(key, id);
      subsets.push(set);
    }
    return id;
  };

  const buckets: number[][] = Array.from({ length: numClasses }, () => []);
  const touched: number[] = [];
  const start = intern(close([frag.start]));
  for (let d = 0; d < subsets.length; d++) {
    for (const s of subsets[d]) {
      const e = cedges[s];
      budget.charge(e.length, what);
      for (let i = 0; i < e.length; i += 3) {
        for (let c = e[i]; c <= e[i + 1]; c++) {
          if (buckets[c].length === 0) touched.push(c);
          buckets[c].push(e[i + 2]);
        }
      }
    }
    // Classes with identical target lists share one closure computation.
    let lastKey = "";
    let lastId = -1;
    for (const c of touched) {
      const key = buckets[c].join(",");
      const id = key === lastKey ? lastId : intern(close(buckets[c]));
      dfa.set(d, c, id);
      lastKey = key;
      lastId = id;
      buckets[c].length = 0;
    }
    touched.length = 0;
  }
  return dfa.build(start);
}
