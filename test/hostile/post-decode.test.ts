/**
 * Issue 15, item 1: the work after decoding (ajv validation, null escapes, grounding) is bounded.
 * At the largest schema the limits accept, each step stays far from a stall; grounding, which
 * also takes schemas that were never compiled (`groundFields` is public), stays linear in the
 * schema on the depth-40 chains. Before (main): grounding alone took 1.4 s at depth 20 and grew
 * x2 per level; grounding 100 fields that each occur ~1,900 times in a long text took 13.7 s.
 * Bounds here are generous hang guards; `npm run bench:post-decode` measures the medians.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compileGrammar } from "../../src/grammar-tier.js";
import { DEFAULT_MAX_TEXT_BYTES } from "../../src/index.js";
import { verifyOutput } from "../../src/extract/verify-output.js";
import { groundFields } from "../../src/ground/ground.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { withinBounds } from "./bounds.js";
import { allOfChain, anyOfChain, deepestAcceptedChain, wideObject } from "./schemas.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

describe("post-decode work at the limits", () => {
  it("the deepest anyOf chain maxSchemaExpansion accepts verifies a failing output quickly", async () => {
    const depth = deepestAcceptedChain((s) => void compileGrammar(s, vocab, { cache: false }));
    expect(depth).toBeGreaterThanOrEqual(8);
    expect(depth).toBeLessThan(16);
    const jsonSchema = anyOfChain(depth);
    verifyOutput({ raw: '{"v":"abc"}', text: "abc", jsonSchema }); // ajv compiles its validator once
    const { value } = await withinBounds({ ms: 1_000, rssMB: 200 }, () => verifyOutput({ raw: '{"v":null}', text: "abc", jsonSchema }));
    expect(value?.ok).toBe(false);
    expect(value?.fields.find((f) => f.pointer === "/v")?.status).toBe("invalid"); // a required field answered null
  });

  for (const [name, schema] of [["anyOf", anyOfChain(40)], ["allOf", allOfChain(40)]] as const) {
    it(`grounding against a depth-40 ${name} chain (never compiled) is linear`, async () => {
      for (const v of [null, "abc", 7]) {
        const { value } = await withinBounds({ ms: 1_000, rssMB: 100 }, () => groundFields({ v }, "abc", { schema }));
        expect(value).toHaveLength(1);
      }
    });
  }

  it("a value written 1,900 times in a long text: at most 32 spans, bounded time", async () => {
    const text = "客户王小明购买了3台笔记本电脑，型号为锐思Book Pro 14。".repeat(1_900);
    const value: Record<string, string> = {};
    for (let i = 0; i < 100; i++) value[`field_${i}`] = "笔记本电脑";
    const { value: fields } = await withinBounds({ ms: 3_000, rssMB: 300 }, () => groundFields(value, text, { schema: wideObject(100) }));
    for (const f of fields!) {
      expect(f.status).toBe("found");
      expect(f.spans).toHaveLength(32);
      expect(text.slice(f.best!.start, f.best!.end)).toBe("笔记本电脑");
    }
  });

  it("fuzzy matching over a document at maxTextBytes is bounded by maxFuzzyWork; skipped values say so", async () => {
    const line = "Order: one Ruisi Book Pro laptop computer for Li Lei, Zhongguancun Street 1, Beijing. ";
    const text = line.repeat(Math.floor(DEFAULT_MAX_TEXT_BYTES / line.length));
    const value: Record<string, string> = {};
    for (let i = 0; i < 100; i++) value[`field_${i}`] = "Ruisi Book laptop computer"; // a fuzzy match only: "Pro" left out
    const { value: fields } = await withinBounds({ ms: 3_000, rssMB: 300 }, () => groundFields(value, text, { schema: wideObject(100) }));
    const skipped = fields!.filter((f) => f.fuzzySkipped);
    expect(skipped.length).toBeGreaterThan(0);
    for (const f of skipped) expect(f.spans).toEqual([]);
    // With room for every value, none is skipped and the near matches are found.
    const all = groundFields(value, text.slice(0, 2_000), { schema: wideObject(100), maxFuzzyWork: 1e9 });
    expect(all.some((f) => f.fuzzySkipped)).toBe(false);
    expect(all.every((f) => f.status === "found" && f.best?.match === "fuzzy")).toBe(true);
  });
});
