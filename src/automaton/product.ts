/**
 * Products of two DFAs over bytes: intersection and difference (A and not B). Used to subtract
 * excluded names/patterns from a string's content language. Only pairs reachable from the start
 * are built.
 */
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { refine } from "./classes.js";
import { PairIndex } from "./pair-index.js";

export type ProductMode = "intersect" | "difference";

export function product(a: ByteDfa, b: ByteDfa, mode: ProductMode, budget: Budget, what: string): ByteDfa {
  const part = refine(a.classOf, b.classOf);
  const out = new DfaBuilder(part.classOf, part.numClasses, budget, what);
  // A representative byte per joint class gives the class in each operand.
  const rep = new Int32Array(part.numClasses);
  for (let x = 255; x >= 0; x--) rep[part.classOf[x]] = x;
  const ids = new PairIndex(a.numStates, b.numStates + 1); // b's dead state -1 is stored as 0
  const pairs: number[] = [];
  const accepts = (sa: number, sb: number): boolean => {
    const inB = sb >= 0 && b.accepting[sb] === 1;
    return a.accepting[sa] === 1 && (mode === "intersect" ? inB : !inB);
  };
  const intern = (sa: number, sb: number): number => {
    let id = ids.get(sa, sb + 1);
    if (id < 0) {
      id = out.addState(accepts(sa, sb));
      ids.set(sa, sb + 1, id);
      pairs.push(sa, sb);
    }
    return id;
  };
  const start = intern(a.start, b.start);
  for (let i = 0; i < out.numStates; i++) {
    const sa = pairs[2 * i];
    const sb = pairs[2 * i + 1];
    budget.charge(part.numClasses, what);
    for (let c = 0; c < part.numClasses; c++) {
      const ta = a.trans[sa * a.numClasses + a.classOf[rep[c]]];
      if (ta < 0) continue;
      const tb = sb < 0 ? -1 : b.trans[sb * b.numClasses + b.classOf[rep[c]]];
      if (tb < 0 && mode === "intersect") continue;
      out.set(i, c, intern(ta, tb));
    }
  }
  return out.build(start);
}
