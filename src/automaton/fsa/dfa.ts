/**
 * A deterministic byte automaton: the compiled form of a grammar that the mask engine walks.
 * Bytes are grouped into equivalence classes (bytes that every state treats alike) so the
 * transition table stays small. Invariants the builder guarantees and the mask engine relies on:
 *  - the automaton is trimmed: every state is reachable from `start` and can reach an accepting
 *    state, so a live state never leads the model into a dead end;
 *  - `trans[s * numClasses + classOf[b]]` is the next state, or -1 (dead).
 */
export interface ByteDfa {
  readonly numStates: number;
  readonly start: number;
  readonly numClasses: number;
  /** byte -> class, length 256. */
  readonly classOf: Uint8Array;
  /** numStates * numClasses entries, -1 = dead. */
  readonly trans: Int32Array;
  /** 1 where the state accepts (the document may end here). */
  readonly accepting: Uint8Array;
  /** Only in the per-rule automata of a grammar (rule-automata.ts): the last `callees.length`
   *  columns of `trans` are calls of these rule ids, which no byte maps to. */
  readonly callees?: Int32Array;
}

/** Step one byte; -1 when dead. */
export function stepByte(dfa: ByteDfa, state: number, byte: number): number {
  return dfa.trans[state * dfa.numClasses + dfa.classOf[byte]!]!;
}
