import { describe, expect, it } from "vitest";
import { IntList } from "../../../src/automaton/fsa/int-list.js";
import { IntSetTable } from "../../../src/automaton/fsa/int-set-table.js";

const list = (items: readonly number[]): IntList => {
  const out = new IntList();
  for (const item of items) out.push(item);
  return out;
};

describe("IntSetTable", () => {
  it("finds each set added by its content, through growth, and nothing else", () => {
    const table = new IntSetTable();
    // Sets that differ in one item, in length, and by a prefix: past several doublings.
    const sets = Array.from({ length: 500 }, (_, i) => Array.from({ length: 1 + (i % 7) }, (_, k) => k * 1000 + i));
    sets.forEach((set, id) => {
      expect(table.find(list(set))).toBe(-1);
      table.add(list(set), id * 3);
    });
    sets.forEach((set, id) => expect(table.find(list(set))).toBe(id * 3));
    expect(table.find(list([...sets[10]!, 5]))).toBe(-1);
    expect(table.find(list(sets[10]!.slice(0, -1)))).toBe(-1);
    expect(table.find(list([]))).toBe(-1);
  });
});
