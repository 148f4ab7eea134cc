/**
 * Content automaton of a verbatim field: exactly the non-empty substrings of a source text, as
 * raw UTF-8 (whole characters only). It is the suffix automaton of the text's code points (at most
 * 2n states and 3n transitions, built in linear time) with each code point spelled out in UTF-8
 * through small intermediate states; UTF-8 is a prefix-free code, so the result stays deterministic.
 * json-string.ts then bounds, escapes and quotes it like any other string content.
 */
import type { Budget } from "./budget.js";
import type { ByteDfa } from "./dfa.js";
import { DfaBuilder } from "./dfa-builder.js";
import { PocketExtractError } from "../errors.js";
import { encodeCodePoint } from "./utf8.js";

interface SuffixAutomaton {
  readonly next: Map<number, number>[];
}

function suffixAutomaton(codePoints: readonly number[]): SuffixAutomaton {
  const len: number[] = [0];
  const link: number[] = [-1];
  const next: Map<number, number>[] = [new Map()];
  let last = 0;
  for (const c of codePoints) {
    const cur = next.length;
    len.push(len[last] + 1);
    link.push(0);
    next.push(new Map());
    let p = last;
    while (p !== -1 && !next[p].has(c)) {
      next[p].set(c, cur);
      p = link[p];
    }
    if (p !== -1) {
      const q = next[p].get(c)!;
      if (len[p] + 1 === len[q]) {
        link[cur] = q;
      } else {
        const clone = next.length;
        len.push(len[p] + 1);
        link.push(link[q]);
        next.push(new Map(next[q]));
        while (p !== -1 && next[p].get(c) === q) {
          next[p].set(c, clone);
          p = link[p];
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  }
  return { next };
}

export function substringContent(text: string, budget: Budget, what: string): ByteDfa {
  const codePoints = Array.from(text, (ch) => ch.codePointAt(0)!);
  const lone = codePoints.findIndex((cp) => cp >= 0xd800 && cp <= 0xdfff);
  if (lone >= 0) {
    throw new PocketExtractError("TEXT_INVALID", `${what}: the source text has a lone UTF-16 surrogate (character ${lone}); it has no UTF-8 form`);
  }
  const sam = suffixAutomaton(codePoints);
  // One class per byte value the text uses; every other byte is dead everywhere (class 0).
  const classOf = new Uint8Array(256);
  let numClasses = 1;
  for (const cp of new Set(codePoints)) {
    for (const b of encodeCodePoint(cp)) if (classOf[b] === 0) classOf[b] = numClasses++;
  }
  const out = new DfaBuilder(classOf, numClasses, budget, what);
  for (let s = 0; s < sam.next.length; s++) out.addState(s !== 0);
  for (let s = 0; s < sam.next.length; s++) {
    budget.charge(sam.next[s].size, what);
    for (const [cp, target] of sam.next[s]) {
      const bytes = encodeCodePoint(cp);
      let at = s;
      for (let i = 0; i < bytes.length - 1; i++) {
        const cls = classOf[bytes[i]];
        let mid = out.get(at, cls);
        if (mid < 0) {
          mid = out.addState(false);
          out.set(at, cls, mid);
        }
        at = mid;
      }
      out.set(at, classOf[bytes[bytes.length - 1]], target);
    }
  }
  return out.build(0);
}
