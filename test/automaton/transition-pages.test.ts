import { describe, expect, it } from "vitest";
import { pageShiftFor, pagesOf, TransitionPages, UNKNOWN } from "../../src/automaton/transition-pages.js";

describe("TransitionPages", () => {
  it("keeps every entry across page boundaries and never copies a full page when it grows", () => {
    const numClasses = 121;
    const table = new TransitionPages(numClasses);
    const perPage = 1 << pageShiftFor(numClasses);
    const states = perPage * 5 + 3;
    const filled: Int32Array[] = [];
    for (let s = 0; s < states; s++) {
      table.ensureRows(s + 1);
      // Pages already full are the same objects after any growth.
      filled.forEach((page, p) => expect(table.pages[p]).toBe(page));
      if ((s + 1) % perPage === 0) filled.push(table.pages[s >> table.shift]!);
      for (let c = 0; c < numClasses; c += 7) table.set(s, c, (s * 31 + c) % 1000);
    }
    expect(table.capacity).toBeLessThan(states + perPage);
    const flat = table.flat(states);
    for (let s = 0; s < states; s++) {
      for (let c = 0; c < numClasses; c++) {
        const want = c % 7 === 0 ? (s * 31 + c) % 1000 : UNKNOWN;
        expect(table.get(s, c)).toBe(want);
        if (flat[s * numClasses + c] !== want) expect.fail(`flat[${s}, ${c}]`);
      }
    }
    // A flat table read back as pages indexes the same way.
    const pages = pagesOf(flat, numClasses);
    const low = perPage - 1;
    for (let s = 0; s < states; s += 13) expect(pages[s >> table.shift]![(s & low) * numClasses + 7]).toBe(table.get(s, 7));
  });
});
