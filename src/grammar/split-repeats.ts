/**
 * Rewrites repeat counts that llama.cpp's GBNF parser refuses (it rejects `x{m,n}` once the
 * expansion passes its "sane defaults", about 2,000 copies) into the same language with small
 * counts: blocks of `x{LIMIT}` as helper rules, then the remainder. Every rewrite is exact and
 * unambiguous (a length has one decomposition), so llama.cpp keeps one parse stack per position.
 */
import type { Expr, Grammar } from "./ir.js";
import { alt, ref, repeat, seq } from "./ir.js";

/** Largest count a printed repeat keeps; larger ones are split into blocks of this many. */
export const REPEAT_LIMIT = 1000;

export function splitLargeRepeats(grammar: Grammar): Grammar {
  const rules = new Map(grammar.rules);
  const blocks = new Map<Expr, string>();
  let next = 0;
  const blockOf = (item: Expr): Expr => {
    let name = blocks.get(item);
    if (name === undefined) {
      do name = `repeat-block-${next++}`;
      while (rules.has(name));
      blocks.set(item, name);
      rules.set(name, repeat(item, REPEAT_LIMIT, REPEAT_LIMIT));
    }
    return ref(name);
  };
  /** `item` exactly `k` times. */
  const exactly = (item: Expr, k: number): Expr =>
    k <= REPEAT_LIMIT ? repeat(item, k, k) : seq(exactly(blockOf(item), Math.floor(k / REPEAT_LIMIT)), repeat(item, k % REPEAT_LIMIT, k % REPEAT_LIMIT));
  /** `item` 0 to `k` times: q full blocks then at most k mod LIMIT, or fewer blocks then any remainder. */
  const upTo = (item: Expr, k: number): Expr => {
    if (k <= REPEAT_LIMIT) return repeat(item, 0, k);
    const q = Math.floor(k / REPEAT_LIMIT);
    const block = blockOf(item);
    return alt(seq(upTo(block, q - 1), repeat(item, 0, REPEAT_LIMIT - 1)), seq(exactly(block, q), repeat(item, 0, k % REPEAT_LIMIT)));
  };
  const rewrite = (e: Expr): Expr => {
    switch (e.kind) {
      case "seq":
      case "alt":
        return { kind: e.kind, items: e.items.map(rewrite) };
      case "repeat": {
        const item = rewrite(e.item);
        const { min, max } = e;
        if (min <= REPEAT_LIMIT && max <= REPEAT_LIMIT) return repeat(item, min, max);
        if (max === Infinity) return min <= REPEAT_LIMIT ? repeat(item, min, max) : seq(exactly(item, min), repeat(item, 0, Infinity));
        return min === 0 ? upTo(item, max) : seq(exactly(item, min), upTo(item, max - min));
      }
      default:
        return e;
    }
  };
  for (const [name, body] of grammar.rules) rules.set(name, rewrite(body));
  return { start: grammar.start, rules };
}
