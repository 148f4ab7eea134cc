/**
 * Length bounds (in code points) applied to a pattern's expression by rewriting it, for text
 * grammars that cannot intersect two languages: exact when the bounds already hold, or when only
 * one part of the expression varies in length and that part is a repeat of a fixed-length item
 * (`^[A-Z]{2}\d+$` under maxLength 200 becomes `[A-Z]{2} \d{1,198}`). Otherwise null: the caller
 * decides how to approximate.
 */
import { never, type Expr } from "../grammar/index.js";

/** Shortest and longest text of `e` (longest may be Infinity). */
export function lengthRange(e: Expr): readonly [number, number] {
  switch (e.kind) {
    case "lit":
      return [[...e.text].length, [...e.text].length];
    case "chars":
      return [1, 1];
    case "seq":
      return e.items.map(lengthRange).reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0] as readonly [number, number]);
    case "alt":
      return e.items.length === 0 ? [0, 0] : e.items.map(lengthRange).reduce(([a, b], [c, d]) => [Math.min(a, c), Math.max(b, d)]);
    case "repeat": {
      const [lo, hi] = lengthRange(e.item);
      return [lo * e.min, e.max === 0 || hi === 0 ? 0 : hi * e.max];
    }
    case "ref":
    case "jsonString":
      throw new Error(`lengthRange: a pattern expression has no ${e.kind}`);
  }
}

/** `e` restricted to texts of length in [min, max], or null when that is not a rewrite. */
export function boundLength(e: Expr, min: number, max: number): Expr | null {
  const [lo, hi] = lengthRange(e);
  if (lo >= min && hi <= max) return e;
  if (lo > max || hi < min) return never();
  switch (e.kind) {
    case "alt": {
      const items = e.items.map((i) => boundLength(i, min, max));
      return items.every((i): i is Expr => i !== null) ? { kind: "alt", items } : null;
    }
    case "seq": {
      const ranges = e.items.map(lengthRange);
      const varying = ranges.flatMap(([a, b], i) => (a === b ? [] : [i]));
      if (varying.length !== 1) return null;
      const v = varying[0]!;
      const fixed = ranges.reduce((n, [a], i) => (i === v ? n : n + a), 0);
      const bounded = boundLength(e.items[v]!, Math.max(0, min - fixed), max - fixed);
      return bounded && { kind: "seq", items: e.items.map((item, i) => (i === v ? bounded : item)) };
    }
    case "repeat": {
      const [a, b] = lengthRange(e.item);
      if (a !== b) return null;
      if (a === 0) return min === 0 ? e : never();
      const lowest = Math.max(e.min, Math.ceil(min / a));
      const highest = Math.min(e.max, Math.floor(max / a));
      return lowest > highest ? never() : { kind: "repeat", item: e.item, min: lowest, max: highest };
    }
    default:
      return null;
  }
}
