import { describe, expect, it } from "vitest";
import { groundFields, type GroundOptions } from "../../src/ground/index.js";
import { OptionError } from "../../src/errors.js";

/** Status and best span of one value grounded in `text`. */
function ground(value: unknown, text: string, options: GroundOptions = {}): { status: string; span?: string } {
  const r = groundFields({ v: value }, text, options)[0]!;
  return { status: r.status, span: r.best?.text };
}

describe("date order", () => {
  it("auto reads a date with one valid reading as written (03/15/2026 is March 15)", () => {
    expect(ground("2026-03-15", "Payment due 03/15/2026.")).toEqual({ status: "found", span: "03/15/2026" });
    expect(ground("2026-03-15", "Payment due 03/15/2026.", { dateOrder: "dmy" }).status).toBe("fabricated");
    expect(ground("2026-03-15", "Payment due 03/15/2026.", { dateOrder: "mdy" }).status).toBe("found");
  });

  it("auto reads ambiguous dates by the language: English month first", () => {
    expect(ground("2026-04-10", "Please deliver by 04/10/2026.").status).toBe("found");
    expect(ground("2026-10-04", "Please deliver by 04/10/2026.").status).toBe("fabricated");
    expect(ground("2026-10-04", "Please deliver by 04/10/2026.", { dateOrder: "dmy" }).status).toBe("found");
  });

  it("auto follows the order the text's unambiguous dates show", () => {
    const text = "Ordered 15/03/2026, deliver by 04/10/2026.";
    expect(ground("2026-10-04", text)).toEqual({ status: "found", span: "04/10/2026" });
    expect(ground("2026-04-10", text).status).toBe("fabricated");
  });

  it("two-digit years: Chinese texts read year first under auto, ymd/dmy/mdy as asked", () => {
    const zh = "合同于26/03/15签订。";
    expect(ground("2026-03-15", zh)).toEqual({ status: "found", span: "26/03/15" });
    expect(ground("2015-03-26", zh).status).toBe("fabricated");
    expect(ground("2015-03-26", zh, { dateOrder: "dmy" }).status).toBe("found");
    expect(ground("2026-03-15", "signed 03/15/26", { dateOrder: "mdy" }).status).toBe("found");
    expect(ground("2026-03-15", zh, { language: "en" }).status).toBe("fabricated");
  });

  it("an ambiguous value written by the model may be meant either way; the text decides", () => {
    expect(ground("12/08/2026", "departs 2026-08-12 at 11:05").status).toBe("found");
    expect(ground("13/08/2026", "departs 2026-08-12 at 11:05").status).toBe("fabricated");
  });
});

describe("number suffixes and percentages", () => {
  it.each([
    [1500000, "Series A: $1.5M raised.", "1.5M"],
    ["$1.5M", "Series A: $1.5M raised.", "$1.5M"],
    [2300, "about 2.3k downloads", "2.3k"],
    [1500000, "a budget of 1.5 million euros", "1.5 million"],
    [3000000000, "revenue hit 3B last year", "3B"],
    [320000000, "融资3.2亿元", "3.2亿"],
    [30000, "月薪3万", "3万"],
  ])("%s is supported by %s", (value, text, span) => {
    expect(ground(value, text, { currency: false })).toEqual({ status: "found", span });
  });

  it("keeps the plain reading and can turn suffixes off", () => {
    expect(ground(1.5, "Series A: $1.5M raised.").status).toBe("found");
    expect(ground(1500000, "Series A: $1.5M raised.", { numberSuffixes: false }).status).toBe("fabricated");
    expect(ground(15000000, "Series A: $1.5M raised.").status).toBe("fabricated");
  });

  it("the word million inside 1.5 million is not a number of its own", () => {
    expect(ground(1000000, "a budget of 1.5 million euros").status).toBe("fabricated");
    expect(ground(1000000, "a budget of one million euros").status).toBe("found");
  });

  it("percentages support the percent value and the fraction, and only percentages support a percent value", () => {
    expect(ground("15%", "discount of 15% on all items")).toEqual({ status: "found", span: "15%" });
    expect(ground(0.15, "discount of 15% on all items")).toEqual({ status: "found", span: "15%" });
    expect(ground(15, "discount of 15% on all items").status).toBe("found");
    expect(ground("15%", "15 items on the list").status).toBe("fabricated");
    expect(ground(0.15, "15 items on the list").status).toBe("fabricated");
    expect(ground("12.5%", "rates rose 12.5 percent").status).toBe("found");
    expect(ground("15%", "优惠幅度为百分之十五。")).toEqual({ status: "found", span: "百分之十五" });
    expect(ground(0.2, "税率百分之20")).toEqual({ status: "found", span: "百分之20" });
  });
});

describe("currency", () => {
  it("an amount with a mark is found only where the text's amount can be in that currency", () => {
    expect(ground("$99.99", "unit price €99.99").status).toBe("fabricated");
    expect(ground("€99.99", "unit price €99.99")).toEqual({ status: "found", span: "€99.99" });
    expect(ground("USD 99.99", "unit price US$99.99").status).toBe("found");
    expect(ground("HK$99.99", "unit price US$99.99").status).toBe("fabricated");
    expect(ground("368元", "每盒 ¥ 368")).toEqual({ status: "found", span: "¥ 368" });
    expect(ground("100美元", "售价100元").status).toBe("fabricated");
    expect(ground(99.99, "unit price €99.99").status).toBe("found");
  });

  it("bare amounts take the language's currency, or the one given; false compares none", () => {
    expect(ground("1299元", "单价 1299，包邮").status).toBe("found");
    expect(ground("$1299", "单价 1299，包邮").status).toBe("fabricated");
    expect(ground("$1299", "单价 1299，包邮", { currency: "USD" }).status).toBe("found");
    expect(ground("€40", "the fee is 40 per seat").status).toBe("fabricated");
    expect(ground("€40", "the fee is 40 per seat", { currency: "EUR" }).status).toBe("found");
    expect(ground("$99.99", "unit price €99.99", { currency: false }).status).toBe("found");
  });

  it("a currency value is found on the mark of an amount in that currency", () => {
    expect(ground("USD", "Freight cost US$7,250.")).toEqual({ status: "found", span: "US$" });
    expect(ground("EUR", "unit price EUR 0.35")).toEqual({ status: "found", span: "EUR" });
    expect(ground("美元", "合计 300 美元")).toEqual({ status: "found", span: "美元" });
    expect(ground("GBP", "Freight cost US$7,250.").status).toBe("fabricated");
  });
});

describe("option checks", () => {
  it.each([
    [{ dateOrder: "yyyy" }, "dateOrder"],
    [{ language: "fr" }, "language"],
    [{ numberSuffixes: "yes" }, "numberSuffixes"],
    [{ currency: "dollars" }, "currency"],
  ])("%o is an OptionError naming %s", (options, option) => {
    const run = (): unknown => groundFields({ v: 1 }, "1", options as GroundOptions);
    expect(run).toThrow(OptionError);
    expect(run).toThrow(option);
  });
});
