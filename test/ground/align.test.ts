import { describe, expect, it } from "vitest";
import { alignValue, prepareText, type AlignOptions, type Span } from "../../src/ground/index.js";

const opts: AlignOptions = { datePolicy: { order: "dmy", lenient: false }, numberSuffixes: true, currency: false, fuzzy: true, fuzzyThreshold: 0.8, minFuzzyLength: 4 };
const align = (value: string | number, text: string, o: Partial<AlignOptions> = {}): Span[] => alignValue(value, prepareText(text), { ...opts, ...o });
const best = (value: string | number, text: string, o: Partial<AlignOptions> = {}): Pick<Span, "text" | "match"> | undefined => {
  const s = align(value, text, o)[0];
  return s && { text: s.text, match: s.match };
};

describe("alignValue: exact", () => {
  it("reports every occurrence, with offsets into the original text", () => {
    const text = "张伟和李娜，张伟付款";
    const spans = align("张伟", text);
    expect(spans.map((s) => [s.start, s.end, s.match, s.score])).toEqual([[0, 2, "exact", 1], [6, 8, "exact", 1]]);
  });

  it("does not match inside a Latin word or digit group", () => {
    expect(align("Li", "Lisa paid")).toEqual([]);
    expect(align("12", "in 2012")).toEqual([]);
    expect(best("Li", "Mr Li paid")).toEqual({ text: "Li", match: "exact" });
  });

  it("matches one- and two-character CJK values anywhere", () => {
    expect(best("伟", "张伟")).toEqual({ text: "伟", match: "exact" });
  });
});

describe("alignValue: normalized", () => {
  it.each([
    ["3台", "购买了三台电脑", "三台"],
    ["12箱", "订购了十二箱", "十二箱"],
    ["2件", "下单两件大衣", "两件"],
    ["105个", "一百零五个", "一百零五个"],
    ["ABC Corp", "ａｂｃ　ｃｏｒｐ", "ａｂｃ　ｃｏｒｐ"],
    ["锐思 Book Pro14", "型号为锐思Book Pro 14，", "锐思Book Pro 14"],
  ])("%s in %s", (value, text, span) => {
    expect(best(value, text)).toEqual({ text: span, match: "normalized" });
  });

  it.each([
    ["2026-03-15", "于2026年3月15日购买", "2026年3月15日"],
    ["2026-03-15", "于二〇二六年三月十五日", "二〇二六年三月十五日"],
    ["2026年3月15日", "date: 2026-03-15.", "2026-03-15"],
    ["2026-03-15", "on March 15, 2026", "March 15, 2026"],
    ["2026-03-15", "on 15/03/2026", "15/03/2026"],
  ])("date %s in %s", (value, text, span) => {
    expect(best(value, text)).toEqual({ text: span, match: "normalized" });
  });

  it("scores a date whose year the text omits lower than a full match", () => {
    const s = align("2026-03-15", "3月15日送达")[0]!;
    expect(s.text).toBe("3月15日");
    expect(s.score).toBeLessThan(0.9);
    expect(align("2026-03-16", "3月15日送达")).toEqual([]);
  });

  it("reads nn/nn/yyyy by dateOrder", () => {
    expect(align("2026-04-10", "due 04/10/2026")).toEqual([]);
    expect(best("2026-04-10", "due 04/10/2026", { datePolicy: { order: "mdy", lenient: false } })?.text).toBe("04/10/2026");
  });

  it.each([
    ["13812345678", "电话138-1234-5678。", "138-1234-5678"],
    ["+86 138 1234 5678", "电话 13812345678", "13812345678"],
    ["138-1234-5678", "tel +86 138 1234 5678", "+86 138 1234 5678"],
    ["13800138000", "联系电话：138 0013 8000", "138 0013 8000"],
    ["+86 10 6552 9988", "Tel +86-10-6552-9988", "+86-10-6552-9988"],
    ["555-123-4567", "call (555) 123-4567 today", "(555) 123-4567"],
    ["138-1234-5678", "电话138 1234 5678 0.5kg", "138 1234 5678"],
  ])("phone %s in %s", (value, text, span) => {
    expect(best(value, text)).toEqual({ text: span, match: "normalized" });
  });

  it("grounds decimals with 7+ digits, which are not phone numbers", () => {
    expect(best(0.4001254, "相关系数为0.4001254。")).toEqual({ text: "0.4001254", match: "exact" });
    expect(best("0.4001254", "相关系数为0.4001254。")).toEqual({ text: "0.4001254", match: "exact" });
    expect(best(1234567.89, "合计 1,234,567.89 元")).toEqual({ text: "1,234,567.89", match: "normalized" });
    expect(best(3.1415926, "π ≈ 3.1415926")).toEqual({ text: "3.1415926", match: "exact" });
    expect(best(0.5, "电话138 1234 5678 0.5kg")).toEqual({ text: "0.5", match: "exact" });
    expect(align(4001254, "相关系数为0.4001254。")).toEqual([]);
  });

  it.each([
    ["¥1,299.00", "单价1299元", "1299元"],
    ["1299", "单价¥1,299.00", "1,299.00"],
    ["1,299 元", "price ¥1299", "¥1299"],
    ["$349", "for 349 dollars", "349 dollars"],
  ])("amount %s in %s", (value, text, span) => {
    expect(best(value, text)).toEqual({ text: span, match: "normalized" });
  });

  it("matches numbers numerically against Arabic, Chinese and English numbers", () => {
    expect(best(3, "购买了三台")).toEqual({ text: "三", match: "normalized" });
    expect(best(1299, "¥1,299.00")).toEqual({ text: "1,299.00", match: "normalized" });
    expect(best(12, "twelve boxes")).toEqual({ text: "twelve", match: "normalized" });
    expect(best(30000, "预算3万元")).toEqual({ text: "3万", match: "normalized" });
    expect(best(42, "about 42 kg")).toEqual({ text: "42", match: "exact" });
  });

  it("never matches a number inside another number, a date, a phone number or a code", () => {
    expect(align(3, "in 2023")).toEqual([]);
    expect(align(15, "on 2026-03-15")).toEqual([]);
    expect(align(1234, "call 138-1234-5678")).toEqual([]);
    expect(align(4, "A4 paper")).toEqual([]);
    expect(align(1, "统一发货")).toEqual([]);
  });
});

describe("alignValue: fuzzy", () => {
  it("accepts a value that leaves out units of the text", () => {
    const s = align("北京星河文化传媒公司", "购买方：北京星河文化传媒有限公司。")[0]!;
    expect(s.match).toBe("fuzzy");
    expect(s.text).toBe("北京星河文化传媒有限公司");
    expect(s.score).toBeGreaterThanOrEqual(0.8);
  });

  it("accepts short filler words between matched words", () => {
    expect(best("Anderson and Wright LLP", "Payable to Anderson & Wright LLP.")).toEqual({ text: "Anderson & Wright LLP", match: "fuzzy" });
  });

  it("rejects replaced units, added content and changed digits", () => {
    expect(align("杭州云海科技有限公司", "杭州云帆科技有限公司")).toEqual([]);
    expect(align("Emily Parker", "Emily Carter")).toEqual([]);
    expect(align("Robert Cheng", "Robert Chen")).toEqual([]);
    expect(align("Cork warehouse", "the Dublin warehouse")).toEqual([]);
    expect(align("锐思Book Pro 16", "锐思Book Pro 14")).toEqual([]);
  });

  it("respects the threshold and can be switched off", () => {
    expect(align("北京文化公司", "北京星河文化传媒有限公司")).toEqual([]);
    expect(align("北京星河文化传媒公司", "北京星河文化传媒有限公司", { fuzzy: false })).toEqual([]);
    expect(align("北京星河文化传媒公司", "北京星河文化传媒有限公司", { fuzzyThreshold: 0.95 })).toEqual([]);
  });
});

describe("alignValue: numbers inside times", () => {
  it("do not support a quantity", () => {
    expect(align(3, "下午3点送达两盒")).toEqual([]);
    expect(align(9, "九点半开会")).toEqual([]);
    expect(best(2, "下午3点送达两盒")).toEqual({ text: "两", match: "normalized" });
  });
});
