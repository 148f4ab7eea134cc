/**
 * Code point sets as byte automata. A large set (\p{L}, \W, a negated class) splits into hundreds
 * of UTF-8 byte sequences; as separate NFA paths they make every subset that touches the set
 * track dozens of states. Instead such a set is determinized and minimized once (a few dozen
 * states, suffixes shared) and embedded as a block. Small sets stay plain NFA paths.
 */
import { Budget } from "./work-budget.js";
import type { ByteDfa } from "./dfa.js";
import { determinize } from "./determinize.js";
import { finish } from "./finish.js";
import { Nfa, type Fragment } from "./nfa.js";
import { utf8Sequences } from "./utf8.js";

type Ranges = readonly (readonly [number, number])[];

/** Sets with at most this many byte sequences are added as plain paths. */
const SMALL_SET = 4;
/** Distinct large sets kept; a build rarely uses more than a handful. */
const CACHE_LIMIT = 256;
const cache = new Map<string, ByteDfa>();

export function addCodePointSet(nfa: Nfa, ranges: Ranges): Fragment {
  let sequences = 0;
  for (const [lo, hi] of ranges) {
    sequences += utf8Sequences(lo, hi).length;
    if (sequences > SMALL_SET) return nfa.embed(setDfa(ranges));
  }
  return nfa.codePoints(ranges);
}

function setDfa(ranges: Ranges): ByteDfa {
  const key = ranges.map(([lo, hi]) => `${lo}-${hi}`).join(",");
  let dfa = cache.get(key);
  if (dfa === undefined) {
    // Bounded by UTF-8's structure (at most a few thousand states), so a private budget is safe.
    const budget = new Budget(1 << 20, 1 << 26);
    const nfa = new Nfa(budget, "character set");
    dfa = finish(determinize(nfa, nfa.codePoints(ranges), budget, "character set"))!;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, dfa);
  }
  return dfa;
}
