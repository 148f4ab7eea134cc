/**
 * The normal form every automaton this module hands out is in: trimmed, minimal, numbered in
 * breadth-first order from the start, with the fewest byte classes. Returns null for the empty
 * language.
 */
import type { ByteDfa } from "./dfa.js";
import { compressClasses } from "./byte-partition.js";
import { minimize } from "./minimize.js";
import { trim } from "./trim.js";

export function finish(dfa: ByteDfa): ByteDfa | null {
  const trimmed = trim(dfa);
  if (trimmed === null) return null;
  // Minimizing a trimmed automaton keeps it trimmed. Both keep the column order, so call columns
  // (dfa.ts `callees`) carry over unchanged.
  const minimal = minimize(trimmed);
  return compressClasses(dfa.callees === undefined ? minimal : { ...minimal, callees: dfa.callees });
}
