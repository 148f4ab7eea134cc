import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteLevelToBytes, bytesToByteLevel } from "../../src/tokens/index.js";

describe("byte-level alphabet", () => {
  it("maps the 256 bytes to 256 distinct single characters, printable ones to themselves", () => {
    const chars = Array.from({ length: 256 }, (_, b) => bytesToByteLevel(Uint8Array.of(b)));
    expect(new Set(chars).size).toBe(256);
    expect(chars.every((c) => c.length === 1)).toBe(true);
    expect(bytesToByteLevel(new TextEncoder().encode("A{"))).toBe("A{");
    expect(bytesToByteLevel(Uint8Array.of(0x20, 0x0a))).toBe("Ġ\u010a");
  });

  it("round-trips any byte string", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(byteLevelToBytes(bytesToByteLevel(bytes))).toEqual(bytes);
      }),
    );
  });

  it("rejects characters outside the alphabet", () => {
    expect(byteLevelToBytes("a b")).toBeUndefined(); // a raw space is not in the alphabet
    expect(byteLevelToBytes("中")).toBeUndefined();
  });
});
