/**
 * What a Matcher does for a grammar with distinct arrays (Grammar.distinctArrays): reads each
 * accepted unit into the item tracker (distinct-items.ts), keeps one tracker position per unit
 * for rollback, clears from a state's cached mask the tokens the tracker refuses, and mends a
 * shortest completion that would repeat an item. Masks stay cached per automaton state; only
 * this filter depends on the document.
 */
import { DISTINCT_ALL } from "../automaton/index.js";
import { PocketExtractError } from "../errors.js";
import { DistinctItems, tokensWithQuotes, type DistinctPosition } from "./distinct-items.js";
import type { ForcedRun, MatcherGrammar } from "./mask-types.js";
import { tokenizeBytes } from "./tokenize-bytes.js";

/** Characters a mended completion may add before giving up (a bound on contrived grammars:
 *  with every configuration keeping the array distinct, each added character is progress). */
const MAX_MENDS = 4096;

/** The bytes that open or close containers and strings: [ ] { } ". */
const STRUCTURAL = new Uint8Array(256);
for (const b of [0x5b, 0x5d, 0x7b, 0x7d, 0x22]) STRUCTURAL[b] = 1;

export class DistinctGuard {
  private readonly items: DistinctItems;
  /** Tracker positions before each accepted unit (the matcher's history, in step). */
  private readonly positions: DistinctPosition[] = [];

  constructor(private readonly grammar: MatcherGrammar) {
    this.items = new DistinctItems(grammar.automaton);
  }

  /** Whether token `id`, alive in the automaton from `state`, is allowed by the tracker. */
  allows(state: number, id: number): boolean {
    const { byteOffsets, byteData } = this.grammar.index;
    const before = this.items.position;
    const ok = this.read(state, byteData, byteOffsets[id]!, byteOffsets[id + 1]!);
    this.items.restore(before);
    return ok;
  }

  /** Reads an accepted unit's bytes (alive in the automaton from `state`); false (nothing
   *  read) when the tracker refuses them. */
  accept(state: number, data: Uint8Array, start = 0, end = data.length): boolean {
    const before = this.items.position;
    if (!this.read(state, data, start, end)) return false;
    this.positions.push(before);
    return true;
  }

  /** Notes a unit that reads no bytes (an end-of-generation token). */
  acceptEnd(): void {
    this.positions.push(this.items.position);
  }

  /** Undoes the last `n` units. */
  rollback(n: number): void {
    this.items.restore(this.positions[this.positions.length - n]!);
    this.positions.length -= n;
  }

  /**
   * Clears from `mask` (the automaton's mask of `state`) the tokens the tracker refuses, reading
   * only those that may be: before an item repeats, only a token with a `"` can end one. Outside
   * a collected array only a token that opens one and writes two items can (four quotes). Inside
   * an item, a token whose text before its first `"` is no rest of an earlier value (rests) ends
   * it on a fresh value, so only the others and those that go on to write a whole item (three
   * quotes) are read; between items, those that write one (two). Once an item has repeated,
   * any token may leave the configurations that allow that, and every allowed one is checked:
   * read by the tracker when it opens or closes a container or string, else only stepped
   * through the automaton (reachesAll), which is what the tracker would decide for it.
   */
  filter(state: number, mask: Uint32Array): void {
    const items = this.items;
    const check = (id: number): void => {
      const w = id >>> 5;
      const bit = 1 << (id & 31);
      if ((mask[w]! & bit) !== 0 && !this.allows(state, id)) mask[w] = mask[w]! & ~bit;
    };
    const index = this.grammar.index;
    const quotes = tokensWithQuotes(index);
    if (!items.inTrackedArray) {
      quotes.four.forEach(check);
      return;
    }
    if (items.duplicated) {
      const eos = index.eosIds;
      for (let w = 0; w < mask.length; w++) {
        for (let bits = mask[w]!; bits !== 0; bits &= bits - 1) {
          const id = (w << 5) | (31 - Math.clz32(bits & -bits));
          if (eos.includes(id)) continue;
          if (this.leavesItems(id)) check(id);
          else if (this.reachesAll(state, id)) mask[w] = mask[w]! & ~(1 << (id & 31));
        }
      }
      return;
    }
    if (!items.inItem) {
      quotes.two.forEach(check);
      return;
    }
    const rests = items.rests();
    if (rests === undefined) {
      quotes.one.forEach(check);
      return;
    }
    quotes.three.forEach(check);
    if (rests.size === 0) return;
    const { one, before } = quotes;
    for (let i = 0; i < one.length; i++) {
      const rest = before[i]!;
      if (rest === null || rests.has(rest)) check(one[i]!);
    }
  }

  /** `run` (the automaton's shortest completion from `state`), or when the tracker refuses
   *  it, a completion that adds characters to each item that would repeat an earlier one. */
  completion(state: number, run: ForcedRun): ForcedRun {
    const { items } = this;
    const automaton = this.grammar.automaton;
    const before = items.position;
    const out: number[] = [];
    let s = state;
    let bytes = run.bytes;
    for (let mends = 0; ; mends++) {
      let i = 0;
      for (; i < bytes.length; i++) {
        const t = automaton.step(s, bytes[i]!);
        if (!items.step(bytes[i]!, t)) break;
        out.push(bytes[i]!);
        s = t;
      }
      if (i === bytes.length) break;
      const b = mends < MAX_MENDS ? this.mendByte(s) : -1;
      if (b < 0) {
        items.restore(before);
        throw new PocketExtractError("COMPLETION_UNAVAILABLE", `no completion found that keeps the distinct arrays' items distinct within ${MAX_MENDS} added characters`);
      }
      s = automaton.step(s, b);
      items.step(b, s);
      out.push(b);
      bytes = this.grammar.shortestCompletion(s).bytes;
    }
    items.restore(before);
    if (out.length === run.bytes.length) return run;
    const mended = Uint8Array.from(out);
    return { bytes: mended, tokens: tokenizeBytes(this.grammar.index, mended) };
  }

  /** The byte the tracker allows from `state` that leaves the shortest completion (the smallest
   *  such byte): inside an item that would repeat, a character that keeps it open. */
  private mendByte(state: number): number {
    const automaton = this.grammar.automaton;
    const before = this.items.position;
    let best = -1;
    let bestDist = Infinity;
    for (let b = 0; b < 256; b++) {
      const t = automaton.step(state, b);
      if (t < 0 || automaton.distToAccept(t) >= bestDist || !this.items.step(b, t)) continue;
      this.items.restore(before);
      best = b;
      bestDist = automaton.distToAccept(t);
    }
    return best;
  }

  /** True when token `id` has a bracket, brace or `"`: it may open or close a container or a
   *  string, which only the tracker can follow. */
  private leavesItems(id: number): boolean {
    const { byteOffsets, byteData } = this.grammar.index;
    for (let i = byteOffsets[id]!; i < byteOffsets[id + 1]!; i++) if (STRUCTURAL[byteData[i]!] === 1) return true;
    return false;
  }

  /** True when token `id` (alive from `state`) passes through a state whose every
   *  configuration keeps the innermost array distinct: what the tracker refuses in an array
   *  whose items repeated, for a token that stays in it (leavesItems false). */
  private reachesAll(state: number, id: number): boolean {
    const automaton = this.grammar.automaton;
    const { byteOffsets, byteData } = this.grammar.index;
    let s = state;
    for (let i = byteOffsets[id]!; i < byteOffsets[id + 1]!; i++) {
      s = automaton.step(s, byteData[i]!);
      if (automaton.distinctMark(s) === DISTINCT_ALL) return true;
    }
    return false;
  }

  /** Reads data[start..end) from automaton state `state` (alive there); false (nothing read)
   *  when the tracker refuses a byte. */
  private read(state: number, data: Uint8Array, start: number, end: number): boolean {
    const automaton = this.grammar.automaton;
    const before = this.items.position;
    let s = state;
    for (let i = start; i < end; i++) {
      s = automaton.step(s, data[i]!);
      if (!this.items.step(data[i]!, s)) {
        this.items.restore(before);
        return false;
      }
    }
    return true;
  }
}
