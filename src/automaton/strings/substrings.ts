/**
 * Content automaton of a verbatim field with a length bound or a pattern: exactly the substrings
 * of a source text a verbatim value may be (word-aligned, see verbatim-automaton.ts), as raw
 * UTF-8 (whole characters only), which json-string.ts then bounds, filters, escapes and quotes
 * like any other string content. It is that substring automaton with each code point spelled out in UTF-8 through small intermediate
 * states; UTF-8 is a prefix-free code, so the result stays deterministic. (Plain verbatim fields
 * use verbatim-automaton.ts, which builds the finished token directly and sparsely.)
 */
import { DfaBuilder, encodeCodePoint, type Budget, type ByteDfa } from "../fsa/index.js";
import { sourceCodePoints, wordAlignedSubstrings } from "./verbatim-automaton.js";

export function substringContent(text: string, budget: Budget, what: string): ByteDfa {
  const codePoints = sourceCodePoints(text, what);
  const { next: sam, start, accepting } = wordAlignedSubstrings(codePoints);
  // One class per byte value the text uses; every other byte is dead everywhere (class 0).
  const classOf = new Uint8Array(256);
  let numClasses = 1;
  for (const cp of new Set(codePoints)) {
    for (const b of encodeCodePoint(cp)) if (classOf[b] === 0) classOf[b] = numClasses++;
  }
  const out = new DfaBuilder(classOf, numClasses, budget, what);
  for (let s = 0; s < sam.length; s++) out.addState(accepting[s] === 1);
  for (let s = 0; s < sam.length; s++) {
    budget.charge(sam[s]!.size, what);
    for (const [cp, target] of sam[s]!) {
      const bytes = encodeCodePoint(cp);
      let at = s;
      for (let i = 0; i < bytes.length - 1; i++) {
        const cls = classOf[bytes[i]!]!;
        let mid = out.get(at, cls);
        if (mid < 0) {
          mid = out.addState(false);
          out.set(at, cls, mid);
        }
        at = mid;
      }
      out.set(at, classOf[bytes[bytes.length - 1]!]!, target);
    }
  }
  return out.build(start);
}
