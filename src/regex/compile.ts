/**
 * Regex AST -> grammar expressions over code points, with JSON Schema `pattern` semantics: an
 * unanchored search, i.e. the text matches when some substring does. `^` and `$` may stand
 * anywhere (anchors.ts). Look-arounds are read where their position is fixed: a look-ahead in the
 * zero-width head of a top-level alternative that also holds `^` (position 0), a look-behind in
 * the zero-width tail that also holds `$` (the end). There each is a language the whole text
 * must (or must not) belong to: `^(?!A)B` is search(^B) minus "texts starting with a match of A".
 * The results are plain `Expr`s (no refs, no jsonString), so the automaton builder compiles
 * them like any other expression and combines them with its products. Not a matcher.
 */
import { alt, chars, seq, type Expr } from "../grammar/index.js";
import { LruCache } from "../util/index.js";
import { anchorKinds, BOTH, END, START, type Kinds } from "./anchors.js";
import { ANY } from "./charset.js";
import { parseRegex, type RegexNode } from "./parse.js";
import { unicodeModeSource } from "./unicode-mode.js";

/**
 * A set of texts, split by how a text is recognised:
 * - `prefix`: a text belongs when some prefix of it is in this language (the automaton builder
 *   appends "any text" after the first match, which keeps the subset construction from tracking
 *   every way the match could continue);
 * - `whole`: a text belongs when it is in this language.
 * Either is null when empty.
 */
export interface PatternParts {
  readonly prefix: Expr | null;
  readonly whole: Expr | null;
}

/** One top-level alternative's texts: those its search matches, in every `require` language
 *  and in no `forbid` one (its look-arounds). */
export interface PatternBranch {
  readonly search: PatternParts;
  readonly require: readonly PatternParts[];
  readonly forbid: readonly PatternParts[];
}

/** The texts a pattern matches: the union of its branches. Alternatives without look-arounds
 *  share one branch (one automaton); each alternative with look-arounds has its own. */
export interface PatternLanguage {
  readonly branches: readonly PatternBranch[];
}

/** Matches any text (`[^]*`). */
export const anyText: Expr = { kind: "repeat", item: chars(...ANY), min: 0, max: Infinity };

/** Languages of the patterns a process read last (they are immutable): a pattern is read when the
 *  schema is checked, again by each allOf combination it goes into, and when its automaton and
 *  byte classes are built. A refused pattern is not kept (it is read again, and refused again). */
const languages = new LruCache<string, PatternLanguage>(1024);

/** Forgets the languages read so far (clearSharedAutomata, through the pattern searches). */
export function clearPatternLanguages(): void {
  languages.clear();
}

/** The texts `written` matches, read as its Unicode-mode form (unicode-mode.ts). */
export function patternLanguage(written: string): PatternLanguage {
  let language = languages.get(written);
  if (language === undefined) {
    language = readPattern(written);
    languages.set(written, language);
  }
  return language;
}

function readPattern(written: string): PatternLanguage {
  const pattern = unicodeModeSource(written);
  const root = parseRegex(pattern);
  const plainAlternatives: RegexNode[] = [];
  const branches: PatternBranch[] = [];
  for (const alternative of root.type === "alt" ? root.items : [root]) {
    const items = flatten(alternative);
    const head = zeroWidthRun(items);
    const tail = zeroWidthRun([...items].reverse());
    const looks = [...head, ...tail].filter((n) => n.type === "look");
    if (looks.length === 0) {
      plainAlternatives.push(alternative);
      continue;
    }
    const require: PatternParts[] = [];
    const forbid: PatternParts[] = [];
    const placed = new Set<RegexNode>();
    for (const [run, ahead, anchor] of [[head, true, "start"], [tail, false, "end"]] as const) {
      const anchored = run.some((n) => n.type === "anchor" && n.at === anchor);
      for (const look of run) {
        if (look.type !== "look" || look.ahead !== ahead || !anchored) continue;
        (look.negated ? forbid : require).push(ahead ? atStart(pattern, look.body) : atEnd(pattern, look.body));
        placed.add(look);
      }
    }
    // A look-around left unplaced is refused by anchorKinds, with its position.
    const body: RegexNode = { type: "seq", items: items.filter((n) => !placed.has(n)) };
    branches.push({ search: searched(anchorKinds(pattern, body)), require, forbid });
  }
  if (plainAlternatives.length > 0) {
    const node: RegexNode = plainAlternatives.length === 1 ? plainAlternatives[0]! : { type: "alt", items: plainAlternatives };
    branches.unshift({ search: searched(anchorKinds(pattern, node)), require: [], forbid: [] });
  }
  return { branches };
}

/** Every part of every branch (for callers that only collect the characters a pattern names). */
export function allParts(language: PatternLanguage): PatternParts[] {
  return language.branches.flatMap((b) => [b.search, ...b.require, ...b.forbid]);
}

/** A sequence's items with nested sequences spliced in (groups are sequences). */
function flatten(node: RegexNode): RegexNode[] {
  return node.type === "seq" ? node.items.flatMap(flatten) : [node];
}

/** The leading zero-width items (anchors and look-arounds). */
function zeroWidthRun(items: readonly RegexNode[]): RegexNode[] {
  const end = items.findIndex((n) => n.type !== "anchor" && n.type !== "look");
  return items.slice(0, end < 0 ? items.length : end);
}

const union = (...xs: (Expr | null)[]): Expr | null => {
  const items = xs.filter((x): x is Expr => x !== null);
  return items.length === 0 ? null : items.length === 1 ? items[0]! : alt(...items);
};
const after = (e: Expr | null): Expr | null => (e === null ? null : seq(anyText, e));

/** Texts in which a match is found: one may begin anywhere unless it passes `^`, and end
 *  anywhere unless it passes `$`. */
function searched(k: Kinds): PatternParts {
  return { prefix: union(after(k[0]), k[START]), whole: union(after(k[END]), k[BOTH]) };
}

/** Texts that begin with a match of `node` (a look-ahead at position 0, where `^` holds). */
function atStart(pattern: string, node: RegexNode): PatternParts {
  const k = anchorKinds(pattern, node);
  return { prefix: union(k[0], k[START]), whole: union(k[END], k[BOTH]) };
}

/** Texts that end with a match of `node` (a look-behind at the end, where `$` holds). */
function atEnd(pattern: string, node: RegexNode): PatternParts {
  const k = anchorKinds(pattern, node);
  return { prefix: null, whole: union(after(k[0]), after(k[END]), k[START], k[BOTH]) };
}
