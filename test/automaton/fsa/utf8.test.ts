import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton } from "../../../src/automaton/index.js";
import { utf8Sequences } from "../../../src/automaton/fsa/index.js";
import { chars, repeat } from "../../../src/grammar/ir.js";
import { accepts, grammar } from "../helpers.js";

const strictDecoder = new TextDecoder("utf-8", { fatal: true });
const isStrictUtf8 = (bytes: Uint8Array): boolean => {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe("utf8Sequences", () => {
  it("covers exactly the encodings of the range (random ranges, random probes)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x10ffff }), fc.integer({ min: 0, max: 0x10ffff }), fc.integer({ min: 0, max: 0x10ffff }), (a, b, probe) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const seqs = utf8Sequences(lo, hi);
        if (probe >= 0xd800 && probe <= 0xdfff) return;
        const bytes = Array.from(new TextEncoder().encode(String.fromCodePoint(probe)));
        const matching = seqs.filter((seq) => seq.length === bytes.length && seq.every(([l, h], i) => bytes[i]! >= l && bytes[i]! <= h));
        expect(matching.length).toBe(probe >= lo && probe <= hi ? 1 : 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("UTF-8 strictness of built automata", () => {
  const anyText = buildAutomaton(grammar(repeat(chars([0, 0x10ffff]), 0, Infinity)));

  it("accepts every scalar value", () => {
    for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x1000 ? 1 : 97) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      expect(accepts(anyText, String.fromCodePoint(cp))).toBe(true);
    }
    expect(accepts(anyText, String.fromCodePoint(0x10ffff))).toBe(true);
  });

  it("rejects surrogates, overlongs, stray continuation bytes and values above U+10FFFF", () => {
    for (const bad of [[0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0x80], [0xff], [0xe4, 0xb8]]) {
      expect(accepts(anyText, bad)).toBe(false);
    }
  });

  it("agrees with a strict decoder on random byte strings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.array(fc.constantFrom(0x41, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xa0, 0x9f, 0x90, 0x8f), { maxLength: 12 }), (random, biased) => {
        for (const bytes of [random, Uint8Array.from(biased)]) expect(accepts(anyText, bytes)).toBe(isStrictUtf8(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});
