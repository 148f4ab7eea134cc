import { describe, expect, it } from "vitest";
import { IntList, IntSlices } from "../../../src/automaton/fsa/index.js";
import { mulberry32 } from "../../../src/engines/testing/prng.js";

const read = (slices: IntSlices, id: number): number[] => Array.from(slices.page(id).subarray(slices.start(id), slices.end(id)));

describe("IntSlices", () => {
  it("gives back every slice as added, across pages, with empty slices and slices larger than a page", () => {
    const random = mulberry32(11);
    const slices = new IntSlices();
    const added: number[][] = [];
    const list = new IntList();
    // Sizes from empty to past the largest page (2^14), most of them small, as closures are.
    const sizes = [0, 1, 3, 300, 20_000, 0, 7, ...Array.from({ length: 3000 }, () => Math.floor(random() ** 4 * 600))];
    for (const size of sizes) {
      list.clear();
      const values = Array.from({ length: size }, () => Math.floor(random() * 1e6) - 5);
      for (const v of values) list.push(v);
      expect(slices.add(list)).toBe(added.length);
      added.push(values);
      // The list is only read: reusing it for the next slice changes nothing kept.
    }
    expect(slices.length).toBe(added.length);
    added.forEach((values, id) => {
      if (read(slices, id).join() !== values.join()) expect.fail(`slice ${id} differs`);
    });
    expect(slices.memoryBytes()).toBeGreaterThanOrEqual(added.reduce((n, v) => n + v.length * 4, 0));
  });

  it("never moves a slice once added (pages are not copied when more are added)", () => {
    const slices = new IntSlices();
    const list = new IntList();
    list.push(42);
    slices.add(list);
    const first = slices.page(0);
    for (let i = 0; i < 10_000; i++) slices.add(list);
    expect(slices.page(0)).toBe(first);
    expect(read(slices, 0)).toEqual([42]);
    expect(read(slices, 10_000)).toEqual([42]);
  });
});
