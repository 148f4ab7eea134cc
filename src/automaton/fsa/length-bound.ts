/**
 * Length bounds on UTF-8 text in code points, built directly as a product of the content DFA
 * with a counter (the count rises on every lead byte), instead of unrolling `x{min,max}` into
 * max copies of an NFA and determinizing: the product has at most |content| * (max+1) states and
 * costs linear time, so `maxLength: 200` takes milliseconds. With max = Infinity the counter
 * saturates at min. The content DFA must accept only valid UTF-8.
 */
import type { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { refine } from "./byte-partition.js";
import { PairIndex } from "./pair-index.js";

const isContinuation = (b: number): boolean => (b & 0xc0) === 0x80;
/** UTF-8 continuation bytes (1) apart from the others (0). */
const CONTINUATION_LABELS = Uint8Array.from({ length: 256 }, (_, b) => (isContinuation(b) ? 1 : 0));

export function boundLength(content: ByteDfa, min: number, max: number, budget: Budget, what: string): ByteDfa {
  const part = refine(content.classOf, CONTINUATION_LABELS);
  const rep = new Int32Array(part.numClasses);
  for (let x = 255; x >= 0; x--) rep[part.classOf[x]!] = x;
  const cap = max === Infinity ? min : max;
  const out = new DfaBuilder(part.classOf, part.numClasses, budget, what);
  const ids = new PairIndex(content.numStates, cap + 1);
  const pairs: number[] = [];
  const intern = (s: number, count: number): number => {
    let id = ids.get(s, count);
    if (id < 0) {
      id = out.addState(content.accepting[s] === 1 && count >= min);
      ids.set(s, count, id);
      pairs.push(s, count);
    }
    return id;
  };
  const start = intern(content.start, 0);
  for (let i = 0; i < out.numStates; i++) {
    const s = pairs[2 * i]!;
    const count = pairs[2 * i + 1]!;
    budget.charge(part.numClasses, what);
    for (let c = 0; c < part.numClasses; c++) {
      const b = rep[c]!;
      const t = content.trans[s * content.numClasses + content.classOf[b]!]!;
      if (t < 0) continue;
      let next = isContinuation(b) ? count : count + 1;
      if (next > cap) {
        if (max !== Infinity) continue;
        next = cap;
      }
      out.set(i, c, intern(t, next));
    }
  }
  return out.build(start);
}
