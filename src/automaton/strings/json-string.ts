/**
 * The automaton of a `jsonString` IR node: content language (pattern search, or any text), minus
 * the excluded names and patterns, cut to the length bounds in code points, then JSON-encoded
 * with quotes. Regex DFAs are minimized before the products so those stay small; the products
 * are minimized once, at the end. A pattern under length bounds whose product would be large is
 * computed instead (counted-string.ts). Automata are shared process-wide by spec (a bounded LRU;
 * they are immutable), except verbatim ones, which belong to one document and are only memoized
 * per build; a pattern's search automaton, which goes into several specs, by pattern source
 * (pattern-search.ts).
 */
import type { Expr } from "../../grammar/index.js";
import {
  boundLength,
  type Budget,
  DfaBuilder,
  encodeText,
  finish,
  isLazyRule,
  partitionFromCuts,
  product,
  type ByteDfa,
  type LazyRule,
} from "../fsa/index.js";
import { CountedStringAutomaton } from "./counted-string.js";
import { encodeJsonString } from "./json-escape.js";
import { anyTextAutomaton, clearPatternSearches, patternSearch } from "./pattern-search.js";
import { substringContent } from "./substrings.js";
import { LruCache } from "../../util/index.js";

export type JsonStringSpec = Extract<Expr, { kind: "jsonString" }>;

/** Distinct string specs kept process-wide (a default-bounded string is ~2,800 states, 0.2 MiB). */
const SHARED_STRINGS = 512;
const shared = new LruCache<string, { dfa: ByteDfa | LazyRule | null }>(SHARED_STRINGS);
/** Content states x counts from which a pattern under length bounds is computed, not built (a
 *  built pair costs a few states more once JSON-encoded, and a minimization pass). */
const COUNTED_FROM = 256;

/** Short keys of string lists (an interned id per distinct content), memoized per array: an
 *  object's excluded-key list (every declared name) is shared by all its member strings, and
 *  keying each of them must not cost O(names). Ids are never reused. */
const listKeys = new WeakMap<readonly string[], string>();
const listIds = new LruCache<string, number>(4096);
let nextListId = 0;

function listKey(list: readonly string[] | undefined): string {
  if (list === undefined || list.length === 0) return "-";
  let key = listKeys.get(list);
  if (key === undefined) {
    const text = JSON.stringify(list);
    let id = listIds.get(text);
    if (id === undefined) listIds.set(text, (id = nextListId++));
    listKeys.set(list, (key = `L${id}`));
  }
  return key;
}

export class JsonStrings {
  private readonly verbatim = new Map<string, ByteDfa | LazyRule | null>();

  /** `countedFrom`: content states x counts from which a bounded pattern is computed. */
  constructor(
    private readonly budget: Budget,
    private readonly countedFrom = COUNTED_FROM,
  ) {}

  static clearShared(): void {
    shared.clear();
    clearPatternSearches();
  }

  /** Identical specs have identical keys. */
  static keyOf(spec: JsonStringSpec): string {
    const max = spec.maxLength === Infinity ? null : spec.maxLength;
    return `[${spec.minLength},${max},${JSON.stringify(spec.pattern ?? null)},${listKey(spec.exclude)},${listKey(spec.excludePatterns)},${JSON.stringify(spec.substringOf ?? null)}]`;
  }

  /** The automaton of the string token (a finished table, or computed: counted-string.ts); null
   *  when no string satisfies the spec. */
  get(spec: JsonStringSpec): ByteDfa | LazyRule | null {
    const key = JsonStrings.keyOf(spec);
    if (spec.substringOf !== undefined) {
      if (!this.verbatim.has(key)) this.verbatim.set(key, this.build(spec, "verbatim string", true));
      return this.verbatim.get(key)!;
    }
    const what = `string ${key}`;
    let entry = shared.get(key);
    if (entry === undefined) {
      entry = { dfa: this.build(spec, what, true) };
      shared.set(key, entry);
    } else if (entry.dfa !== null && !isLazyRule(entry.dfa)) {
      // Built under another build's limits: this build's limit still applies.
      this.budget.checkStates(entry.dfa.numStates, what);
    }
    return entry.dfa;
  }

  /** The automaton of the string token as a finished table, however large (the reference that
   *  computed ones are tested against); not shared. */
  table(spec: JsonStringSpec): ByteDfa | null {
    return this.build(spec, `string ${JsonStrings.keyOf(spec)}`, false) as ByteDfa | null;
  }

  /** `compute`: a pattern under length bounds whose product would pass `countedFrom` states is
   *  computed (counted-string.ts) instead of built. */
  private build(spec: JsonStringSpec, what: string, compute: boolean): ByteDfa | LazyRule | null {
    const { minLength: min, maxLength: max } = spec;
    if (min > max) return null;
    let content = this.content(spec, what);
    const excluded = [
      ...(spec.exclude !== undefined && spec.exclude.length > 0 ? [textsDfa(spec.exclude, this.budget, what)] : []),
      ...(spec.excludePatterns ?? []).map((p) => this.search(p, what)),
    ];
    for (const ex of excluded) if (content !== null && ex !== null) content = product(content, ex, "difference", this.budget, what);
    if (content !== null && (min > 0 || max !== Infinity)) {
      content = finish(content);
      if (content === null) return null;
      if (compute && content.numStates * ((max === Infinity ? min : max) + 1) > this.countedFrom) {
        return CountedStringAutomaton.of(content, min, max, this.budget, what);
      }
      content = boundLength(content, min, max, this.budget, what);
    }
    if (content === null) return null;
    return finish(encodeJsonString(content, this.budget, what));
  }

  /** The content language before exclusions and length bounds. */
  private content(spec: JsonStringSpec, what: string): ByteDfa | null {
    const searched = spec.pattern === undefined ? null : this.search(spec.pattern, what);
    if (spec.substringOf === undefined) return spec.pattern === undefined ? anyTextAutomaton() : searched;
    const verbatim = substringContent(spec.substringOf, this.budget, what);
    if (spec.pattern === undefined) return verbatim;
    return searched === null ? null : product(searched, verbatim, "intersect", this.budget, what);
  }

  /** Texts in which the pattern finds a match (JSON Schema `pattern` semantics), shared across
   *  specs and builds by pattern source (pattern-search.ts). */
  private search(pattern: string, what: string): ByteDfa | null {
    return patternSearch(pattern, this.budget, what);
  }
}

/** The automaton of a finite set of texts, built as their trie: trimmed but not minimal (what it
 *  goes into is finished, or computed: excluded-names.ts). The texts are sorted first: each then
 *  shares its path with the one before up to their common prefix, so the trie's size is known
 *  before it is built (an object's list of names is one per schema, and growing the table as
 *  names came was most of building it). */
export function textsDfa(texts: readonly string[], budget: Budget, what: string): ByteDfa {
  const words = texts.map(encodeText).sort(compareBytes);
  const cuts: number[] = [];
  for (const bytes of words) for (const b of bytes) cuts.push(b, b + 1);
  const { classOf, numClasses } = partitionFromCuts(cuts);
  const shared = words.map((bytes, i) => (i === 0 ? 0 : commonPrefix(words[i - 1]!, bytes)));
  const nodes = words.reduce((n, bytes, i) => n + bytes.length - shared[i]!, 1);
  const trie = new DfaBuilder(classOf, numClasses, budget, what, nodes);
  // path[d]: the node after the first d bytes of the previous word.
  const path = [trie.addState()];
  words.forEach((bytes, i) => {
    for (let d = shared[i]!; d < bytes.length; d++) {
      const next = trie.addState();
      trie.set(path[d]!, classOf[bytes[d]!]!, next);
      path[d + 1] = next;
    }
    trie.setAccepting(path[bytes.length]!, true);
  });
  return trie.build(path[0]!);
}

function compareBytes(a: readonly number[], b: readonly number[]): number {
  const n = commonPrefix(a, b);
  return n < a.length && n < b.length ? a[n]! - b[n]! : a.length - b.length;
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
