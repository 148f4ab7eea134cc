/**
 * Keeps the string items of distinct arrays (Grammar.distinctArrays) distinct while a matcher
 * reads a document: the one constraint of the mask engine that the automaton cannot carry,
 * because distinctness over an infinite item language is not regular.
 *
 * The tracker reads the document's bytes with a JSON lexer small enough to follow arrays,
 * objects and strings, and collects the decoded values of the string items of each array that
 * some configuration keeps distinct (the automaton's mark after its `[`). An item equal to an
 * earlier one marks its array duplicated; a byte is refused when it leaves the document in an
 * automaton state whose every configuration keeps that array distinct (DISTINCT_ALL). That is
 * exact: those configurations can never complete, the others can (the automaton is trimmed and
 * nothing else constrains them), and an array left with only the distinct ones can always go on
 * with fresh values (schema-compiler/distinct-strings.ts admits only such items).
 *
 * What it knows is an immutable position (a persistent list of values per open container), so
 * a matcher keeps one per accepted unit and rolls back by restoring one.
 */
import { DISTINCT_ALL, DISTINCT_NONE } from "../automaton/index.js";
import type { MaskAutomaton, VocabIndex } from "./mask-types.js";

/** Decoded item values of one array, newest first (positions share the older ones). */
interface Values {
  readonly value: string;
  readonly next: Values | null;
}

/** An open JSON container, innermost first. */
interface Container {
  readonly parent: Container | null;
  /** An array some configuration kept distinct at its `[`: its string items are collected. */
  readonly tracked: boolean;
  readonly values: Values | null;
  /** Some item equalled an earlier one: no configuration keeping the array distinct is left. */
  readonly duplicated: boolean;
}

/** What the tracker knows after some text (immutable). */
export interface DistinctPosition {
  readonly open: Container | null;
  readonly lex: number;
  readonly itemStart: number;
  readonly escapeAt: number;
  readonly length: number;
}

/** Lexer states: outside strings, inside one, after a backslash, and HEX + k (k = 1..4): k hex
 *  digits of a \u escape left (HEX + k is past ESCAPE for every k, so HEX may equal it). */
const OUT = 0;
const IN = 1;
const ESCAPE = 2;
const HEX = ESCAPE;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const START: DistinctPosition = { open: null, lex: OUT, itemStart: -1, escapeAt: -1, length: 0 };

export class DistinctItems {
  /** The document's bytes (what an item's value is decoded from); valid up to `length`. */
  private text = new Uint8Array(256);
  private open: Container | null = null;
  private lex = OUT;
  /** Where the content of the collected item being read starts in `text`, or -1. */
  private itemStart = -1;
  /** Where the escape being read starts, or -1. */
  private escapeAt = -1;
  private length = 0;

  constructor(private readonly automaton: MaskAutomaton) {}

  get position(): DistinctPosition {
    const { open, lex, itemStart, escapeAt, length } = this;
    return length === 0 ? START : { open, lex, itemStart, escapeAt, length };
  }

  restore(p: DistinctPosition): void {
    ({ open: this.open, lex: this.lex, itemStart: this.itemStart, escapeAt: this.escapeAt, length: this.length } = p);
  }

  /**
   * Reads `byte`, which took the automaton to state `next`; false (nothing read) when that
   * leaves no configuration that can complete: every one keeps an array distinct whose items
   * are not.
   */
  step(byte: number, next: number): boolean {
    const { open, lex, itemStart, escapeAt } = this;
    if (this.length === this.text.length) {
      const grown = new Uint8Array(this.text.length * 2);
      grown.set(this.text);
      this.text = grown;
    }
    this.text[this.length++] = byte;
    if (lex === OUT) this.structural(byte, next);
    else if (lex === IN) {
      if (byte === BACKSLASH) {
        this.lex = ESCAPE;
        this.escapeAt = this.length - 1;
      } else if (byte === QUOTE) this.endString();
    } else {
      this.lex = lex === ESCAPE ? (byte === 0x75 ? HEX + 4 : IN) : lex === HEX + 1 ? IN : lex - 1;
      if (this.lex === IN) this.escapeAt = -1;
    }
    if (this.open?.duplicated === true && this.automaton.distinctMark(next) === DISTINCT_ALL) {
      this.open = open;
      this.lex = lex;
      this.itemStart = itemStart;
      this.escapeAt = escapeAt;
      this.length--;
      return false;
    }
    return true;
  }

  /** True when the innermost open container is an array whose items are collected. */
  get inTrackedArray(): boolean {
    return this.open?.tracked === true;
  }

  /** True when the open array holds an item equal to an earlier one. */
  get duplicated(): boolean {
    return this.open?.duplicated === true;
  }

  /** True inside a collected item (a string of an array whose items are collected). */
  get inItem(): boolean {
    return this.lex !== OUT && this.itemStart >= 0;
  }

  /**
   * What closing the item being read right after more text would repeat: for each earlier value
   * that begins with the item's decoded text so far, the rest of it. Undefined when that text
   * ends inside an escape or a UTF-8 sequence (the next token continues it, not a rest), or
   * outside an item.
   */
  rests(): Set<string> | undefined {
    if (!this.inItem || this.escapeAt >= 0) return undefined;
    const bytes = this.text.subarray(this.itemStart, this.length);
    if (endsInsideCharacter(bytes)) return undefined;
    const prefix = decodeItem(bytes);
    const out = new Set<string>();
    for (let v = this.open!.values; v !== null; v = v.next) if (v.value.startsWith(prefix)) out.add(v.value.slice(prefix.length));
    return out;
  }

  private structural(byte: number, next: number): void {
    switch (byte) {
      case 0x5b: // [
        this.open = { parent: this.open, tracked: this.automaton.distinctMark(next) !== DISTINCT_NONE, values: null, duplicated: false };
        break;
      case 0x7b: // {
        this.open = { parent: this.open, tracked: false, values: null, duplicated: false };
        break;
      case 0x5d: // ]
      case 0x7d: // }
        this.open = this.open?.parent ?? null;
        break;
      case QUOTE:
        this.lex = IN;
        this.itemStart = this.open?.tracked === true ? this.length : -1;
        break;
    }
  }

  private endString(): void {
    this.lex = OUT;
    if (this.itemStart < 0) return;
    const open = this.open!;
    const value = decodeItem(this.text.subarray(this.itemStart, this.length - 1));
    let duplicated = open.duplicated;
    for (let v = open.values; v !== null && !duplicated; v = v.next) duplicated = v.value === value;
    this.open = { parent: open.parent, tracked: true, values: { value, next: open.values }, duplicated };
    this.itemStart = -1;
  }
}

const utf8 = new TextDecoder();

/** The decoded value of a JSON string's content bytes (whole characters and escapes). */
function decodeItem(bytes: Uint8Array): string {
  const text = utf8.decode(bytes);
  return text.includes("\\") ? (JSON.parse(`"${text}"`) as string) : text;
}

/** True when the bytes end inside a UTF-8 sequence. */
function endsInsideCharacter(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needs > back;
  }
  return false;
}

/** Text tokens that can end or write items, by the `"` bytes they have. */
export interface QuoteTokens {
  /** At least one; `before[i]`: the decoded text of one[i] before its first `"` when that text
   *  has no backslash and is whole UTF-8 (a rest it spells), else null. */
  readonly one: Int32Array;
  readonly before: readonly (string | null)[];
  /** At least two (can write a whole item), three (can end one item and write another) and
   *  four (can write two items, in an array the token opens). */
  readonly two: Int32Array;
  readonly three: Int32Array;
  readonly four: Int32Array;
}

const quoteTokens = new WeakMap<VocabIndex, QuoteTokens>();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function tokensWithQuotes(index: VocabIndex): QuoteTokens {
  let found = quoteTokens.get(index);
  if (found === undefined) {
    const one: number[] = [];
    const before: (string | null)[] = [];
    const two: number[] = [];
    const three: number[] = [];
    const four: number[] = [];
    const { byteOffsets, byteData } = index;
    for (let id = 0; id + 1 < byteOffsets.length; id++) {
      const start = byteOffsets[id]!;
      const end = byteOffsets[id + 1]!;
      let quotes = 0;
      let first = -1;
      for (let i = start; i < end; i++) {
        if (byteData[i] !== QUOTE) continue;
        if (quotes++ === 0) first = i;
      }
      if (quotes === 0) continue;
      one.push(id);
      before.push(plainText(byteData.subarray(start, first)));
      if (quotes >= 2) two.push(id);
      if (quotes >= 3) three.push(id);
      if (quotes >= 4) four.push(id);
    }
    found = { one: Int32Array.from(one), before, two: Int32Array.from(two), three: Int32Array.from(three), four: Int32Array.from(four) };
    quoteTokens.set(index, found);
  }
  return found;
}

/** The bytes as text when they are whole UTF-8 without a backslash, else null. */
function plainText(bytes: Uint8Array): string | null {
  if (bytes.includes(BACKSLASH)) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
