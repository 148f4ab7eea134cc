/**
 * Concatenation A·B without subset construction, for the case where A's accepting states have
 * no outgoing transitions (A's language is prefix-free, e.g. "texts up to a first match"): each
 * transition into an accepting state of A simply continues at B's start. Not for general A.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { refine } from "./byte-partition.js";

export function concatAfterSinks(a: ByteDfa, b: ByteDfa, budget: Budget, what: string): ByteDfa {
  if (a.accepting[a.start]) return b;
  const part = refine(a.classOf, b.classOf);
  const rep = new Int32Array(part.numClasses);
  for (let x = 255; x >= 0; x--) rep[part.classOf[x]!] = x;
  const out = new DfaBuilder(part.classOf, part.numClasses, budget, what);
  for (let s = 0; s < a.numStates; s++) out.addState();
  const base = a.numStates;
  for (let s = 0; s < b.numStates; s++) out.addState(b.accepting[s] === 1);
  for (let s = 0; s < a.numStates; s++) {
    for (let c = 0; c < part.numClasses; c++) {
      const t = a.trans[s * a.numClasses + a.classOf[rep[c]!]!]!;
      if (t >= 0) out.set(s, c, a.accepting[t] ? base + b.start : t);
    }
  }
  for (let s = 0; s < b.numStates; s++) {
    for (let c = 0; c < part.numClasses; c++) {
      const t = b.trans[s * b.numClasses + b.classOf[rep[c]!]!]!;
      if (t >= 0) out.set(base + s, c, base + t);
    }
  }
  return out.build(a.start);
}
