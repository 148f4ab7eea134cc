/**
 * The automaton of a JSON string token whose only condition is a length in code points
 * (minLength / maxLength), computed instead of built: a state is (characters so far, where in the
 * current character's UTF-8 or escape spelling), under a dense id (dense-states.ts), so
 * `maxLength: 200` or `32767` costs nothing to compile, where a table would need ~14 states per
 * allowed character. Same language as json-string.ts builds for such a spec: valid UTF-8,
 * canonical JSON escapes (`\"`, `\\`, \b \f \n \r \t, other control characters as \u00XX in
 * lowercase hex, everything else raw).
 * A character is counted when it starts; a state whose count reached the maximum only closes.
 */
import { CLOSE, DenseStates, OPEN } from "./dense-states.js";
import { MANY_BYTES, NO_BYTE, UNBOUNDED, type LazyRule, type RuleTables } from "../fsa/index.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where in a character's spelling a state is; the value is also the bytes still to read. */
const enum Sub {
  Body, // at a character boundary
  Cont1, // one continuation byte left (80-BF)
  E0, // after E0: A0-BF, then one
  Cont2, // two continuation bytes left
  Ed, // after ED: 80-9F, then one
  F0, // after F0: 90-BF, then two
  Cont3, // three continuation bytes left
  F4, // after F4: 80-8F, then two
  Esc, // after a backslash
  U1, // after \u: 0
  U2, // after \u0: 0
  U3, // after \u00: 0 or 1
  U4Low, // after \u000: 0-7, b, e, f (the rest have short forms)
  U4High, // after \u001: any lowercase hex digit
}
const SUBS = 14;
/** Bytes still to read to finish the character, per Sub. */
const REST = [0, 1, 2, 2, 2, 3, 3, 3, 1, 4, 3, 2, 1, 1];
/** The UTF-8 position (pending continuation bytes) of plain text in each Sub, or -1. */
const PLAIN_POS = [0, 1, -1, 2, -1, -1, 3, -1, -1, -1, -1, -1, -1, -1];
const DEAD = -1;

/** The Sub after byte b in Sub s, or DEAD (the closing quote is handled by the caller). */
function stepSub(s: Sub, b: number): number {
  const cont = b >= 0x80 && b <= 0xbf;
  switch (s) {
    case Sub.Body:
      if (b === QUOTE || b < 0x20) return DEAD;
      if (b === BACKSLASH) return Sub.Esc;
      if (b < 0x80) return Sub.Body;
      if (b >= 0xc2 && b <= 0xdf) return Sub.Cont1;
      if (b === 0xe0) return Sub.E0;
      if (b === 0xed) return Sub.Ed;
      if (b >= 0xe1 && b <= 0xef) return Sub.Cont2;
      if (b === 0xf0) return Sub.F0;
      if (b >= 0xf1 && b <= 0xf3) return Sub.Cont3;
      if (b === 0xf4) return Sub.F4;
      return DEAD;
    case Sub.Cont1:
      return cont ? Sub.Body : DEAD;
    case Sub.E0:
      return b >= 0xa0 && b <= 0xbf ? Sub.Cont1 : DEAD;
    case Sub.Cont2:
      return cont ? Sub.Cont1 : DEAD;
    case Sub.Ed:
      return b >= 0x80 && b <= 0x9f ? Sub.Cont1 : DEAD;
    case Sub.F0:
      return b >= 0x90 && b <= 0xbf ? Sub.Cont2 : DEAD;
    case Sub.Cont3:
      return cont ? Sub.Cont2 : DEAD;
    case Sub.F4:
      return b >= 0x80 && b <= 0x8f ? Sub.Cont2 : DEAD;
    case Sub.Esc:
      return b === QUOTE || b === BACKSLASH || "bfnrt".includes(String.fromCharCode(b)) ? Sub.Body : b === 0x75 ? Sub.U1 : DEAD;
    case Sub.U1:
    case Sub.U2:
      return b === 0x30 ? s + 1 : DEAD;
    case Sub.U3:
      return b === 0x30 ? Sub.U4Low : b === 0x31 ? Sub.U4High : DEAD;
    case Sub.U4Low:
      return (b >= 0x30 && b <= 0x37) || b === 0x62 || b === 0x65 || b === 0x66 ? Sub.Body : DEAD;
    case Sub.U4High:
      return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) ? Sub.Body : DEAD;
  }
}

/** Bytes that behave alike in every Sub share a class (class 0 holds bytes dead everywhere). */
const { classOf, classByte } = (() => {
  const signatures = new Map<string, number>();
  const classOf = new Uint8Array(256);
  const classByte: number[] = [];
  for (let b = 0; b < 256; b++) {
    let signature = `${b === QUOTE}`;
    for (let s = 0; s < SUBS; s++) signature += `,${stepSub(s, b)}`;
    let cls = signatures.get(signature);
    if (cls === undefined) {
      cls = classByte.push(b) - 1;
      signatures.set(signature, cls);
    }
    classOf[b] = cls;
  }
  return { classOf, classByte };
})();

export class BoundedStringAutomaton implements LazyRule {
  readonly start = OPEN;
  readonly classOf = classOf;
  readonly numClasses = classByte.length;
  readonly callees = undefined;
  readonly tables: RuleTables;
  readonly shortest: number;
  /** Counts tracked: 0..max, or 0..min when unbounded (beyond min every count behaves alike). */
  private readonly counts: number;
  /** Other states are count * SUBS + sub, under dense ids. */
  private readonly states = new DenseStates();

  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {
    this.counts = (max === Infinity ? min : max) + 1;
    this.shortest = 2 + min;
    this.tables = {
      next: (state, cls) => this.next(state, classByte[cls]!),
      dist: (state) => this.dist(state),
      plainBudget: (state, pos) => this.plainBudget(state, pos),
      singleByte: (state) => this.singleByte(state),
    };
  }

  /** States made so far. */
  get numStates(): number {
    return this.states.size;
  }

  private next(state: number, b: number): number {
    if (state === OPEN) return b === QUOTE ? this.at(0, Sub.Body) : DEAD;
    if (state === CLOSE) return DEAD;
    const key = this.states.key(state);
    const count = Math.floor(key / SUBS);
    const sub: Sub = key % SUBS;
    if (sub === Sub.Body && b === QUOTE) return count >= this.min ? CLOSE : DEAD;
    const to = stepSub(sub, b);
    if (to === DEAD) return DEAD;
    if (sub !== Sub.Body) return this.at(count, to);
    // A byte at a boundary starts a character.
    if (count + 1 > this.max) return DEAD;
    return this.at(Math.min(count + 1, this.counts - 1), to);
  }

  private at(count: number, sub: number): number {
    return this.states.id(count * SUBS + sub);
  }

  private dist(state: number): number {
    if (state === CLOSE) return 0;
    if (state === OPEN) return this.shortest;
    const key = this.states.key(state);
    // Finish this character, write the missing ones (one byte each), close.
    return REST[key % SUBS]! + Math.max(0, this.min - Math.floor(key / SUBS)) + 1;
  }

  private plainBudget(state: number, pos: number): number {
    if (state === OPEN || state === CLOSE) return -1;
    const key = this.states.key(state);
    if (PLAIN_POS[key % SUBS] !== pos) return -1;
    return this.max === Infinity ? UNBOUNDED : this.max - Math.floor(key / SUBS);
  }

  private singleByte(state: number): number {
    if (state === OPEN) return QUOTE;
    if (state === CLOSE) return NO_BYTE;
    const key = this.states.key(state);
    const sub: Sub = key % SUBS;
    if (sub === Sub.U1 || sub === Sub.U2) return 0x30;
    // At a boundary with the maximum reached, only the closing quote is left.
    if (sub === Sub.Body && Math.floor(key / SUBS) >= this.max) return QUOTE;
    return MANY_BYTES;
  }
}
