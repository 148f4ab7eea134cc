/**
 * Test helpers for automata: byte-by-byte acceptance, structural invariants (trimmed, minimal)
 * checked by brute force independently of the builder's own algorithms, and small grammar
 * constructors.
 */
import { acceptsBytes, acceptsText, stepByte, type ByteDfa, type GrammarAutomaton } from "../../src/automaton/index.js";
import type { Expr, Grammar } from "../../src/grammar/ir.js";

/** Byte-by-byte acceptance of a text (as UTF-8) or of raw bytes. */
export const accepts = (dfa: GrammarAutomaton | ByteDfa, input: string | Uint8Array | number[]): boolean =>
  typeof input === "string" ? acceptsText(dfa, input) : acceptsBytes(dfa, input);

export const grammar = (root: Expr, rules: Record<string, Expr> = {}): Grammar => ({
  start: "root",
  rules: new Map([["root", root], ...Object.entries(rules)]),
});

export const jsonString = (minLength = 0, maxLength = Infinity, extra: { pattern?: string; exclude?: string[]; excludePatterns?: string[] } = {}): Expr => ({
  kind: "jsonString",
  minLength,
  maxLength,
  ...extra,
});

/** States from which no accepting state is reachable, or that the start cannot reach. */
export function untrimmedStates(dfa: ByteDfa): number[] {
  const n = dfa.numStates;
  const k = dfa.numClasses;
  const reach = new Set([dfa.start]);
  const queue = [dfa.start];
  while (queue.length > 0) {
    const s = queue.pop()!;
    for (let c = 0; c < k; c++) {
      const t = dfa.trans[s * k + c]!;
      if (t >= 0 && !reach.has(t)) (reach.add(t), queue.push(t));
    }
  }
  const live = new Set<number>();
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) live.add(s);
  for (let changed = true; changed; ) {
    changed = false;
    for (let s = 0; s < n; s++) {
      if (live.has(s)) continue;
      for (let c = 0; c < k; c++) {
        const t = dfa.trans[s * k + c]!;
        if (t >= 0 && live.has(t)) {
          live.add(s);
          changed = true;
          break;
        }
      }
    }
  }
  return Array.from({ length: n }, (_, s) => s).filter((s) => !reach.has(s) || !live.has(s));
}

/** Number of equivalence classes of states by Moore refinement (n when the DFA is minimal). */
export function mooreClassCount(dfa: ByteDfa): number {
  const n = dfa.numStates;
  const k = dfa.numClasses;
  let block = Array.from({ length: n }, (_, s) => dfa.accepting[s]);
  let count = new Set(block).size;
  for (;;) {
    const ids = new Map<string, number>();
    const next = block.map((b, s) => {
      let key = `${b}`;
      for (let c = 0; c < k; c++) {
        const t = dfa.trans[s * k + c]!;
        key += `,${t < 0 ? -1 : block[t]}`;
      }
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = ids.size));
      return id;
    });
    if (ids.size === count) return count;
    count = ids.size;
    block = next;
  }
}

/** Code points that fast-check may draw, weighted towards the interesting ones. */
export const INTERESTING_CODE_POINTS = [
  0x00, 0x01, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7f, 0x80, 0xa0, 0x7ff, 0x800,
  0xd7ff, 0xe000, 0xfeff, 0xffff, 0x10000, 0x1f600, 0x10ffff, 0x2028, 0x4e2d,
];

/**
 * States of a grammar automaton, explored breadth-first over every byte (at most `limit`), from
 * which following distance-lowering bytes does not reach acceptance: must be none, since the
 * automaton is trimmed by construction.
 */
export function uncompletableStates(automaton: GrammarAutomaton, limit: number): number[] {
  const bad: number[] = [];
  const seen = new Set([automaton.start]);
  const queue = [automaton.start];
  while (queue.length > 0 && seen.size < limit) {
    const s = queue.shift()!;
    if (!completes(automaton, s)) bad.push(s);
    for (let b = 0; b < 256; b++) {
      const t = automaton.step(s, b);
      if (t >= 0 && !seen.has(t)) (seen.add(t), queue.push(t));
    }
  }
  return bad;
}

function completes(automaton: GrammarAutomaton, state: number): boolean {
  let s = state;
  for (let steps = 0; steps < 100_000; steps++) {
    if (automaton.distToAccept(s) === 0) return automaton.isAccepting(s);
    let next = -1;
    for (let b = 0; b < 256 && next < 0; b++) {
      const t = automaton.step(s, b);
      if (t >= 0 && automaton.distToAccept(t) === automaton.distToAccept(s) - 1) next = t;
    }
    if (next < 0) return false;
    s = next;
  }
  return false;
}

/** Fewest bytes from each state to acceptance, by brute-force relaxation (independent of the
 *  builder's own searches). */
export function distancesToAccept(dfa: ByteDfa): number[] {
  const dist = Array.from({ length: dfa.numStates }, (_, s) => (dfa.accepting[s] ? 0 : Infinity));
  for (let changed = true; changed; ) {
    changed = false;
    for (let s = 0; s < dfa.numStates; s++) {
      for (let b = 0; b < 256; b++) {
        const t = stepByte(dfa, s, b);
        if (t >= 0 && dist[t]! + 1 < dist[s]!) ((dist[s] = dist[t]! + 1), (changed = true));
      }
    }
  }
  return dist;
}
