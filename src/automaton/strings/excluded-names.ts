/**
 * "Any other key": the automaton of a JSON string token that is not one of a list of names, for
 * strings whose only other condition is a minimum length (what an object with additional
 * properties asks for its undeclared keys), computed instead of built. Every schema's objects have
 * their own name lists, so the built form (content product, JSON encoding, minimization) was a
 * large share of a first compile.
 *
 * Canonical JSON escapes (json-escape.ts) spell each text one way only, so excluding texts is
 * excluding their spellings: a state is a pair (state of the string automaton without the
 * exclusion, node of the trie of the names' quoted spellings, or none once the text left it).
 * Pairs, their moves and their distances are computed when first read:
 *  - a pair accepts where the string accepts and the trie is not at the end of a name;
 *  - `dist` is the string's own once the trie is left; inside the trie, a breadth-first search over
 *    pairs (short: it ends at the first pair out of the trie or accepting);
 *  - moves into pairs that cannot complete (a name's closing quote) are removed;
 *  - `plainBudget` is the string's: the string has no maximum length, so a plain character never
 *    leads into a pair that cannot complete (a text can always grow past every name, then close).
 */
import { ClassBytes, distancesOf, grow, IntList, refine, UNREACHABLE, type Budget, type ByteDfa, type LazyRule, type RuleTables } from "../fsa/index.js";
import { plainBudgetsOf } from "./plain-text-budget.js";
import { textsDfa } from "./json-string.js";

/** Trie node of a pair whose text left the trie. */
const LEFT = -1;
/** A move not computed yet. */
const UNKNOWN = -2;

export class ExcludedNamesAutomaton implements LazyRule {
  readonly start: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  readonly callees = undefined;
  readonly shortest: number;
  readonly tables: RuleTables;

  private readonly trie: ByteDfa;
  private readonly baseDist: Int32Array;
  private readonly baseBudget: Int32Array;
  private readonly bytes: ClassBytes;
  /** A byte of each class. */
  private readonly classByte: Uint8Array;
  private readonly ids = new Map<number, number>();
  private base: number[] = [];
  private node: number[] = [];
  /** raw[s * numClasses + c]: the pair a byte of class c leads to (-1: the string dies), UNKNOWN
   *  until computed; moves into pairs that cannot complete are still there (see next). */
  private raw = new Int32Array(0);
  private dist: number[] = [];
  private single: number[] = [];
  /** search()'s scratch, kept across searches (one runs per pair inside the trie, on the first
   *  document's path): pairs seen (== searchStamp) and the current and next levels. */
  private seenStamp = new Int32Array(16);
  private searchStamp = 0;
  private readonly level = new IntList();
  private readonly nextLevel = new IntList();

  /** `string`: the finished automaton of the string token without the exclusion, with no
   *  maximum length. */
  constructor(
    private readonly string: ByteDfa,
    names: readonly string[],
    budget: Budget,
    what: string,
  ) {
    this.trie = textsDfa(
      names.map((name) => JSON.stringify(name)),
      budget,
      what,
    );
    const part = refine(string.classOf, this.trie.classOf);
    this.classOf = part.classOf;
    this.numClasses = part.numClasses;
    this.classByte = new Uint8Array(part.numClasses);
    for (let b = 255; b >= 0; b--) this.classByte[part.classOf[b]!] = b;
    this.bytes = new ClassBytes(part.classOf, part.numClasses);
    this.baseDist = distancesOf(string);
    this.baseBudget = plainBudgetsOf(string);
    this.start = this.pair(string.start, this.trie.start);
    this.shortest = this.distOf(this.start);
    this.tables = {
      next: (state, cls) => this.next(state, cls),
      dist: (state) => this.distOf(state),
      plainBudget: (state, pos) => this.baseBudget[this.base[state]! * 4 + pos]!,
      singleByte: (state) => this.singleByte(state),
    };
  }

  /** Pairs so far. */
  get numStates(): number {
    return this.base.length;
  }

  private next(state: number, cls: number): number {
    const to = this.step(state, cls);
    return to >= 0 && this.distOf(to) < UNREACHABLE ? to : -1;
  }

  private step(state: number, cls: number): number {
    const at = state * this.numClasses + cls;
    let to = this.raw[at]!;
    if (to === UNKNOWN) {
      const b = this.classByte[cls]!;
      const { string, trie } = this;
      const q = string.trans[this.base[state]! * string.numClasses + string.classOf[b]!]!;
      const t = this.node[state]!;
      to = q < 0 ? -1 : this.pair(q, t === LEFT ? LEFT : trie.trans[t * trie.numClasses + trie.classOf[b]!]!);
      // Re-read: interning may have grown the table.
      this.raw[at] = to;
    }
    return to;
  }

  private accepting(state: number): boolean {
    const t = this.node[state]!;
    return this.string.accepting[this.base[state]!] === 1 && (t === LEFT || this.trie.accepting[t] === 0);
  }

  private distOf(state: number): number {
    let d = this.dist[state]!;
    if (d === undefined) {
      d = this.node[state] === LEFT ? this.baseDist[this.base[state]!]! : this.search(state);
      this.dist[state] = d;
    }
    return d;
  }

  /** Fewest bytes to an accepting pair from a pair inside the trie: breadth first over pairs, up
   *  to the first pair that accepts, or that left the trie plus its string distance. */
  private search(from: number): number {
    if (this.accepting(from)) return 0;
    let best = UNREACHABLE;
    let level = this.level;
    let nextLevel = this.nextLevel;
    level.clear();
    level.push(from);
    const stamp = ++this.searchStamp;
    this.see(from, stamp);
    for (let depth = 1; level.length > 0 && depth < best; depth++) {
      nextLevel.clear();
      for (let i = 0; i < level.length; i++) {
        const s = level.at(i);
        for (let c = 0; c < this.numClasses; c++) {
          const to = this.step(s, c);
          if (to < 0 || !this.see(to, stamp)) continue;
          if (this.node[to] === LEFT) best = Math.min(best, depth + this.baseDist[this.base[to]!]!);
          else if (this.accepting(to)) best = Math.min(best, depth);
          else nextLevel.push(to);
        }
      }
      const done = level;
      level = nextLevel;
      nextLevel = done;
    }
    return best;
  }

  /** Marks `pair` seen by search `stamp`; false when it already was. */
  private see(pair: number, stamp: number): boolean {
    if (pair >= this.seenStamp.length) this.seenStamp = grow(this.seenStamp, Math.max(pair + 1, this.seenStamp.length * 2));
    if (this.seenStamp[pair] === stamp) return false;
    this.seenStamp[pair] = stamp;
    return true;
  }

  private singleByte(state: number): number {
    let single = this.single[state];
    if (single === undefined) this.single[state] = single = this.bytes.singleByte((c) => this.next(state, c));
    return single;
  }

  private pair(q: number, t: number): number {
    const key = q * (this.trie.numStates + 1) + t + 1;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.base.length;
      this.ids.set(key, id);
      this.base.push(q);
      this.node.push(t < 0 ? LEFT : t);
      if (this.raw.length < this.base.length * this.numClasses) {
        const raw = new Int32Array(Math.max(this.base.length * 2, 16) * this.numClasses).fill(UNKNOWN);
        raw.set(this.raw);
        this.raw = raw;
      }
    }
    return id;
  }
}
