/**
 * A sufficient test that no string matches two `patternProperties` patterns: both anchored at
 * the start (`^...`), and at some position their fixed leading characters admit no common
 * character (`^fritzbox` and `^influx`, `^/` and `^[^/]`); or the same at the end (`...$`).
 * "Fixed leading characters" are the character sets of the first positions every match must
 * have, read from the parsed regex up to the first item of variable length (an alternation of
 * equally long branches is one set per position). Undecided pairs are not disjoint.
 */

import { parseRegex, type RegexNode } from "../regex/index.js";

type CharSet = readonly (readonly [number, number])[];
type End = "start" | "end";

/** Positions read at most (enough to tell named keys apart, bounded work). */
const MAX_POSITIONS = 64;

interface Edge {
  readonly sets: CharSet[];
  /** The items read cover the whole match (nothing of variable length was cut off). */
  readonly complete: boolean;
}

const inOrder = (items: readonly RegexNode[], end: End): readonly RegexNode[] => (end === "start" ? items : [...items].reverse());

/** The fixed character sets at `end` of every match of `items` (read from that end). */
function edgeOf(items: readonly RegexNode[], end: End): Edge {
  const sets: CharSet[] = [];
  for (const item of inOrder(items, end)) {
    if (sets.length >= MAX_POSITIONS) return { sets, complete: false };
    const part = edgeOfItem(item, end);
    sets.push(...part.sets);
    if (!part.complete) return { sets, complete: false };
  }
  return { sets, complete: true };
}

function edgeOfItem(item: RegexNode, end: End): Edge {
  switch (item.type) {
    case "set":
      return { sets: [item.ranges], complete: true };
    case "seq":
      return edgeOf(item.items, end);
    case "repeat": {
      if (item.min === 0) return { sets: [], complete: false };
      const copies = Math.min(item.min, MAX_POSITIONS);
      const edge = edgeOf(new Array<RegexNode>(copies).fill(item.item), end);
      return { sets: edge.sets, complete: edge.complete && item.max === item.min && copies === item.min };
    }
    case "alt": {
      const branches = item.items.map((b) => edgeOfItem(b, end));
      const length = Math.min(...branches.map((b) => b.sets.length));
      const sets = Array.from({ length }, (_, i) => branches.flatMap((b) => b.sets[i]!));
      return { sets, complete: branches.every((b) => b.complete && b.sets.length === length) };
    }
    case "anchor":
      return { sets: [], complete: false };
    case "look":
      // Zero-width: it only narrows the matches, so the sets read past it still hold.
      return { sets: [], complete: true };
  }
}

/** The leading (or trailing) sets of every match when the pattern is anchored at that end. */
function anchoredEdge(pattern: string, end: End): CharSet[] | undefined {
  const node = parseRegex(pattern);
  const items = inOrder(node.type === "seq" ? node.items : [node], end);
  const first = items[0];
  if (first?.type !== "anchor" || first.at !== end) return undefined;
  return edgeOf(inOrder(items.slice(1), end), end).sets;
}

function overlaps(a: CharSet, b: CharSet): boolean {
  return a.some(([lo, hi]) => b.some(([l, h]) => lo <= h && l <= hi));
}

function edgesDisjoint(a: CharSet[] | undefined, b: CharSet[] | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!overlaps(a[i]!, b[i]!)) return true;
  return false;
}

/** True when no string matches both patterns (as far as their anchored edges tell). Both must have passed checkPattern. */
export function patternsDisjoint(a: string, b: string): boolean {
  return (["start", "end"] as const).some((end) => edgesDisjoint(anchoredEdge(a, end), anchoredEdge(b, end)));
}
