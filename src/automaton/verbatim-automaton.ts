/**
 * The automaton of a plain verbatim field, built per document: the JSON string token of any
 * non-empty substring of the text (canonical escapes, quotes). It is the suffix automaton of the
 * text's code points, with each code point spelled out byte by byte; the spelling states and all
 * per-state facts are made on first use. A dense table would cost more than everything else in
 * the per-document compile (a 4,000-character Chinese text uses ~150 distinct bytes and needs
 * ~9,000 states), and a decode visits a few hundred of them. The grammar automaton reads it
 * through the same RuleTables interface as dense rules.
 *
 * States: the suffix automaton's 0..m-1 (0 = the empty text), the opening quote m, the closing
 * quote m+1, then spelling states: a suffix automaton state plus the bytes of a partly spelled
 * code point, with the code points that can still complete it.
 */
import { PocketExtractError } from "../errors.js";
import { MANY_BYTES, NO_BUDGET, NO_BYTE, type LazyRule, type RuleTables } from "./rule-tables.js";
import { encodeCodePoint } from "./utf8.js";

const QUOTE = 0x22;

export class VerbatimAutomaton implements LazyRule {
  /** States made so far (grows as spelling states are made). */
  numStates: number;
  /** The opening-quote state. */
  readonly start: number;
  /** One class per byte the token uses (its own), 0 for every other byte (dead everywhere). */
  readonly classOf = new Uint8Array(256);
  readonly numClasses: number;
  /** A string calls nothing. */
  readonly callees = undefined;
  readonly tables: RuleTables;
  /** Fewest bytes of the token. */
  readonly shortest: number;
  private readonly classByte: number[] = [0];
  private readonly sam: Map<number, number>[];
  private readonly spellings = new Map<number, number[]>();
  private readonly close: number;
  /** (state << 8 | byte) -> next state or -1, memoized. */
  private readonly moves = new Map<number, number>();
  /** Spelling states: bytes read of the code point, and the (code point, target) pairs left. */
  private readonly partial: { readonly read: number; readonly candidates: Iterable<readonly [number, number]> }[] = [];
  private readonly groups = new Map<number, Map<number, [number, number][]>>();

  /** Null when the text is empty (no substring at all). */
  static of(text: string, what: string): VerbatimAutomaton | null {
    return text.length === 0 ? null : new VerbatimAutomaton(text, what);
  }

  private constructor(text: string, what: string) {
    const codePoints = sourceCodePoints(text, what);
    this.sam = suffixAutomaton(codePoints);
    this.useByte(QUOTE);
    let shortestChar = Infinity;
    for (const cp of codePoints) {
      if (this.spellings.has(cp)) continue;
      const bytes = jsonSpelling(cp);
      this.spellings.set(cp, bytes);
      for (const b of bytes) this.useByte(b);
      shortestChar = Math.min(shortestChar, bytes.length);
    }
    const m = this.sam.length;
    this.start = m;
    this.close = m + 1;
    this.numStates = m + 2;
    this.numClasses = this.classByte.length;
    // The empty text is not a substring: at least one character, then the closing quote.
    this.shortest = 1 + shortestChar + 1;
    this.tables = {
      next: (state, cls) => (cls === 0 ? -1 : this.next(state, this.classByte[cls])),
      dist: (state) => this.dist(state),
      // No state survives arbitrary text, and a conservative budget is always safe: the mask
      // engine then walks the few live trie branches instead of skipping subtrees.
      plainBudget: () => NO_BUDGET,
      singleByte: (state) => this.singleByte(state),
    };
  }

  private useByte(b: number): void {
    if (this.classOf[b] === 0) this.classOf[b] = this.classByte.push(b) - 1;
  }

  private next(state: number, byte: number): number {
    const key = state * 256 + byte;
    let to = this.moves.get(key);
    if (to === undefined) {
      to = this.move(state, byte);
      this.moves.set(key, to);
    }
    return to;
  }

  private move(state: number, byte: number): number {
    const m = this.sam.length;
    if (state === this.start) return byte === QUOTE ? 0 : -1;
    if (state === this.close) return -1;
    if (state < m && byte === QUOTE) return state === 0 ? -1 : this.close;
    const read = state < m ? 0 : this.partial[state - m - 2].read;
    const left = this.byNextByte(state).get(byte);
    if (left === undefined) return -1;
    // Spellings are a prefix-free code: a complete one is the only candidate left.
    if (this.spellings.get(left[0][0])!.length === read + 1) return left[0][1];
    this.partial.push({ read: read + 1, candidates: left });
    return this.numStates++;
  }

  /** A state's (code point, target) candidates grouped by the next byte of their spelling. */
  private byNextByte(state: number): Map<number, [number, number][]> {
    let groups = this.groups.get(state);
    if (groups === undefined) {
      const m = this.sam.length;
      const { read, candidates } = state < m ? { read: 0, candidates: this.sam[state] } : this.partial[state - m - 2];
      groups = new Map();
      for (const [cp, target] of candidates) {
        const b = this.spellings.get(cp)![read];
        const group = groups.get(b);
        if (group === undefined) groups.set(b, [[cp, target]]);
        else group.push([cp, target]);
      }
      this.groups.set(state, groups);
    }
    return groups;
  }

  private dist(state: number): number {
    const m = this.sam.length;
    if (state === this.close) return 0;
    if (state === this.start) return this.shortest;
    if (state === 0) return this.shortest - 1;
    if (state < m) return 1;
    const { read, candidates } = this.partial[state - m - 2];
    let rest = Infinity;
    for (const [cp] of candidates) rest = Math.min(rest, this.spellings.get(cp)!.length - read);
    return rest + 1;
  }

  private singleByte(state: number): number {
    const m = this.sam.length;
    if (state === this.start) return QUOTE;
    if (state === this.close) return NO_BYTE;
    const bytes = [...this.byNextByte(state).keys()];
    // Every suffix automaton state but the root may also close the string.
    if (state > 0 && state < m) bytes.push(QUOTE);
    return bytes.length === 0 ? NO_BYTE : bytes.length === 1 ? bytes[0] : MANY_BYTES;
  }
}

/** A code point as canonical JSON string content (JSON.stringify's escapes, else UTF-8). */
function jsonSpelling(cp: number): number[] {
  return cp < 0x20 || cp === QUOTE || cp === 0x5c ? Array.from(JSON.stringify(String.fromCodePoint(cp)).slice(1, -1), (ch) => ch.charCodeAt(0)) : encodeCodePoint(cp);
}

/** The code points of a verbatim source text; TEXT_INVALID for a lone surrogate (no UTF-8 form). */
export function sourceCodePoints(text: string, what: string): number[] {
  const codePoints = Array.from(text, (ch) => ch.codePointAt(0)!);
  const lone = codePoints.findIndex((cp) => cp >= 0xd800 && cp <= 0xdfff);
  if (lone >= 0) {
    throw new PocketExtractError("TEXT_INVALID", `${what}: the source text has a lone UTF-16 surrogate (character ${lone}); it has no UTF-8 form`);
  }
  return codePoints;
}

/** The suffix automaton of a code point sequence: per state, its transitions. */
export function suffixAutomaton(codePoints: readonly number[]): Map<number, number>[] {
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
  return next;
}
