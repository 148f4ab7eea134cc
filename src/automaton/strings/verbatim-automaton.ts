/**
 * The automaton of a plain verbatim field, built per document: the JSON string token of any
 * non-empty substring of the text that starts and ends at a word boundary and not on whitespace
 * (canonical escapes, quotes): "Emily" and "Emily Chen" from "Emily Chen", never "Em"; any run of
 * CJK characters, where every character is a word (util/word-chars.ts). Grounding matches a value
 * at the same boundaries, so every value this grammar admits is found in the text. It is the
 * suffix automaton of the text's code points (wordAlignedSubstrings), with each code point
 * spelled out byte by byte; the spelling states and all per-state facts are made on first use. A dense table would cost more than everything else in
 * the per-document compile (a 4,000-character Chinese text uses ~150 distinct bytes and needs
 * ~9,000 states), and a decode visits a few hundred of them. The grammar automaton reads it
 * through the same RuleTables interface as dense rules.
 *
 * States: the substring automaton's 0..m-1, the opening quote m, the closing
 * quote m+1, then spelling states: a suffix automaton state plus the bytes of a partly spelled
 * code point, with the code points that can still complete it.
 */
import { PocketExtractError } from "../../errors.js";
import { encodeCodePoint, MANY_BYTES, NO_BUDGET, NO_BYTE, type LazyRule, type RuleTables } from "../fsa/index.js";
import { isWordCodePoint } from "../../util/index.js";

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
  private readonly sam: SubstringAutomaton;
  /** Per substring state: fewest bytes still to spell before the value may end. */
  private readonly toEnd: Float64Array;
  private readonly spellings = new Map<number, number[]>();
  private readonly close: number;
  /** (state << 8 | byte) -> next state or -1, memoized. */
  private readonly moves = new Map<number, number>();
  /** Spelling states: bytes read of the code point, and the (code point, target) pairs left. */
  private readonly partial: { readonly read: number; readonly candidates: Iterable<readonly [number, number]> }[] = [];
  private readonly groups = new Map<number, Map<number, [number, number][]>>();

  /** Null when the text has no admissible value (empty, or only whitespace). */
  static of(text: string, what: string): VerbatimAutomaton | null {
    const codePoints = sourceCodePoints(text, what);
    return codePoints.some((cp) => !isSpace(cp)) ? new VerbatimAutomaton(codePoints) : null;
  }

  private constructor(codePoints: readonly number[]) {
    this.sam = wordAlignedSubstrings(codePoints);
    this.useByte(QUOTE);
    for (const cp of codePoints) {
      if (this.spellings.has(cp)) continue;
      const bytes = jsonSpelling(cp);
      this.spellings.set(cp, bytes);
      for (const b of bytes) this.useByte(b);
    }
    this.toEnd = bytesToEnd(this.sam, (cp) => this.spellings.get(cp)!.length);
    const m = this.sam.next.length;
    this.start = m;
    this.close = m + 1;
    this.numStates = m + 2;
    this.numClasses = this.classByte.length;
    // Opening quote, the shortest admissible value, closing quote.
    this.shortest = 1 + this.toEnd[this.sam.start]! + 1;
    this.tables = {
      next: (state, cls) => (cls === 0 ? -1 : this.next(state, this.classByte[cls]!)),
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
    const m = this.sam.next.length;
    if (state === this.start) return byte === QUOTE ? this.sam.start : -1;
    if (state === this.close) return -1;
    if (state < m && byte === QUOTE) return this.sam.accepting[state] === 1 ? this.close : -1;
    const read = state < m ? 0 : this.partial[state - m - 2]!.read;
    const left = this.byNextByte(state).get(byte);
    if (left === undefined) return -1;
    // Spellings are a prefix-free code: a complete one is the only candidate left.
    if (this.spellings.get(left[0]![0])!.length === read + 1) return left[0]![1];
    this.partial.push({ read: read + 1, candidates: left });
    return this.numStates++;
  }

  /** A state's (code point, target) candidates grouped by the next byte of their spelling. */
  private byNextByte(state: number): Map<number, [number, number][]> {
    let groups = this.groups.get(state);
    if (groups === undefined) {
      const m = this.sam.next.length;
      const { read, candidates } = state < m ? { read: 0, candidates: this.sam.next[state]! } : this.partial[state - m - 2]!;
      groups = new Map();
      for (const [cp, target] of candidates) {
        const b = this.spellings.get(cp)![read]!;
        const group = groups.get(b);
        if (group === undefined) groups.set(b, [[cp, target]]);
        else group.push([cp, target]);
      }
      this.groups.set(state, groups);
    }
    return groups;
  }

  private dist(state: number): number {
    const m = this.sam.next.length;
    if (state === this.close) return 0;
    if (state === this.start) return this.shortest;
    if (state < m) return this.toEnd[state]! + 1;
    const { read, candidates } = this.partial[state - m - 2]!;
    let rest = Infinity;
    for (const [cp, target] of candidates) rest = Math.min(rest, this.spellings.get(cp)!.length - read + this.toEnd[target]!);
    return rest + 1;
  }

  private singleByte(state: number): number {
    const m = this.sam.next.length;
    if (state === this.start) return QUOTE;
    if (state === this.close) return NO_BYTE;
    const bytes = [...this.byNextByte(state).keys()];
    if (state < m && this.sam.accepting[state] === 1) bytes.push(QUOTE);
    return bytes.length === 0 ? NO_BYTE : bytes.length === 1 ? bytes[0]! : MANY_BYTES;
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

/** The suffix automaton of a symbol sequence: per state, its transitions and the length of its
 *  longest string (every transition leads to a longer one). */
export function suffixAutomaton(codePoints: readonly number[]): { next: Map<number, number>[]; len: number[] } {
  const len: number[] = [0];
  const link: number[] = [-1];
  const next: Map<number, number>[] = [new Map()];
  let last = 0;
  for (const c of codePoints) {
    const cur = next.length;
    len.push(len[last]! + 1);
    link.push(0);
    next.push(new Map());
    let p = last;
    while (p !== -1 && !next[p]!.has(c)) {
      next[p]!.set(c, cur);
      p = link[p]!;
    }
    if (p !== -1) {
      const q = next[p]!.get(c)!;
      if (len[p]! + 1 === len[q]) {
        link[cur] = q;
      } else {
        const clone = next.length;
        len.push(len[p]! + 1);
        link.push(link[q]!);
        next.push(new Map(next[q]));
        while (p !== -1 && next[p]!.get(c) === q) {
          next[p]!.set(c, clone);
          p = link[p]!;
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  }
  return { next, len };
}

/** Stands for a word boundary in the sequence the substring automaton is built over. */
const BOUNDARY = -1;

const isSpace = (cp: number): boolean => /^\s$/u.test(String.fromCodePoint(cp));

/** The substrings of a text a verbatim value may be: per state its transitions by code point,
 *  the state before the first character, and the states where a value may end (1). */
export interface SubstringAutomaton {
  readonly next: readonly ReadonlyMap<number, number>[];
  readonly start: number;
  readonly accepting: Uint8Array;
  /** States by decreasing length of their longest string: every transition leads to a state
   *  listed before its source. */
  readonly order: Int32Array;
}

/**
 * The non-empty substrings of `codePoints` that start and end at a word boundary and neither
 * start nor end with whitespace. Built as the suffix automaton of the text with a BOUNDARY
 * symbol written wherever two neighbours are not both word characters (and at both ends):
 * a value starts after a BOUNDARY, steps over the BOUNDARY symbols inside it without spelling
 * them (whether one is there depends only on the two characters around it, so the walk stays
 * deterministic), and may end where a BOUNDARY follows.
 */
export function wordAlignedSubstrings(codePoints: readonly number[]): SubstringAutomaton {
  const marked: number[] = [BOUNDARY];
  codePoints.forEach((cp, i) => {
    if (i > 0 && !(isWordCodePoint(codePoints[i - 1]!) && isWordCodePoint(cp))) marked.push(BOUNDARY);
    marked.push(cp);
  });
  marked.push(BOUNDARY);
  const { next: sam, len } = suffixAutomaton(marked);
  const start = sam[0]!.get(BOUNDARY)!;
  const last = new Int32Array(sam.length).fill(BOUNDARY);
  for (const edges of sam) for (const [cp, t] of edges) last[t] = cp;
  const next = sam.map((edges, s) => {
    const out = new Map<number, number>();
    const after = edges.get(BOUNDARY);
    for (const source of after === undefined ? [edges] : [edges, sam[after]!]) {
      for (const [cp, t] of source) if (cp !== BOUNDARY && (s !== start || !isSpace(cp))) out.set(cp, t);
    }
    return out;
  });
  const accepting = new Uint8Array(sam.length);
  for (let s = 1; s < sam.length; s++) if (s !== start && sam[s]!.has(BOUNDARY) && last[s] !== BOUNDARY && !isSpace(last[s]!)) accepting[s] = 1;
  // Trim: a value may not step where it cannot end ("Emily " at the end of the text).
  const order = byDecreasingLength(len);
  const live = new Uint8Array(sam.length);
  for (const s of order) {
    for (const [cp, t] of next[s]!) if (live[t] === 0) next[s]!.delete(cp);
    live[s] = accepting[s] === 1 || next[s]!.size > 0 ? 1 : 0;
  }
  return { next, start, accepting, order };
}

/** State ids sorted by decreasing `len` (a counting sort: lengths are at most the text's). */
function byDecreasingLength(len: readonly number[]): Int32Array {
  let max = 0;
  for (const l of len) max = Math.max(max, l);
  const counts = new Int32Array(max + 2);
  for (const l of len) counts[max - l + 1]!++;
  for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
  const order = new Int32Array(len.length);
  len.forEach((l, s) => (order[counts[max - l]!++] = s));
  return order;
}

/**
 * Bytes of the shortest value the verbatim grammar admits for `text` (the shortest word: a run
 * of word characters, or one other character that is not whitespace), as JSON string content;
 * Infinity when there is none. Grammars that call a verbatim string depend on it (their
 * distances to the end), so it is part of their cache key (structural-keys.ts).
 */
export function shortestVerbatimValue(text: string): number {
  let best = Infinity;
  let run = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const bytes = cp >= 0xd800 && cp <= 0xdfff ? 3 : jsonSpelling(cp).length;
    if (isWordCodePoint(cp)) {
      run += bytes;
      continue;
    }
    if (run > 0) best = Math.min(best, run);
    run = 0;
    if (!isSpace(cp)) best = Math.min(best, bytes);
  }
  return run > 0 ? Math.min(best, run) : best;
}

/** Per state, the fewest bytes (by `spelled`) to an accepting state; Infinity where none. */
function bytesToEnd(a: SubstringAutomaton, spelled: (cp: number) => number): Float64Array {
  const toEnd = new Float64Array(a.next.length).fill(Infinity);
  for (const s of a.order) {
    if (a.accepting[s] === 1) toEnd[s] = 0;
    else for (const [cp, t] of a.next[s]!) toEnd[s] = Math.min(toEnd[s]!, spelled(cp) + toEnd[t]!);
  }
  return toEnd;
}
