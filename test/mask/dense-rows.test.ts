import { describe, expect, it } from "vitest";
import { DenseRows } from "../../src/mask/dense-rows.js";

describe("DenseRows", () => {
  const filled = (width: number, value: number): Uint32Array => new Uint32Array(width).fill(value);

  it("keeps each row's words apart, and reuses a freed row instead of adding memory", () => {
    const rows = new DenseRows(3);
    const ids = [1, 2, 3, 4, 5].map((v) => rows.add(filled(3, v)));
    expect(new Set(ids).size).toBe(5);
    ids.forEach((row, i) => expect(Array.from(rows.view(row))).toEqual([i + 1, i + 1, i + 1]));
    const bytes = rows.byteLength;
    rows.release(ids[1]!);
    const again = rows.add(filled(3, 9));
    expect(again).toBe(ids[1]);
    expect(rows.byteLength).toBe(bytes);
    expect(Array.from(rows.view(again))).toEqual([9, 9, 9]);
    expect(Array.from(rows.view(ids[0]!))).toEqual([1, 1, 1]);
  });

  it("leaves the views of rows in use valid as it grows", () => {
    const rows = new DenseRows(2);
    const first = rows.add(filled(2, 7));
    const view = rows.view(first);
    for (let i = 0; i < 200; i++) rows.add(filled(2, i));
    expect(rows.view(first)).toBe(view);
    expect(Array.from(view)).toEqual([7, 7]);
  });
});
