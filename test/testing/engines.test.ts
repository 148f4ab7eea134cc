import { beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../src/index.js";
import { RandomEngine, ScriptedEngine } from "../../src/testing/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { INVOICE_TEXT, Invoice } from "./schemas.js";

let vocabulary: Vocabulary;
beforeAll(async () => {
  vocabulary = await fixtureVocabulary();
});

describe("the test engines, as re-exported by pocket-extract/testing", () => {
  it("RandomEngine runs the real extract() path and repeats itself under a seed", async () => {
    const run = async (seed: number) =>
      (await (await createExtractor({ engine: new RandomEngine({ vocabulary, seed, eosProbability: 0.9 }), maxTokens: 80 })).extract(Invoice, INVOICE_TEXT)).raw;
    const first = await run(3);
    expect(await run(3)).toBe(first);
    expect([await run(4), await run(5)]).not.toEqual([first, first]);
  });

  it("ScriptedEngine replays a chosen output", async () => {
    const raw = '{"vendor":"锐思科技有限公司","amount":6299,"currency":"CNY","paid":true,"code":"AB-123","items":[]}';
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary, script: raw }) });
    expect((await ex.extract(Invoice, INVOICE_TEXT)).raw).toBe(raw);
  });
});
