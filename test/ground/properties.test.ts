import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWordChar } from "../../src/ground/fold.js";
import { groundFields, normalizeWithMap, prepareText, alignValue } from "../../src/ground/index.js";

// Characters that exercise every path: CJK and Chinese numerals, full-width forms, digits with
// separators, currency, date words, Latin words, whitespace, and astral characters.
const UNITS = [
  "张", "伟", "三", "十", "二", "两", "百", "零", "台", "年", "月", "日", "元", "，", "。",
  "Ａ", "１", "　", "a", "B", "o", "k", " ", "-", "/", ".", ",", "¥", "$", "+",
  "0", "1", "2", "3", "5", "8", "9", "March ", "15", "2026", "138", "😀", "㎏", "\n",
];
const textArb = fc.array(fc.constantFrom(...UNITS), { maxLength: 60 }).map((xs) => xs.join(""));

function checkSpans(text: string, value: string | number): void {
  for (const s of alignValue(value, prepareText(text), { datePolicy: { order: "any", lenient: true }, numberSuffixes: true, currency: "USD", fuzzy: true, fuzzyThreshold: 0.8, minFuzzyLength: 3 })) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeLessThanOrEqual(text.length);
    expect(s.start).toBeLessThan(s.end);
    expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(s.score).toBeGreaterThan(0);
    expect(s.score).toBeLessThanOrEqual(1);
  }
}

describe("grounding properties", () => {
  it("every span is a slice of the original text, for arbitrary values", () => {
    fc.assert(
      fc.property(textArb, textArb, (text, value) => checkSpans(text, value)),
      { numRuns: 400 },
    );
  });

  it("every span is a slice of the original text, for values derived from the text (normalized and fuzzy paths)", () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(), fc.boolean(), (text, a, b, upper) => {
        const s = Math.min(a, b) % (text.length + 1);
        const e = s + (Math.max(a, b) % (text.length - s + 1));
        const sub = text.slice(s, e);
        const value = (upper ? sub.toUpperCase() : sub.toLowerCase()).split("").join(" ");
        checkSpans(text, value);
        checkSpans(text, value.slice(1));
        const n = Number(sub.replace(/\D/g, "").slice(0, 8));
        checkSpans(text, n);
      }),
      { numRuns: 400 },
    );
  });

  it("any substring of the text, taken as a value, is found with an exact span", () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(), (text, a, b) => {
        const s0 = Math.min(a, b) % (text.length + 1);
        const e0 = s0 + (Math.max(a, b) % (text.length - s0 + 1));
        // The value as an extractor would give it: trimmed.
        const raw = text.slice(s0, e0);
        const value = raw.trim();
        const s = s0 + (raw.length - raw.trimStart().length);
        const e = s + value.length;
        // Word-boundary rule (align.ts): a value may not start or end inside a Latin word.
        fc.pre(value.length > 0);
        fc.pre(!(isWordChar(value[0]) && isWordChar(text[s - 1])) && !(isWordChar(value[value.length - 1]) && isWordChar(text[e])));
        const r = groundFields(value, text)[0]!;
        expect(r.status).toBe("found");
        expect(r.best?.match).toBe("exact");
        expect(r.best?.text).toBe(value);
      }),
      { numRuns: 400 },
    );
  });

  it("normalized offset maps stay inside the text and in order", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const n = normalizeWithMap(text);
        expect(n.starts.length).toBe(n.text.length);
        for (let i = 0; i < n.text.length; i++) {
          expect(n.starts[i]).toBeLessThan(n.ends[i]!);
          expect(n.ends[i]).toBeLessThanOrEqual(text.length);
          if (i > 0) expect(n.starts[i]).toBeGreaterThanOrEqual(n.starts[i - 1]!);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("every leaf of any JSON value is reported exactly once", () => {
    const countLeaves = (v: unknown): number => {
      if (Array.isArray(v)) return v.length === 0 ? 1 : v.reduce((k: number, x) => k + countLeaves(x), 0);
      if (v !== null && typeof v === "object") {
        const vals = Object.values(v);
        return vals.length === 0 ? 1 : vals.reduce((k: number, x) => k + countLeaves(x), 0);
      }
      return 1;
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), textArb, (value, text) => {
        const reports = groundFields(value, text);
        expect(reports).toHaveLength(countLeaves(value));
        expect(new Set(reports.map((r) => r.pointer)).size).toBe(reports.length);
        for (const r of reports) {
          expect(["found", "missing", "fabricated", "inferred", "invalid"]).toContain(r.status);
          if (r.status === "found") expect(r.best).toBe(r.spans[0]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
