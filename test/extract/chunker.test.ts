/**
 * The long-document chunker: chunks are pieces of the text at their offsets, no longer than the
 * size, cut at paragraph and sentence ends in Chinese and English, never inside a word or a number,
 * and each one after the first starts inside the previous one's overlap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitIntoChunks } from "../../src/extract/long-document/index.js";

const WORDISH = /[A-Za-z0-9]/;

function checkChunks(text: string, size: number, overlap: number): void {
  const chunks = splitIntoChunks(text, size, overlap);
  let covered = 0;
  for (const [i, c] of chunks.entries()) {
    expect(text.slice(c.start, c.start + c.text.length)).toBe(c.text);
    expect(c.text.length).toBeLessThanOrEqual(size);
    if (c.start > covered) expect(text.slice(covered, c.start).trim()).toBe("");
    if (i > 0) expect(c.start).toBeGreaterThan(chunks[i - 1]!.start);
    covered = Math.max(covered, c.start + c.text.length);
  }
  expect(text.slice(covered).trim()).toBe("");
}

describe("splitIntoChunks", () => {
  it("cuts English at paragraph, then sentence ends, and overlaps by whole sentences", () => {
    const para = "First sentence here. Second one follows! Third asks why? ";
    const text = `${para.repeat(3)}\n\n${para.repeat(3)}`;
    const chunks = splitIntoChunks(text, 200, 60);
    expect(chunks[0]!.text.endsWith("\n\n")).toBe(true);
    for (const c of chunks.slice(1)) expect(c.text).toMatch(/^(First|Second|Third)/);
    checkChunks(text, 200, 60);
  });

  it("cuts Chinese after 。！？；and never inside a number or a word", () => {
    const text = "张伟于2024年3月5日支付了12,345.67元。会议继续进行！大家有问题吗？下一项；".repeat(20);
    const chunks = splitIntoChunks(text, 100, 30);
    for (const c of chunks.slice(0, -1)) expect("。！？；").toContain(c.text.at(-1));
    const english = "a".repeat(5) + " " + "supercalifragilistic 1,234,567.89 ".repeat(30);
    for (const c of splitIntoChunks(english, 100, 20)) {
      const end = c.start + c.text.length;
      expect(WORDISH.test(english[end - 1] ?? "") && WORDISH.test(english[end] ?? "")).toBe(false);
      expect(c.text).not.toMatch(/^[,.]\d/);
    }
  });

  it("never splits a surrogate pair, even inside an over-long run", () => {
    const text = "😀".repeat(300);
    for (const c of splitIntoChunks(text, 101, 10)) {
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c.text)).toBe(false);
    }
  });

  it("covers any text: pieces at their offsets, within the size, in order", () => {
    const piece = fc.constantFrom("Hello", " ", "world", ".", "。", "\n", "\n\n", "中文", "1,234", "!", "？", "😀", "x");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 20, max: 120 }), fc.integer({ min: 0, max: 9 }), (parts, size, overlap) => {
        checkChunks(parts.join(""), size, overlap);
      }),
      { numRuns: 200 },
    );
  });
});
