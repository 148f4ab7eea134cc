import { describe, expect, it } from "vitest";
import { parseChineseNumeral } from "../../src/ground/chinese-numerals.js";
import { findDates, parseDateValue } from "../../src/ground/dates.js";
import { parseEnglishNumber } from "../../src/ground/english-numerals.js";
import { foldWidth } from "../../src/ground/fold.js";
import { normalizeValue, normalizeWithMap } from "../../src/ground/normalize.js";
import { findNumbers, parseNumberValue } from "../../src/ground/numbers.js";
import { canonicalPhone, findPhones, parsePhoneValue } from "../../src/ground/phones.js";
import { findTimes } from "../../src/ground/times.js";

describe("Chinese numerals", () => {
  it.each([
    ["三", 3], ["两", 2], ["十", 10], ["十二", 12], ["二十", 20], ["一百零五", 105], ["两千三百", 2300],
    ["三万五千", 35000], ["一亿二千万", 120000000], ["壹仟贰佰", 1200], ["二〇二六", 2026], ["一二三", 123],
  ])("%s = %d", (run, value) => {
    expect(parseChineseNumeral(run)?.value).toBe(value);
  });

  it("keeps leading zeros of digit-by-digit runs as digits", () => {
    expect(parseChineseNumeral("〇五")?.digits).toBe("05");
  });

  it("does not read unit-only runs as numbers (万达, 百度)", () => {
    expect(parseChineseNumeral("万")).toBeUndefined();
    expect(parseChineseNumeral("百")).toBeUndefined();
    expect(parseChineseNumeral("三a")).toBeUndefined();
  });
});

describe("English number words", () => {
  it.each([["twelve", 12], ["twenty-five", 25], ["one hundred and five", 105], ["two thousand three hundred", 2300], ["a dozen", 12]])(
    "%s = %d",
    (phrase, value) => expect(parseEnglishNumber(phrase)).toBe(value),
  );
  it("rejects other words", () => expect(parseEnglishNumber("twelve apples")).toBeUndefined());
});

describe("normalizeWithMap", () => {
  it("folds case and width and drops whitespace and punctuation", () => {
    expect(normalizeValue("ＡＢＣ Def，Ｇ-h")).toBe("abcdefgh");
    expect(normalizeValue("锐思 Book Pro 14")).toBe(normalizeValue("锐思Book Pro14"));
  });

  it("rewrites Chinese numerals as digits, each digit mapped to the whole run", () => {
    const n = normalizeWithMap("买了十二台");
    expect(n.text).toBe("买了12台");
    expect([n.starts[2], n.ends[2]]).toEqual([2, 4]);
    expect([n.starts[3], n.ends[3]]).toEqual([2, 4]);
    expect([n.starts[4], n.ends[4]]).toEqual([4, 5]);
  });

  it("converts separated numerals as separate runs (一、二: 二 maps to itself, not to 一、二)", () => {
    const n = normalizeWithMap("一、二");
    expect(n.text).toBe("12");
    expect([n.starts[1], n.ends[1]]).toEqual([2, 3]);
  });

  it("maps NFKC expansions and surrogate pairs back to their source", () => {
    const text = "5㎏ 😀x";
    const n = normalizeWithMap(text);
    expect(n.text).toBe("5kg😀x");
    expect(text.slice(n.starts[1], n.ends[2])).toBe("㎏");
    expect(text.slice(n.starts[3], n.ends[4])).toBe("😀");
  });
});

describe("foldWidth", () => {
  it("folds full-width ASCII one unit for one", () => {
    const s = "电话：１３８－１２３４";
    expect(foldWidth(s)).toBe("电话:138-1234");
    expect(foldWidth(s).length).toBe(s.length);
  });
});

describe("dates", () => {
  it.each([
    ["2026年3月15日", { year: 2026, month: 3, day: 15 }],
    ["二〇二六年三月十五日", { year: 2026, month: 3, day: 15 }],
    ["3月15日", { year: undefined, month: 3, day: 15 }],
    ["2026-03-15", { year: 2026, month: 3, day: 15 }],
    ["2026/3/15", { year: 2026, month: 3, day: 15 }],
    ["March 15, 2026", { year: 2026, month: 3, day: 15 }],
    ["15 March 2026", { year: 2026, month: 3, day: 15 }],
    ["Mar. 15", { year: undefined, month: 3, day: 15 }],
    ["2026-03-15T10:30:00Z", { year: 2026, month: 3, day: 15 }],
  ])("reads %s", (value, parts) => {
    expect(parseDateValue(value, { order: "dmy", lenient: false })).toEqual(parts);
  });

  it("reads nn/nn/yyyy by the date order option", () => {
    expect(parseDateValue("04/10/2026", { order: "dmy", lenient: false })).toEqual({ year: 2026, month: 10, day: 4 });
    expect(parseDateValue("04/10/2026", { order: "mdy", lenient: false })).toEqual({ year: 2026, month: 4, day: 10 });
  });

  it("rejects impossible dates and partial values", () => {
    expect(parseDateValue("2026-13-01", { order: "dmy", lenient: false })).toBeUndefined();
    expect(parseDateValue("on 2026-03-01", { order: "dmy", lenient: false })).toBeUndefined();
  });

  it("finds one date per written date (2026年3月15日 is not also 3月15日)", () => {
    const ds = findDates("于2026年3月15日和4月1日");
    expect(ds.map((d) => [d.start, d.end])).toEqual([[1, 11], [12, 16]]);
  });
});

describe("phones", () => {
  it("canonicalizes separators and the +86 prefix", () => {
    expect(parsePhoneValue("+86 138-1234-5678")).toBe("13812345678");
    expect(parsePhoneValue("0086 13812345678")).toBe("13812345678");
    expect(parsePhoneValue("(021) 6543 2100")).toBe("02165432100");
    expect(canonicalPhone("8613812345678")).toBe("13812345678");
    expect(parsePhoneValue("12345")).toBeUndefined();
    expect(parsePhoneValue("call 12345678")).toBeUndefined();
  });

  it("finds phone numbers but not dates", () => {
    const text = "2026-03-15 电话 138 1234 5678";
    const dates = findDates(text);
    expect(findPhones(text, dates).map((p) => [text.slice(p.start, p.end), p.digits])).toEqual([["138 1234 5678", "13812345678"]]);
  });

  const phonesIn = (text: string): [string, string][] => findPhones(text, []).map((p) => [text.slice(p.start, p.end), p.digits]);

  it("never reads a decimal number (a dot between digit runs) as a phone number", () => {
    for (const text of ["相关系数为0.4001254。", "total 1234567.89 USD", "π ≈ 3.14159265358", "ratio 12.3456789:1", "0.1234567 and 7654321.0"]) {
      expect(phonesIn(text), text).toEqual([]);
    }
  });

  it("finds spaced, dashed, bracketed and +country phone numbers, also next to a decimal", () => {
    expect(phonesIn("电话 138 0013 8000")).toEqual([["138 0013 8000", "13800138000"]]);
    expect(phonesIn("Tel: +86-10-6552-9988.")).toEqual([["+86-10-6552-9988", "1065529988"]]);
    expect(phonesIn("call (555) 123-4567 today")).toEqual([["(555) 123-4567", "5551234567"]]);
    expect(phonesIn("电话138 1234 5678 0.5kg")).toEqual([["138 1234 5678", "13812345678"]]);
    expect(phonesIn("净重0.5 138-1234-5678")).toEqual([["138-1234-5678", "13812345678"]]);
    expect(phonesIn("限重2.5 (555) 123-4567")).toEqual([["(555) 123-4567", "5551234567"]]);
  });
});

describe("numbers and amounts", () => {
  it.each([
    ["¥1,299.00", 1299, true], ["1299", 1299, false], ["1,299 元", 1299, true], ["3万", 30000, false],
    ["一百零五", 105, false], ["twelve", 12, false], ["$ 19.75", 19.75, true],
  ])("reads value %s", (v, value, currency) => {
    const read = parseNumberValue(v);
    expect(read?.value).toBe(value);
    expect(read?.currencies !== undefined).toBe(currency);
  });

  it("does not read values with words as numbers", () => {
    expect(parseNumberValue("3台")).toBeUndefined();
    expect(parseNumberValue("A4")).toBeUndefined();
  });

  it("finds numbers with currency spans, skipping codes and lone 一 in words", () => {
    const text = "单价¥1,299.00，共三台，统一发货，A4纸 20 包";
    const nums = findNumbers(text, []);
    const seen = nums.map((n) => [n.value, text.slice(n.start, n.end), text.slice(n.outerStart, n.outerEnd)]);
    expect(seen).toContainEqual([1299, "1,299.00", "¥1,299.00"]);
    expect(seen).toContainEqual([3, "三", "三"]);
    expect(seen).toContainEqual([20, "20", "20"]);
    expect(seen.some(([v]) => v === 4)).toBe(false);
    expect(seen.some(([v]) => v === 1)).toBe(false);
  });
});

describe("times of day", () => {
  it("are found with their numbers, a bare 3点 is not a time", () => {
    const text = "下午3点到，九点半结束，15:00 or 6 pm; 3 boxes, 比分3点";
    const spans = findTimes(text).map((t) => text.slice(t.start, t.end));
    expect(spans).toEqual(expect.arrayContaining(["下午3点", "九点半", "15:00", "6 pm"]));
    expect(spans).not.toContain("3点");
  });
});
