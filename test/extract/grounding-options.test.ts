/**
 * Grounding options through the public API: `createExtractor` defaults, per-call `extract`
 * options and their checks, with the scripted engine replaying a chosen output through the real
 * mask path (so the value is one the grammar admits, then grounded like any extraction).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, OptionError, type ExtractOptions, type ExtractorOptions } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const Deal = z.object({
  date: z.string().describe("closing date, YYYY-MM-DD"),
  amount: z.number().describe("amount raised"),
  amountText: z.string().describe("the amount as written"),
  currency: z.string().describe("ISO currency code"),
});
const TEXT = "The round closed on 03/04/2026: $1.5M from two funds.";
const OUTPUT = '{"date":"2026-03-04","amount":1500000,"amountText":"$1.5M","currency":"USD"}';

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

async function statuses(defaults: Omit<ExtractorOptions, "engine" | "model">, options?: ExtractOptions, text = TEXT): Promise<Record<string, string>> {
  const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: OUTPUT }), ...defaults });
  const r = await ex.extract(Deal, text, options);
  expect(r.raw).toBe(OUTPUT);
  return Object.fromEntries(r.fields.map((f) => [f.pointer, f.status]));
}

describe("grounding options through extract / createExtractor", () => {
  it("defaults by language: English text reads 03/04/2026 month first, $1.5M as 1500000 dollars", async () => {
    expect(await statuses({})).toEqual({ "/date": "found", "/amount": "found", "/amountText": "found", "/currency": "found" });
  });

  it("per-call options override the extractor's defaults", async () => {
    expect((await statuses({ grounding: { dateOrder: "dmy" } }))["/date"]).toBe("fabricated");
    expect((await statuses({ grounding: { dateOrder: "dmy" } }, { grounding: { dateOrder: "mdy" } }))["/date"]).toBe("found");
    expect(await statuses({ grounding: { dateOrder: "dmy" } }, { grounding: { numberSuffixes: false } })).toMatchObject({ "/date": "fabricated", "/amount": "fabricated" });
  });

  it("the extraction language sets the grounding language (and grounding.language wins)", async () => {
    // Chinese reads nn/nn/yyyy day first: 03/04/2026 is 3 April.
    expect((await statuses({ language: "zh" }))["/date"]).toBe("fabricated");
    expect((await statuses({ language: "zh", grounding: { language: "en" } }))["/date"]).toBe("found");
  });

  it("currency: a $ amount in a text of euros is fabricated", async () => {
    const euros = "The round closed on 03/04/2026: €1.5M from two funds.";
    const s = await statuses({}, undefined, euros);
    expect(s["/amountText"]).toBe("fabricated");
    expect(s["/currency"]).toBe("fabricated");
    expect(s["/amount"]).toBe("found");
    expect((await statuses({ grounding: { currency: false } }, undefined, euros))["/amountText"]).toBe("found");
  });

  it("bad grounding options are OptionErrors before any decoding", async () => {
    await expect(statuses({ grounding: { dateOrder: "ydm" as never } })).rejects.toThrow(OptionError);
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: OUTPUT }) });
    await expect(ex.extract(Deal, TEXT, { grounding: { currency: "usd" } })).rejects.toMatchObject({ code: "OPTION_INVALID", option: "currency" });
    await expect(ex.extract(Deal, TEXT, { grounding: "mdy" as never })).rejects.toMatchObject({ code: "OPTION_INVALID", option: "grounding" });
  });
});
