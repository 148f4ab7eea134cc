/**
 * `^` and `$` anywhere in a pattern (ECMAScript without the m flag: `^` asserts position 0, `$`
 * the end of the text). A regex node's matches are split by the anchors they pass, into four
 * plain languages without anchors (`Kinds`, indexed by the bits START | END):
 *   0 (none)     matches that pass no anchor;
 *   START        matches that pass a `^`: the node consumed nothing before it (whatever comes
 *                before the node must consume nothing either, and the match begins at 0);
 *   END          matches that pass a `$`: the node consumes nothing after it (the same holds
 *                for what follows, and the match ends at the end of the text);
 *   START | END  both.
 * Sequences combine the kinds pairwise, forcing the emptiness the anchors demand; `(^|\n)x` is
 * then `x` at the start or `\nx` anywhere. A path that asserts `^` after consuming text matches
 * nothing (`/^a$/` as a pattern: the slash precedes `^`). Look-arounds are not read here
 * (compile.ts places them).
 */
import { alt, repeat, seq, type Expr } from "../grammar/index.js";
import type { RegexNode } from "./parse.js";
import { PatternError } from "./pattern-error.js";

export const START = 1;
export const END = 2;
export const BOTH = 3;

/** The languages of a node's matches by kind (index 0..3); null is the empty language. */
export type Kinds = readonly [Expr | null, Expr | null, Expr | null, Expr | null];

/** Copies an anchored item may be repeated into (`(^|a){3}`); real patterns stay far below. */
const MAX_ANCHORED_COPIES = 16;

const EMPTY: Expr = seq();
const plain = (e: Expr | null): Kinds => [e, null, null, null];

/** Matches the empty text. */
export function nullable(e: Expr): boolean {
  switch (e.kind) {
    case "lit":
      return e.text === "";
    case "chars":
      return false;
    case "seq":
      return e.items.every(nullable);
    case "alt":
      return e.items.some(nullable);
    case "repeat":
      return e.min === 0 || nullable(e.item);
    case "ref":
    case "jsonString":
      throw new Error(`nullable: a pattern expression has no ${e.kind}`);
  }
}

/** `e` cut to the empty text: ε when it matches it, else nothing. */
const onlyEmpty = (e: Expr): Expr | null => (nullable(e) ? EMPTY : null);

function union(...xs: (Expr | null)[]): Expr | null {
  const items = xs.filter((x): x is Expr => x !== null);
  return items.length === 0 ? null : items.length === 1 ? items[0]! : alt(...items);
}

function unionKinds(all: readonly Kinds[]): Kinds {
  return [0, 1, 2, 3].map((k) => union(...all.map((x) => x[k]!))) as unknown as Kinds;
}

/** `a` then `b`: a `^` in b's part empties a's part, a `$` in a's part empties b's part. */
function concat(a: Kinds, b: Kinds): Kinds {
  const out: (Expr | null)[][] = [[], [], [], []];
  for (let ka = 0; ka < 4; ka++) {
    const left = a[ka];
    if (left === null || left === undefined) continue;
    for (let kb = 0; kb < 4; kb++) {
      const right = b[kb];
      if (right === null || right === undefined) continue;
      const l = kb & START ? onlyEmpty(left) : left;
      const r = ka & END ? onlyEmpty(right) : right;
      if (l !== null && r !== null) out[ka | kb]!.push(l === EMPTY ? r : r === EMPTY ? l : seq(l, r));
    }
  }
  return out.map((xs) => union(...xs)) as unknown as Kinds;
}

const hasAnchors = (k: Kinds): boolean => k[1] !== null || k[2] !== null || k[3] !== null;

/**
 * `x*` over kinds. In a run of copies, the copies before the last one passing `^` consume
 * nothing, and so do those after the first one passing `$`; copies in between pass no anchor.
 */
function star(x: Kinds): Kinds {
  const [none, start, end, both] = x;
  const loop = none === null ? EMPTY : repeat(none, 0, Infinity);
  const middle = (s: Expr | null, e: Expr | null): Expr | null => (s === null || e === null ? null : seq(s, loop, e));
  // A `$` copy before a `^` copy: every copy consumes nothing.
  const emptyBoth = end !== null && nullable(end) && start !== null && nullable(start) ? EMPTY : null;
  return [
    loop,
    start === null ? null : seq(start, loop),
    end === null ? null : seq(loop, end),
    union(middle(start, end), both, emptyBoth),
  ];
}

function repeatKinds(pattern: string, node: Extract<RegexNode, { type: "repeat" }>, item: Kinds): Kinds {
  if (!hasAnchors(item)) return plain(item[0] === null ? (node.min === 0 ? EMPTY : null) : repeat(item[0], node.min, node.max));
  const copies = node.max === Infinity ? node.min : node.max;
  if (copies > MAX_ANCHORED_COPIES) {
    throw new PatternError("PATTERN_UNSUPPORTED", pattern, anchorPosition(node.item), `an anchor in a group repeated more than ${MAX_ANCHORED_COPIES} times`);
  }
  const optional = unionKinds([item, plain(EMPTY)]);
  let out: Kinds = plain(EMPTY);
  for (let i = 0; i < node.min; i++) out = concat(out, item);
  if (node.max === Infinity) return concat(out, star(item));
  for (let i = node.min; i < node.max; i++) out = concat(out, optional);
  return out;
}

/** The node's matches by kind. */
export function anchorKinds(pattern: string, node: RegexNode): Kinds {
  switch (node.type) {
    case "set":
      return plain({ kind: "chars", ranges: node.ranges });
    case "anchor":
      return node.at === "start" ? [null, EMPTY, null, null] : [null, null, EMPTY, null];
    case "seq":
      return seqKinds(pattern, node.items);
    case "alt":
      return unionKinds(node.items.map((item) => anchorKinds(pattern, item)));
    case "repeat":
      return repeatKinds(pattern, node, anchorKinds(pattern, node.item));
    case "look":
      throw new PatternError(
        "PATTERN_UNSUPPORTED",
        pattern,
        node.position,
        `${node.ahead ? "look-ahead" : "look-behind"} assertion inside the pattern (only a look-ahead right after a leading '^', or a look-behind right before a trailing '$')`,
      );
  }
}

/** Where the first anchor inside `node` stands (one is there: its kinds have anchors). */
function anchorPosition(node: RegexNode): number {
  switch (node.type) {
    case "anchor":
      return node.position;
    case "seq":
    case "alt":
      return Math.min(...node.items.map(anchorPosition));
    case "repeat":
      return anchorPosition(node.item);
    default:
      return Infinity;
  }
}

/** Runs of items without anchors stay one flat sequence (a long pattern must not nest deeply). */
function seqKinds(pattern: string, items: readonly RegexNode[]): Kinds {
  let out: Kinds = plain(EMPTY);
  let run: Expr[] = [];
  const flush = (): void => {
    if (run.length > 0) out = concat(out, plain(run.length === 1 ? run[0]! : seq(...run)));
    run = [];
  };
  for (const item of items) {
    const kinds = anchorKinds(pattern, item);
    if (hasAnchors(kinds) || kinds[0] === null) {
      flush();
      out = concat(out, kinds);
    } else run.push(kinds[0]);
  }
  flush();
  return out;
}
