/** The MaskBench serializer must print exactly what Python's json.dumps(..., ensure_ascii=False) prints. */
import { describe, expect, it } from "vitest";
import { COMPACT_SEPARATORS, parseJsonKeepingNumbers, pythonFloatRepr, pythonJsonDumps } from "../../bench/support/python-json.js";

const dumps = (text: string): string => pythonJsonDumps(parseJsonKeepingNumbers(text));

describe("pythonFloatRepr", () => {
  it.each([
    [1, "1.0"],
    [0.1, "0.1"],
    [1e-5, "1e-05"],
    [0.0001, "0.0001"],
    [1.5e-7, "1.5e-07"],
    [1e16, "1e+16"],
    [1234567890123456, "1234567890123456.0"],
    [-2.5, "-2.5"],
    [-0, "-0.0"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [Infinity, "Infinity"],
  ])("%s -> %s", (x, expected) => expect(pythonFloatRepr(x)).toBe(expected));
});

describe("pythonJsonDumps", () => {
  it("re-prints numbers the way Python does after json.loads", () => {
    expect(dumps("[1, 1.0, 1E5, 1e-5, -0, 12345678901234567890123, 2.50]")).toBe("[1, 1.0, 100000.0, 1e-05, 0, 12345678901234567890123, 2.5]");
  });

  it("uses Python's separators, keeps key order, and the last duplicate's value", () => {
    expect(dumps('{"b": 1, "a": {"x": []}, "b": {}}')).toBe('{"b": {}, "a": {"x": []}}');
    expect(pythonJsonDumps(parseJsonKeepingNumbers('{"a": [1, 2]}'), COMPACT_SEPARATORS)).toBe('{"a":[1,2]}');
  });

  it("escapes only quotes, backslashes and control characters; non-ASCII stays raw", () => {
    expect(dumps(String.raw`"a\"b\\c\n\u0001\u007f é \u4e2d \ud83d\ude00 \/"`)).toBe('"a\\"b\\\\c\\n\\u0001\u007f é 中 😀 /"');
  });

  it("accepts Python's NaN and Infinity literals", () => {
    expect(dumps("[NaN, Infinity, -Infinity]")).toBe("[NaN, Infinity, -Infinity]");
  });
});
