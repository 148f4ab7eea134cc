/**
 * Issue 15, item 2 (SDK part): the document's size is checked on its UTF-8 bytes before any
 * tokenizing. Before: 20 MB of text cost 2.7 GB RSS and 27 s of tokenizing before TEXT_TOO_LONG.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, DEFAULT_MAX_TEXT_BYTES } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { expectCode, withinBounds } from "./bounds.js";

const Schema = z.object({ name: z.string().max(10) });

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const extractor = () => createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"a"}' }) });

describe("maximum text size, in UTF-8 bytes, before tokenizing", () => {
  it("20 MB of text is refused with TEXT_TOO_LONG in well under a second", async () => {
    const ex = await extractor();
    const text = "客户购买了3台笔记本电脑 ".repeat(20 * 1024 * 1024 / 38);
    const { error } = await withinBounds({ ms: 500, rssMB: 100 }, () => ex.extract(Schema, text));
    expect(expectCode(error, "TEXT_TOO_LONG").message).toMatch(/maxTextBytes/);
  });

  it("counts bytes, not characters: CJK text just under the limit in characters is over it in bytes", async () => {
    const ex = await extractor();
    const text = "中".repeat(Math.floor(DEFAULT_MAX_TEXT_BYTES / 3) + 1); // 3 bytes each
    expect(text.length).toBeLessThan(DEFAULT_MAX_TEXT_BYTES);
    const { error } = await withinBounds({ ms: 500, rssMB: 50 }, () => ex.extract(Schema, text));
    expect(expectCode(error, "TEXT_TOO_LONG").message).toContain(`${DEFAULT_MAX_TEXT_BYTES}`);
  });

  it("maxTextBytes changes the limit both ways", async () => {
    const ex = await extractor();
    const { error } = await withinBounds({ ms: 500, rssMB: 50 }, () => ex.extract(Schema, "name: a", { maxTextBytes: 4 }));
    expectCode(error, "TEXT_TOO_LONG");
    const r = await ex.extract(Schema, "name: a", { maxTextBytes: 7 });
    expect(r.ok).toBe(true);
  });

  it("the instruction is bounded too", async () => {
    const ex = await extractor();
    const { error } = await withinBounds({ ms: 500, rssMB: 100 }, () => ex.extract(Schema, "name: a", { instruction: "x".repeat(DEFAULT_MAX_TEXT_BYTES + 1) }));
    expectCode(error, "TEXT_TOO_LONG");
  });
});
