/**
 * Products of two DFAs over bytes: union, intersection and difference (A and not B). Used to
 * combine search patterns and subtract excluded names/patterns from a string's content language.
 * Only pairs reachable from the start are built.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { refine } from "./byte-partition.js";
import { PairIndex } from "./pair-index.js";

export type ProductMode = "union" | "intersect" | "difference";

export function product(a: ByteDfa, b: ByteDfa, mode: ProductMode, budget: Budget, what: string): ByteDfa {
  const part = refine(a.classOf, b.classOf);
  const out = new DfaBuilder(part.classOf, part.numClasses, budget, what);
  // A representative byte per joint class gives the class in each operand.
  const rep = new Int32Array(part.numClasses);
  for (let x = 255; x >= 0; x--) rep[part.classOf[x]!] = x;
  // Dead operand states (-1) are stored shifted by one.
  const ids = new PairIndex(a.numStates + 1, b.numStates + 1);
  const pairs: number[] = [];
  const accepts = (sa: number, sb: number): boolean => {
    const inA = sa >= 0 && a.accepting[sa] === 1;
    const inB = sb >= 0 && b.accepting[sb] === 1;
    return mode === "union" ? inA || inB : mode === "intersect" ? inA && inB : inA && !inB;
  };
  const intern = (sa: number, sb: number): number => {
    let id = ids.get(sa + 1, sb + 1);
    if (id < 0) {
      id = out.addState(accepts(sa, sb));
      ids.set(sa + 1, sb + 1, id);
      pairs.push(sa, sb);
    }
    return id;
  };
  const start = intern(a.start, b.start);
  for (let i = 0; i < out.numStates; i++) {
    const sa = pairs[2 * i]!;
    const sb = pairs[2 * i + 1]!;
    budget.charge(part.numClasses, what);
    for (let c = 0; c < part.numClasses; c++) {
      const ta = sa < 0 ? -1 : a.trans[sa * a.numClasses + a.classOf[rep[c]!]!]!;
      const tb = sb < 0 ? -1 : b.trans[sb * b.numClasses + b.classOf[rep[c]!]!]!;
      if (mode === "union" ? ta < 0 && tb < 0 : ta < 0 || (tb < 0 && mode === "intersect")) continue;
      out.set(i, c, intern(ta, tb));
    }
  }
  return out.build(start);
}
