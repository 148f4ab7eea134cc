/**
 * `splitLargeRepeats`: counts over llama.cpp's limit become blocks of at most REPEAT_LIMIT, and
 * the language is unchanged (both automata agree on every length around the block edges).
 */
import { describe, expect, it } from "vitest";
import { acceptsText, buildAutomaton } from "../../src/automaton/index.js";
import { chars, lit, printGbnf, REPEAT_LIMIT, repeat, seq, splitLargeRepeats, type Expr, type Grammar } from "../../src/grammar/index.js";

const grammarOf = (e: Expr): Grammar => ({ start: "s", rules: new Map([["s", e]]) });

describe("splitLargeRepeats", () => {
  it.each([
    [0, 2345],
    [1500, 3100],
    [2001, Infinity],
    [REPEAT_LIMIT, REPEAT_LIMIT],
    [0, 2 * REPEAT_LIMIT],
  ])("x{%d,%d} keeps its language with counts <= REPEAT_LIMIT", (min, max) => {
    const original = grammarOf(seq(lit("<"), repeat(chars([0x61, 0x62]), min, max), lit(">")));
    const split = splitLargeRepeats(original);
    const counts = [...printGbnf(split).matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap((m) => [Number(m[1]), Number(m[2] || 0)]);
    expect(Math.max(...counts)).toBeLessThanOrEqual(REPEAT_LIMIT);
    const a = buildAutomaton(original);
    const b = buildAutomaton(split);
    const edges = [0, 1, REPEAT_LIMIT - 1, REPEAT_LIMIT, REPEAT_LIMIT + 1, min - 1, min, min + 1, max - 1, max, max + 1, 2 * REPEAT_LIMIT, 2 * REPEAT_LIMIT + 1];
    for (const n of edges.filter((n) => n >= 0 && Number.isFinite(n))) {
      const text = `<${"ab".repeat(n).slice(0, n)}>`;
      expect(acceptsText(b, text), `length ${n}`).toBe(acceptsText(a, text));
    }
  });
});
