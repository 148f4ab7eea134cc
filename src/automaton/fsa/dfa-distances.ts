/**
 * Fewest bytes from each state of a finished automaton (trimmed, no calls) to acceptance, what
 * automata built on top of it read (excluded names, counted strings, subset-built rules): computed
 * once per automaton, since finished automata are shared and immutable.
 */
import type { ByteDfa } from "./dfa.js";
import { UNREACHABLE } from "./rule-tables.js";

const distanceCache = new WeakMap<ByteDfa, Int32Array>();

/** Fewest bytes from each state to acceptance. */
export function distancesOf(dfa: ByteDfa): Int32Array {
  let dist = distanceCache.get(dfa);
  if (dist !== undefined) return dist;
  // Breadth-first backwards from the accepting states (every move weighs 1).
  const { numStates: n, numClasses: k, trans } = dfa;
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < n; s++) for (let c = 0; c < k; c++) if (trans[s * k + c]! >= 0) preds[trans[s * k + c]!]!.push(s);
  dist = new Int32Array(n).fill(UNREACHABLE);
  const queue: number[] = [];
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) ((dist[s] = 0), queue.push(s));
  for (let head = 0; head < queue.length; head++) {
    const t = queue[head]!;
    for (const s of preds[t]!) if (dist[s]! >= UNREACHABLE) ((dist[s] = dist[t]! + 1), queue.push(s));
  }
  distanceCache.set(dfa, dist);
  return dist;
}
