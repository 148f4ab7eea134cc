/**
 * The automaton of a JSON string token whose content is a regular language (a pattern, minus
 * excluded names or patterns) cut to length bounds in code points, computed instead of built.
 * Built as a table, the product has |content| x (maxLength + 1) states before JSON encoding
 * multiplies them again (`^https?://.+$` with `maxLength: 2000` took 1.4 s to build). Here a
 * state is (content state, characters so far, place in an escape sequence), made when a
 * document reaches it (under a dense id: dense-states.ts); compiling costs one table of distances, and only over the counts where a
 * bound changes the answer (`CountDistances`). Same language as json-string.ts builds (canonical
 * escapes, json-escape.ts); bounded-string.ts is the special case with no content condition.
 *
 * The tables (rule-tables.ts), exact where the built automaton's are:
 *  - `next` refuses every move into a state that cannot complete within the bounds;
 *  - `dist`: fewest bytes to the closing quote, from the distance table;
 *  - `plainBudget`: the content automaton's own plain-text budget, cut so that the characters it
 *    allows plus the longest shortest finish stay within maxLength (a lower bound, as required);
 *  - `singleByte`: read off the computed row.
 */
import {
  ClassBytes,
  distancesTo,
  NO_BUDGET,
  NO_BYTE,
  refine,
  stepByte,
  UNBOUNDED,
  UNREACHABLE,
  type Budget,
  type ByteDfa,
  type LazyRule,
  type RuleTables,
} from "../fsa/index.js";
import { CLOSE, DenseStates, OPEN } from "./dense-states.js";
import { ESCAPE_ALPHABET, ESCAPES, escaped } from "./json-escape.js";
import { plainBudgetsOf } from "./plain-text-budget.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DEAD = -1;
const isContinuation = (b: number): boolean => (b & 0xc0) === 0x80;
/** Byte labels apart from the content's classes: control characters (1), each byte of the
 *  escape alphabet on its own (itself: all are printable ASCII), UTF-8 continuation bytes (2),
 *  the rest (0). */
const COUNTED_ROLES = Uint8Array.from({ length: 256 }, (_, b) => (b < 0x20 ? 1 : ESCAPE_ALPHABET.has(b) ? b : isContinuation(b) ? 2 : 0));

/**
 * The canonical escape sequences after their backslash, as a trie. Node 0 is "just read the
 * backslash"; a move goes to another node (>= 0) or ends the sequence on raw byte x (-1 - x).
 * `below[node]`: each raw byte the node can still end on, with the bytes left to read.
 */
const escapeTrie = (() => {
  const moves: Map<number, number>[] = [new Map()];
  const below: { raw: number; rest: number }[][] = [[]];
  for (const [raw, path] of ESCAPES) {
    let node = 0;
    for (let i = 1; i < path.length; i++) {
      below[node]!.push({ raw, rest: path.length - i });
      if (i === path.length - 1) {
        moves[node]!.set(path[i]!, -1 - raw);
        break;
      }
      let next = moves[node]!.get(path[i]!);
      if (next === undefined) {
        next = moves.push(new Map()) - 1;
        below.push([]);
        moves[node]!.set(path[i]!, next);
      }
      node = next;
    }
  }
  return { moves, below };
})();
/** Places in an escape: 0 = none (plain spelling), 1 + trie node. */
const SUBS = 1 + escapeTrie.moves.length;

/** Bytes a JSON string body spells as themselves take one byte; the others their escape's. */
const spelledLength = (b: number): number => (escaped(b) ? ESCAPES.find(([raw]) => raw === b)![1].length : 1);

export class CountedStringAutomaton implements LazyRule {
  readonly start = OPEN;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  readonly callees = undefined;
  readonly tables: RuleTables;
  readonly shortest: number;
  private readonly k: number;
  /** Counts tracked: 0..max, or 0..min when unbounded (beyond min every count behaves alike). */
  private readonly cap: number;
  private readonly classByte: Int32Array;
  private readonly bytes: ClassBytes;
  private readonly distances: CountDistances;
  /** Other states are keyed (count * k + content state) * SUBS + place, under dense ids. */
  private readonly states = new DenseStates();

  /** `content`: a finished (trimmed) DFA over valid UTF-8 text. */
  private constructor(
    private readonly content: ByteDfa,
    private readonly moves: CharacterMoves,
    private readonly min: number,
    private readonly max: number,
    budget: Budget,
    what: string,
  ) {
    this.k = content.numStates;
    this.cap = max === Infinity ? min : max;
    const part = refine(content.classOf, COUNTED_ROLES);
    this.classOf = part.classOf;
    this.numClasses = part.numClasses;
    this.classByte = new Int32Array(part.numClasses);
    for (let b = 255; b >= 0; b--) this.classByte[part.classOf[b]!] = b;
    this.bytes = new ClassBytes(this.classOf, this.numClasses);
    this.distances = new CountDistances(content, moves, min, max, budget, what);
    const first = this.distOf(this.key(content.start, 0, 0));
    this.shortest = first >= UNREACHABLE ? UNREACHABLE : 1 + first;
    this.tables = {
      next: (state, cls) => this.next(state, this.classByte[cls]!),
      dist: (state) => (state === CLOSE ? 0 : state === OPEN ? this.shortest : this.distOf(this.states.key(state))),
      plainBudget: (state, pos) => this.plainBudget(state, pos),
      singleByte: (state) => (state === CLOSE ? NO_BYTE : this.bytes.singleByte((cls) => this.next(state, this.classByte[cls]!))),
    };
  }

  /** The string's automaton; null when no text of `content` is within the bounds. */
  static of(content: ByteDfa, min: number, max: number, budget: Budget, what: string): CountedStringAutomaton | null {
    const automaton = new CountedStringAutomaton(content, new CharacterMoves(content), min, max, budget, what);
    return automaton.shortest >= UNREACHABLE ? null : automaton;
  }

  /** States made so far. */
  get numStates(): number {
    return this.states.size;
  }

  private key(c: number, n: number, sub: number): number {
    return (n * this.k + c) * SUBS + sub;
  }

  /** The count after starting one more character, or -1 past the maximum. */
  private counted(n: number): number {
    return n + 1 > this.max ? -1 : Math.min(n + 1, this.cap);
  }

  /** The id of the state with this key, or DEAD when it cannot complete (never made then). */
  private live(key: number): number {
    return this.distOf(key) < UNREACHABLE ? this.states.id(key) : DEAD;
  }

  private next(state: number, b: number): number {
    if (state === OPEN) return b === QUOTE ? this.live(this.key(this.content.start, 0, 0)) : DEAD;
    if (state === CLOSE) return DEAD;
    const key = this.states.key(state);
    const sub = key % SUBS;
    const rest = (key - sub) / SUBS;
    const c = rest % this.k;
    const n = (rest - c) / this.k;
    if (sub === 0) {
      if (b === QUOTE) return this.content.accepting[c] === 1 && n >= this.min ? CLOSE : DEAD;
      if (b === BACKSLASH) {
        const m = this.counted(n);
        return m < 0 ? DEAD : this.live(this.key(c, m, 1));
      }
      if (escaped(b)) return DEAD;
      const t = stepByte(this.content, c, b);
      const m = isContinuation(b) ? n : this.counted(n);
      return t < 0 || m < 0 ? DEAD : this.live(this.key(t, m, 0));
    }
    const move = escapeTrie.moves[sub - 1]!.get(b);
    if (move === undefined) return DEAD;
    if (move >= 0) return this.live(this.key(c, n, 1 + move));
    const t = stepByte(this.content, c, -1 - move);
    return t < 0 ? DEAD : this.live(this.key(t, n, 0));
  }

  /** Fewest bytes from the state with this key to the end of the token. */
  private distOf(key: number): number {
    const sub = key % SUBS;
    const rest = (key - sub) / SUBS;
    const c = rest % this.k;
    const row = this.distances.row((rest - c) / this.k);
    let best = UNREACHABLE;
    if (sub === 0) {
      // A boundary state, or inside a character: finish it first (it was counted when it began).
      const pending = this.moves.pending[c]!;
      if (pending === 0) best = row[c]!;
      else for (const u of this.moves.completions(c)) best = Math.min(best, pending + row[u]!);
    } else {
      for (const { raw, rest: left } of escapeTrie.below[sub - 1]!) {
        const t = stepByte(this.content, c, raw);
        if (t >= 0) best = Math.min(best, left + row[t]!);
      }
    }
    // Plus the closing quote.
    return best >= UNREACHABLE ? UNREACHABLE : best + 1;
  }

  private plainBudget(state: number, pos: number): number {
    if (state === OPEN || state === CLOSE) return NO_BUDGET;
    const key = this.states.key(state);
    if (key % SUBS !== 0) return NO_BUDGET;
    const rest = key / SUBS;
    const c = rest % this.k;
    const n = (rest - c) / this.k;
    // Below the minimum, plain text could still end too short: no claim.
    if (n < this.min) return NO_BUDGET;
    // The content's own budgets, made when a document first asks (shared per content automaton).
    const own = plainBudgetsOf(this.content)[c * 4 + pos]!;
    if (this.max === Infinity || own === NO_BUDGET) return own;
    const room = this.max - n - this.distances.longestFinish;
    return room < 0 ? NO_BUDGET : own === UNBOUNDED ? room : Math.min(own, room);
  }
}

/**
 * The content automaton one character at a time: where each UTF-8 position is (`pending`:
 * continuation bytes still due, 0 at a character boundary), and each boundary state's character
 * moves with their cheapest spelling in the JSON string (an escape costs its length).
 */
class CharacterMoves {
  readonly pending: Int8Array;
  /** Per boundary state (CSR): target boundary state and fewest spelled bytes. */
  readonly edgeStart: Int32Array;
  readonly edgeTo: Int32Array;
  readonly edgeCost: Int32Array;
  private readonly completed = new Map<number, readonly number[]>();

  constructor(private readonly content: ByteDfa) {
    const k = content.numStates;
    this.pending = pendingBytes(content);
    const to: number[] = [];
    const cost: number[] = [];
    this.edgeStart = new Int32Array(k + 1);
    const best = new Int32Array(k).fill(-1);
    const targets: number[] = [];
    const offer = (u: number, bytes: number): void => {
      if (best[u]! < 0) targets.push(u);
      if (best[u]! < 0 || bytes < best[u]!) best[u] = bytes;
    };
    for (let c = 0; c < k; c++) {
      this.edgeStart[c] = to.length;
      if (this.pending[c] !== 0) continue;
      for (let b = 0; b < 0x80; b++) {
        const t = stepByte(this.content, c, b);
        if (t >= 0) offer(t, spelledLength(b));
      }
      for (let b = 0xc2; b <= 0xf4; b++) {
        const t = stepByte(this.content, c, b);
        if (t >= 0) for (const u of this.completions(t)) offer(u, 1 + this.pending[t]!);
      }
      for (const u of targets) (to.push(u), cost.push(best[u]!), (best[u] = -1));
      targets.length = 0;
    }
    this.edgeStart[k] = to.length;
    this.edgeTo = Int32Array.from(to);
    this.edgeCost = Int32Array.from(cost);
  }

  /** The boundary states a state inside a character reaches by finishing it. */
  completions(m: number): readonly number[] {
    let out = this.completed.get(m);
    if (out === undefined) {
      const found = new Set<number>();
      for (let b = 0x80; b <= 0xbf; b++) {
        const t = stepByte(this.content, m, b);
        if (t < 0) continue;
        if (this.pending[t] === 0) found.add(t);
        else for (const u of this.completions(t)) found.add(u);
      }
      this.completed.set(m, (out = [...found]));
    }
    return out;
  }
}

/** Continuation bytes still due in each state of a trimmed automaton over valid UTF-8. A class
 *  is read through one of its bytes: bytes of one class that move at all lead to one state, so
 *  they are all ASCII, all continuations, or all leads of one length. */
function pendingBytes(content: ByteDfa): Int8Array {
  const { numClasses, classOf, trans } = content;
  const byteOf = new Int32Array(numClasses);
  for (let b = 255; b >= 0; b--) byteOf[classOf[b]!] = b;
  const pending = new Int8Array(content.numStates).fill(-1);
  const queue = [content.start];
  pending[content.start] = 0;
  while (queue.length > 0) {
    const s = queue.pop()!;
    for (let c = 0; c < numClasses; c++) {
      const t = trans[s * numClasses + c]!;
      if (t < 0 || pending[t]! >= 0) continue;
      const b = byteOf[c]!;
      pending[t] = pending[s]! > 0 ? pending[s]! - 1 : b < 0x80 ? 0 : b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3;
      queue.push(t);
    }
  }
  return pending;
}

/**
 * D(c, n): fewest spelled bytes from boundary state c, n characters written, to an accepting
 * state with a count within [min, max]. Row n depends on row n + 1 only. With no maximum (the
 * count saturates at min) row min is the unbounded distance; with one, rows are computed down
 * from max until a row equals the unbounded distance: from there down to min every row does
 * (the unbounded distance is the fixed point of the same recurrence), so a long maximum costs
 * only the rows near it, about as many as the content has states. Rows below min are computed.
 */
class CountDistances {
  /** The most characters a shortest finish from any boundary state takes. */
  readonly longestFinish: number;
  private readonly unbounded: Int32Array;
  /** Rows max, max - 1, ... down to just above `stableTo`. */
  private readonly upper: Int32Array[] = [];
  /** Rows 0..min-1. */
  private readonly lower: Int32Array[] = [];
  /** Rows from min up to here are `unbounded`. */
  private readonly stableTo: number;

  constructor(
    private readonly content: ByteDfa,
    private readonly moves: CharacterMoves,
    private readonly min: number,
    private readonly max: number,
    budget: Budget,
    what: string,
  ) {
    const k = content.numStates;
    const accepting: number[] = [];
    for (let c = 0; c < k; c++) if (content.accepting[c]) accepting.push(c);
    const from = new Int32Array(moves.edgeTo.length);
    for (let c = 0; c < k; c++) from.fill(c, moves.edgeStart[c], moves.edgeStart[c + 1]);
    const edges = { from, to: moves.edgeTo, weight: moves.edgeCost };
    this.unbounded = distancesTo(k, edges, accepting);
    const characters = distancesTo(k, { ...edges, weight: new Int32Array(from.length).fill(1) }, accepting);
    let longest = 0;
    for (let c = 0; c < k; c++) if (moves.pending[c] === 0 && characters[c]! < UNREACHABLE) longest = Math.max(longest, characters[c]!);
    this.longestFinish = longest;

    const rowWork = k + moves.edgeTo.length;
    let stableTo = min;
    if (max !== Infinity) {
      let above: Int32Array | null = null;
      for (let n = max; ; n--) {
        if (n < min) {
          stableTo = min - 1;
          break;
        }
        budget.charge(rowWork, what);
        const row = this.relax(above, n >= min);
        if (sameRow(row, this.unbounded)) {
          stableTo = n;
          break;
        }
        this.upper.push(row);
        above = row;
      }
    }
    this.stableTo = stableTo;
    for (let n = min - 1; n >= 0; n--) {
      budget.charge(rowWork, what);
      this.lower[n] = this.relax(this.row(n + 1), false);
    }
  }

  row(n: number): Int32Array {
    if (n > this.stableTo) return this.upper[this.max - n]!;
    return n >= this.min ? this.unbounded : this.lower[n]!;
  }

  /** A row from the row above it (null: past the maximum); `ends`: the count is within bounds. */
  private relax(above: Int32Array | null, ends: boolean): Int32Array {
    const { content, moves } = this;
    const row = new Int32Array(content.numStates).fill(UNREACHABLE);
    for (let c = 0; c < content.numStates; c++) {
      if (moves.pending[c] !== 0) continue;
      let best = ends && content.accepting[c] ? 0 : UNREACHABLE;
      if (above !== null) {
        for (let e = moves.edgeStart[c]!; e < moves.edgeStart[c + 1]!; e++) {
          const d = above[moves.edgeTo[e]!]!;
          if (d < UNREACHABLE) best = Math.min(best, moves.edgeCost[e]! + d);
        }
      }
      row[c] = best;
    }
    return row;
  }
}

function sameRow(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
