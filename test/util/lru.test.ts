import { describe, expect, it } from "vitest";
import { LruCache } from "../../src/util/lru.js";

describe("LruCache", () => {
  it("never holds more than its capacity, and evicts the least recently used first", () => {
    const cache = new LruCache<number, string>(8);
    for (let i = 0; i < 8; i++) cache.set(i, `v${i}`);
    // Use 0..3 again: 4..7 are now the least recently used.
    for (let i = 0; i < 4; i++) expect(cache.get(i)).toBe(`v${i}`);
    cache.set(8, "v8");
    expect(cache.size).toBeLessThanOrEqual(8);
    for (let i = 0; i < 4; i++) expect(cache.get(i), `recently used ${i}`).toBe(`v${i}`);
    expect(cache.get(8)).toBe("v8");
    expect(cache.get(4)).toBeUndefined();
    for (let i = 100; i < 1000; i++) {
      cache.set(i, `v${i}`);
      expect(cache.size).toBeLessThanOrEqual(8);
    }
    expect(cache.get(999)).toBe("v999");
  });

  it("overwrites, counts and clears", () => {
    const cache = new LruCache<string, number>(4);
    cache.set("a", 1);
    cache.set("a", 2);
    expect(cache.get("a")).toBe(2);
    expect(cache.size).toBe(1);
    expect(cache.get("b")).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get("a")).toBeUndefined();
  });
});
