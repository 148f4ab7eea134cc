/**
 * Exact decimals (src/util/decimal.ts): a number stands for its shortest round-trip form, so
 * multipleOf is decided as JSON text means it, not by dividing doubles.
 */
import { describe, expect, it } from "vitest";
import { exactDecimal, isDecimalMultiple } from "../../src/util/index.js";

describe("exact decimals", () => {
  it("reads the shortest round-trip form, exponents included", () => {
    expect(exactDecimal(0.1)).toEqual({ negative: false, digits: 1n, scale: 1 });
    expect(exactDecimal(-2.5)).toEqual({ negative: true, digits: 25n, scale: 1 });
    expect(exactDecimal(1e-7)).toEqual({ negative: false, digits: 1n, scale: 7 });
    expect(exactDecimal(1.5e21)).toEqual({ negative: false, digits: 1500000000000000000000n, scale: 0 });
  });

  it("decides multiples where float division does not", () => {
    expect(0.07 / 0.01).not.toBe(7);
    expect(isDecimalMultiple(0.07, 0.01)).toBe(true);
    expect(isDecimalMultiple(-0.07, 0.01)).toBe(true);
    expect(isDecimalMultiple(0.071, 0.01)).toBe(false);
    expect(isDecimalMultiple(4.5, 1.5)).toBe(true);
    expect(isDecimalMultiple(5, 1.5)).toBe(false);
    expect(isDecimalMultiple(1e-7, 1e-8)).toBe(true);
    expect(isDecimalMultiple(1e-8, 1e-7)).toBe(false);
    expect(isDecimalMultiple(1e300, 0.01)).toBe(true);
    expect(isDecimalMultiple(0, 0.3)).toBe(true);
  });
});
