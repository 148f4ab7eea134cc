import { describe, expect, it } from "vitest";
import { IntList } from "../../../src/automaton/fsa/index.js";
import { mulberry32 } from "../../../src/engines/testing/prng.js";

describe("IntList", () => {
  it("sorts and drops repeats in place, short lists and long ones alike", () => {
    const random = mulberry32(7);
    for (const size of [0, 1, 2, 5, 16, 17, 40, 300]) {
      const list = new IntList();
      const values = Array.from({ length: size }, () => Math.floor(random() * (size / 2 + 1)) - 3);
      for (const v of values) list.push(v);
      list.sortUnique();
      expect(Array.from(list.view())).toEqual([...new Set(values)].sort((a, b) => a - b));
    }
  });

  it("keeps what it holds across growth, and clear empties it for reuse", () => {
    const list = new IntList();
    for (let i = 0; i < 100; i++) list.push(i * 3);
    expect(list.length).toBe(100);
    expect(list.at(99)).toBe(297);
    expect(list.pop()).toBe(297);
    const copy = list.copy();
    list.clear();
    list.push(5);
    expect(Array.from(list.view())).toEqual([5]);
    expect(copy.length).toBe(99);
    expect(copy[98]).toBe(294);
  });
});
