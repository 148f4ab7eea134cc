import { describe, expect, it } from "vitest";
import { evaluateGrounding, loadCases } from "../../fixtures/grounding/evaluate.js";

describe("grounding evaluation set", () => {
  const cases = loadCases();

  it("has 40+ Chinese and English texts with gold and perturbed values", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.id.startsWith("zh-")).length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((c) => c.id.startsWith("en-")).length).toBeGreaterThanOrEqual(20);
    for (const c of cases) {
      expect(Object.keys(c.gold).length).toBeGreaterThan(0);
      expect(Object.keys(c.perturbed).length).toBeGreaterThan(0);
    }
  });

  it("perturbed values really differ from gold values", () => {
    for (const c of cases) for (const [k, v] of Object.entries(c.perturbed)) expect(v, `${c.id} ${k}`).not.toEqual(c.gold[k]);
  });

  it("the fabricated flag reaches precision and recall >= 0.99", () => {
    const e = evaluateGrounding(cases);
    expect(e.precision).toBeGreaterThanOrEqual(0.99);
    expect(e.recall).toBeGreaterThanOrEqual(0.99);
  });
});

describe("grounding evaluation: the forms grounding options govern", () => {
  const forms = loadCases().filter((c) => c.id.includes("-forms-"));

  it("has Chinese and English cases of date orders, suffixes, percentages and currencies", () => {
    expect(forms.filter((c) => c.id.startsWith("zh-")).length).toBeGreaterThanOrEqual(5);
    expect(forms.filter((c) => c.id.startsWith("en-")).length).toBeGreaterThanOrEqual(5);
  });

  it("every gold value is found and every perturbed value flagged", () => {
    const e = evaluateGrounding(forms);
    expect(e.misses).toEqual([]);
    expect(e.truePositive).toBeGreaterThan(50);
  });
});
