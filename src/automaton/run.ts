/**
 * Running an automaton over whole inputs: for tests, verification and debugging, not for decoding
 * (the mask engine steps states itself).
 */
import { stepByte, type ByteDfa } from "./fsa/index.js";
import type { GrammarAutomaton } from "./grammar-automaton.js";

/** True when the automaton accepts exactly these bytes. */
export function acceptsBytes(automaton: GrammarAutomaton | ByteDfa, bytes: ArrayLike<number>): boolean {
  if ("stepClass" in automaton) {
    let s = automaton.start;
    for (let i = 0; i < bytes.length && s >= 0; i++) s = automaton.step(s, bytes[i]!);
    return s >= 0 && automaton.isAccepting(s);
  }
  let s = automaton.start;
  for (let i = 0; i < bytes.length && s >= 0; i++) s = stepByte(automaton, s, bytes[i]!);
  return s >= 0 && automaton.accepting[s] === 1;
}

/** acceptsBytes on the UTF-8 encoding of `text`. */
export function acceptsText(automaton: GrammarAutomaton | ByteDfa, text: string): boolean {
  return acceptsBytes(automaton, new TextEncoder().encode(text));
}
