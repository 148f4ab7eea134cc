/**
 * Running a ByteDfa over whole inputs: for tests, verification and debugging, not for decoding
 * (the mask engine steps byte by byte itself).
 */
import type { ByteDfa } from "./dfa.js";
import { stepByte } from "./dfa.js";

/** True when the DFA accepts exactly these bytes. */
export function acceptsBytes(dfa: ByteDfa, bytes: ArrayLike<number>): boolean {
  let s = dfa.start;
  for (let i = 0; i < bytes.length && s >= 0; i++) s = stepByte(dfa, s, bytes[i]);
  return s >= 0 && dfa.accepting[s] === 1;
}

/** True when the DFA accepts the UTF-8 encoding of `text`. */
export function acceptsText(dfa: ByteDfa, text: string): boolean {
  return acceptsBytes(dfa, new TextEncoder().encode(text));
}
