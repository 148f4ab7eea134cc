/**
 * The search automaton of a `pattern` (the texts in which it finds a match, JSON Schema semantics),
 * shared process-wide by pattern source in a bounded LRU. One pattern goes into several string
 * specs (a patternProperties key is its own key's content and an excluded pattern of every other
 * key of the object; the same pattern under other length bounds or excluded names), and schemas
 * share patterns; each spec is cached whole (json-string.ts), but its pattern was searched again
 * for each. The automaton depends on the pattern alone: the budget only decides whether a build
 * may finish, so a hit is checked against the caller's state limit as a build would be.
 *
 * The entry is never handed out: each caller gets its own copy of the tables (a copy costs a
 * memcpy, far less than the subset construction and products it replaces), so no later change to
 * an automaton one build holds can reach another build.
 *
 * The pieces a search is the product of (a branch's search and each look-around's language) are
 * kept too, by their expressions: patterns combined for allOf (schema-compiler/patterns.ts) are
 * look-aheads over the same few patterns in many combinations, and each piece was compiled again
 * in every one. Pieces are only read by the products, never handed out.
 */
import { anyText, clearPatternLanguages, patternLanguage, type PatternParts } from "../../regex/index.js";
import { Budget, compileExpr, concatAfterSinks, product, type ByteDfa } from "../fsa/index.js";
import { LruCache } from "../../util/index.js";

/** Distinct pattern sources whose search automata are kept process-wide (most are tens to a few
 *  hundred states; the schemas of one service use far fewer patterns). */
export const SHARED_PATTERN_SEARCHES = 512;

let anyTextDfa: ByteDfa | undefined;

/** The automaton of any text: the same small automaton for every build, compiled once per
 *  process on a private budget (a search appends it after a pattern's first match; a string
 *  without a pattern is any text). */
export function anyTextAutomaton(): ByteDfa {
  anyTextDfa ??= compileExpr(anyText, new Budget(1 << 16, 1 << 22), "any text")!;
  return anyTextDfa;
}

const searches = new LruCache<string, { readonly dfa: ByteDfa | null }>(SHARED_PATTERN_SEARCHES);
/** Automata of pattern pieces (parts()), by the pieces' expressions. */
const pieces = new LruCache<string, { readonly dfa: ByteDfa | null }>(SHARED_PATTERN_SEARCHES);

/** Search automata and pieces built since the process started (a hit builds none). */
let builds = 0;
let pieceBuilds = 0;

/** How many search automata were built (tests: a second schema with the same pattern builds none). */
export function patternSearchBuilds(): number {
  return builds;
}

/** How many pieces were built (tests: a combination sharing a look-ahead builds it once). */
export function patternPieceBuilds(): number {
  return pieceBuilds;
}

/** Forgets every shared search automaton and the pattern languages they were read from (clearSharedAutomata). */
export function clearPatternSearches(): void {
  searches.clear();
  pieces.clear();
  clearPatternLanguages();
}

/** The pattern sources kept, most recently used first (tests; reading is not a use). */
export function sharedPatternSources(): string[] {
  return searches.entries().map(([pattern]) => pattern);
}

/**
 * Texts in which `pattern` finds a match: each branch's search, cut by its look-arounds, then the
 * union of the branches; null when no text matches. A fresh copy on every call.
 */
export function patternSearch(pattern: string, budget: Budget, what: string): ByteDfa | null {
  const dfa = kept(searches, pattern, budget, what, () => {
    builds++;
    return search(pattern, budget, what);
  });
  return dfa === null ? null : copyOf(dfa);
}

/** The automaton `cache` keeps under `key`, built (and counted by `build`) on a miss. A build that
 *  fails throws before anything is kept; a hit, built under another build's limits, is checked
 *  against this build's state limit. */
function kept(cache: LruCache<string, { readonly dfa: ByteDfa | null }>, key: string, budget: Budget, what: string, build: () => ByteDfa | null): ByteDfa | null {
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = { dfa: build() };
    cache.set(key, entry);
  } else if (entry.dfa !== null) {
    budget.checkStates(entry.dfa.numStates, what);
  }
  return entry.dfa;
}

function copyOf(dfa: ByteDfa): ByteDfa {
  return { numStates: dfa.numStates, start: dfa.start, numClasses: dfa.numClasses, classOf: dfa.classOf.slice(), trans: dfa.trans.slice(), accepting: dfa.accepting.slice() };
}

function search(pattern: string, budget: Budget, what: string): ByteDfa | null {
  let matched: ByteDfa | null = null;
  for (const branch of patternLanguage(pattern).branches) {
    let texts = parts(branch.search, budget, what);
    for (const required of branch.require) {
      const other = texts === null ? null : parts(required, budget, what);
      texts = texts === null || other === null ? null : product(texts, other, "intersect", budget, what);
    }
    for (const forbidden of branch.forbid) {
      const other = texts === null ? null : parts(forbidden, budget, what);
      if (texts !== null && other !== null) texts = product(texts, other, "difference", budget, what);
    }
    if (texts === null) continue;
    matched = matched === null ? texts : product(matched, texts, "union", budget, what);
  }
  return matched;
}

/** The texts with a prefix in `prefix` or equal to a text of `whole` (built once per process). */
function parts(piece: PatternParts, budget: Budget, what: string): ByteDfa | null {
  return kept(pieces, JSON.stringify([piece.prefix, piece.whole]), budget, what, () => {
    pieceBuilds++;
    return buildParts(piece, budget, what);
  });
}

function buildParts({ prefix, whole }: PatternParts, budget: Budget, what: string): ByteDfa | null {
  const upToMatch = prefix === null ? null : compileExpr(prefix, budget, what, { stopAtAccept: true });
  const open = upToMatch === null ? null : concatAfterSinks(upToMatch, anyTextAutomaton(), budget, what);
  const closed = whole === null ? null : compileExpr(whole, budget, what);
  if (open === null || closed === null) return open ?? closed;
  return product(open, closed, "union", budget, what);
}
