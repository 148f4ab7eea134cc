/**
 * Reference matcher for the grammar IR, over JS strings: an independent, slow, obviously-correct
 * oracle for differential tests against the byte automaton. Backtracking with continuations and
 * memoization on (node, position) for rules; jsonString content is checked with JS RegExp (`u`).
 * Recursion through rules is bounded by `maxDepth` like the automaton builder bounds it.
 */

import type { Expr, Grammar } from "../../../src/grammar/ir.js";

type Cont = (pos: number) => boolean;

/** Decodes the canonical JSON string token starting at `pos` (a `"`); returns its end or -1. */
function scanString(text: string, pos: number): { end: number; value: string } | undefined {
  if (text[pos] !== '"') return undefined;
  let i = pos + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  if (i >= text.length) return undefined;
  const raw = text.slice(pos, i + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  // Canonical form only: the text must be exactly what JSON.stringify writes.
  if (typeof value !== "string" || JSON.stringify(value) !== raw) return undefined;
  return { end: i + 1, value };
}

export function matches(grammar: Grammar, text: string, maxDepth = 64): boolean {
  const regexCache = new Map<string, RegExp>();
  const re = (p: string): RegExp => {
    let r = regexCache.get(p);
    if (!r) regexCache.set(p, (r = new RegExp(p, "u")));
    return r;
  };
  let steps = 0;
  const m = (e: Expr, pos: number, depth: number, k: Cont): boolean => {
    if (++steps > 5_000_000) throw new Error("reference matcher: step budget exceeded");
    switch (e.kind) {
      case "lit":
        return text.startsWith(e.text, pos) && k(pos + e.text.length);
      case "chars": {
        const cp = text.codePointAt(pos);
        if (cp === undefined) return false;
        return e.ranges.some(([lo, hi]) => cp >= lo && cp <= hi) && k(pos + (cp > 0xffff ? 2 : 1));
      }
      case "seq": {
        const go = (i: number, p: number): boolean => (i === e.items.length ? k(p) : m(e.items[i]!, p, depth, (q) => go(i + 1, q)));
        return go(0, pos);
      }
      case "alt":
        return e.items.some((it) => m(it, pos, depth, k));
      case "repeat": {
        const go = (count: number, p: number): boolean => {
          if (count < e.max && m(e.item, p, depth, (q) => q !== p && go(count + 1, q))) return true;
          return count >= e.min && k(p);
        };
        // An item that matches empty still counts toward min.
        const goMin = (count: number, p: number): boolean =>
          count >= e.min ? go(count, p) : m(e.item, p, depth, (q) => goMin(count + 1, q));
        return goMin(0, pos);
      }
      case "ref": {
        if (depth >= maxDepth) return false;
        const body = grammar.rules.get(e.name);
        if (body === undefined) throw new Error(`undefined rule ${e.name}`);
        return m(body, pos, depth + 1, k);
      }
      case "jsonString": {
        const s = scanString(text, pos);
        if (s === undefined) return false;
        const len = [...s.value].length;
        if (len < e.minLength || len > e.maxLength) return false;
        if (e.pattern !== undefined && !re(e.pattern).test(s.value)) return false;
        if (e.exclude?.includes(s.value)) return false;
        if (e.excludePatterns?.some((p) => re(p).test(s.value))) return false;
        return k(s.end);
      }
    }
  };
  const start = grammar.rules.get(grammar.start);
  if (start === undefined) throw new Error("no start rule");
  return m(start, 0, 0, (p) => p === text.length);
}
