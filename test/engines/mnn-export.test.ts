/**
 * The MNN engine on a real MNN LLM export (fused attention, INT4 or FP16 weight blocks,
 * llm.mnn + llm.mnn.weight, llm_config.json, MNN's tokenizer file, text or binary .mtok): the
 * export of the Hugging Face twin of the GGUF fixture (fixtures/hf) made with MNN's llmexport.py,
 * named by POCKET_MNN_MODEL (README, MNN section). Vocabulary and tokenizer agreement, constrained
 * extraction end to end, prefix reuse on a real KV cache, rollback, concurrency, failed loads.
 * Skipped with a visible message without POCKET_MNN_MODEL (CI has no MNN).
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../src/index.js";
import type { Engine } from "../../src/engines/engine.js";
import { loadMnnAddon, type NativeMnnModel } from "../../src/engines/mnn/addon.js";
import { createMnnEngine, readMnnModelDir, type MnnEngine } from "../../src/engines/mnn/index.js";
import { CachedContextEngine } from "../../src/engines/native-shared/cached-context-engine.js";
import { PocketExtractError } from "../../src/errors.js";
import type { Vocabulary } from "../../src/tokens/index.js";
import { chatPrompt, expectCompleteValidJson, SCHEMAS } from "../support/extraction-cases.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { compareRows } from "../support/logit-agreement.js";
import { expectSameVocabulary } from "../support/same-vocabulary.js";

const MODEL = process.env.POCKET_MNN_MODEL ? resolve(process.env.POCKET_MNN_MODEL) : undefined;
if (!MODEL) {
  console.warn("test/engines/mnn-export.test.ts: SKIPPED, POCKET_MNN_MODEL is not set. To run it, export the fixture with MNN's llmexport.py and build the addon (README, MNN section), then POCKET_MNN_MODEL=<export dir> npx vitest run test/engines/mnn-export.test.ts");
}

const WORDS = 65536 / 32;
const allowAll = (): Uint32Array => new Uint32Array(WORDS).fill(0xffffffff);

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (e: unknown) => (e instanceof PocketExtractError ? e.code : `untyped: ${String(e)}`),
  );
}

describe.skipIf(!MODEL)("MNN engine on a real MNN LLM export", () => {
  const modelDir = MODEL!;
  let fixture: Vocabulary;
  let engine: MnnEngine;
  let native: NativeMnnModel;

  beforeAll(async () => {
    fixture = await fixtureVocabulary();
    engine = await createMnnEngine({ modelDir, threads: 1 });
    native = await loadMnnAddon().loadModel(join(modelDir, "config.json"), { threads: 1 });
  }, 300_000);
  afterAll(async () => {
    await engine?.dispose();
    native?.free();
  });

  it("MNN's tokenizer file gives every id the fixture's bytes; MNN tokenizes as the fixture does", () => {
    const files = readdirSync(modelDir);
    console.log(`mnn export ${modelDir}: ${files.join(", ")}`);
    expect(engine.vocabulary.width).toBe(65536);
    expectSameVocabulary(engine.vocabulary, fixture);
    for (const text of [chatPrompt("Extract the order as JSON.", SCHEMAS[0].text), "Ship 2× 🎉 to 杭州 on 2024-05-01, ref #A-17."]) {
      expect([...engine.tokenize(text)], text).toEqual([...fixture.encode(text)]);
    }
  });

  it("constrained extraction on the extraction schemas returns complete valid JSON", async () => {
    const extractor = await createExtractor({ engine: engine as Engine, maxTokens: 64 });
    for (const { name, schema, text } of SCHEMAS) {
      const result = await extractor.extract(schema, text);
      expectCompleteValidJson(name, schema, result.raw);
      console.log(`mnn export extraction [${name}] ${result.stats.tokensSampled} sampled + ${result.stats.tokensForced} forced, ${result.stats.stopReason}: ${result.raw}`);
    }
  }, 600_000);

  it("prefix reuse: a second document sharing the instruction prefix prefills only its own tokens and decodes exactly as a fresh engine", async () => {
    // Our own CachedContextEngine over a recording wrapper of the native model: what each
    // request really kept of the KV cache and evaluated.
    const calls: { keep: number; tokens: number[] }[] = [];
    const recording = {
      evaluate: (keep: number, tokens: Int32Array) => {
        calls.push({ keep, tokens: [...tokens] });
        return native.evaluate(keep, tokens);
      },
      cached: () => native.cached(),
      sample: (mask: Uint32Array, t: number, k: number, p: number) => native.sample(mask, t, k, p),
      seed: (s: number) => native.seed(s),
      free: () => undefined,
    };
    const reusing = new CachedContextEngine(recording, { name: "mnn", vocabulary: engine.vocabulary, contextLength: engine.contextLength });
    // Two English documents: the prompt language follows the text, and with it the instruction.
    const { schema } = SCHEMAS[1];
    const [firstText, secondText] = [SCHEMAS[1].text, SCHEMAS[2].text];
    const extractor = await createExtractor({ engine: reusing as Engine, maxTokens: 48 });
    await extractor.extract(schema, firstText);
    const firstPrompt = calls[0]!;
    const before = calls.length;
    const reused = await extractor.extract(schema, secondText);
    const { keep, tokens: prefilled } = calls[before]!;
    const secondPrompt = [...firstPrompt.tokens.slice(0, keep), ...prefilled];
    // Everything before the document came from the cache; the prefill is the document and the
    // turn closing after it.
    expect(firstPrompt.keep).toBe(0);
    expect(engine.vocabulary.decode(prefilled).startsWith(secondText)).toBe(true);
    expect(secondPrompt.length).toBe(reused.stats.promptTokens);
    const fresh = await createMnnEngine({ modelDir, threads: 1 });
    try {
      const freshResult = await (await createExtractor({ engine: fresh as Engine, maxTokens: 48 })).extract(schema, secondText);
      expect(reused.raw).toBe(freshResult.raw);
      console.log(`mnn export prefix reuse: second prompt ${reused.stats.promptTokens} tokens, ${keep} kept from the cache, prefilled ${prefilled.length}; output ${reused.raw}`);
    } finally {
      await fresh.dispose();
    }
  }, 600_000);

  it("rollback: erasing the KV tail and re-evaluating gives the logits of a fresh evaluation of the same batches", async () => {
    const ids = [...fixture.encode("<|im_start|>user\nhello 世界, order 3 laptops<|im_end|>")];
    const run = async (batches: readonly (readonly [keep: number, tokens: readonly number[]])[]): Promise<Float32Array> => {
      for (const [keep, tokens] of batches) await native.evaluate(keep, Int32Array.from(tokens));
      return native.logits();
    };
    // The reference evaluates the same batches as the rollback's last step: MNN's INT4 kernels
    // quantize activations per batch, so one batch of n tokens and two batches of the same n
    // tokens give slightly different logits (reported below), with or without a rollback.
    const fresh = await run([[0, ids.slice(0, 4)], [4, ids.slice(4)]]);
    const whole = await run([[0, ids]]);
    const rolledBack = await run([[0, ids], [4, [11, 22, 33]], [4, ids.slice(4)]]);
    expect(native.cached()).toBe(ids.length);
    const again = compareRows(ids.length - 1, fresh, rolledBack);
    expect(again.cosine).toBeGreaterThan(0.99999);
    expect(again.sameArgmax).toBe(true);
    const batching = compareRows(ids.length - 1, fresh, whole);
    console.log(
      `mnn export rollback: vs a fresh evaluation max|Δ| ${again.maxAbsDiff.toExponential(3)}, cos ${again.cosine.toFixed(7)}; ` +
        `one batch vs two batches of the same tokens (no rollback): max|Δ| ${batching.maxAbsDiff.toExponential(3)}, cos ${batching.cosine.toFixed(7)}`,
    );
  }, 300_000);

  it("serializes concurrent requests on the one MNN instance: same results as one at a time", async () => {
    const extractor = await createExtractor({ engine: engine as Engine, maxTokens: 32 });
    const sequential = [];
    for (const { schema, text } of SCHEMAS) sequential.push((await extractor.extract(schema, text)).raw);
    const concurrent = await Promise.all(SCHEMAS.map(({ schema, text }) => extractor.extract(schema, text)));
    expect(concurrent.map((r) => r.raw)).toEqual(sequential);
  }, 600_000);

  it("a broken copy of the export fails with a typed error, and the working engine is unaffected", async () => {
    const info = readMnnModelDir(modelDir);
    // Symlinks to every file but the one broken: the weights are not copied.
    const broken = (file: string, content: string | undefined): string => {
      const dir = mkdtempSync(join(tmpdir(), "pocket-mnn-export-"));
      for (const f of readdirSync(modelDir)) if (f !== file) symlinkSync(join(modelDir, f), join(dir, f));
      if (content !== undefined) writeFileSync(join(dir, file), content);
      return dir;
    };
    const dirs = [broken("llm.mnn", "garbage"), broken("llm.mnn.weight", undefined), broken("config.json", "{nope")];
    try {
      expect(await codeOf(createMnnEngine({ modelDir: dirs[0]! }))).toBe("ENGINE_LOAD");
      expect(await codeOf(createMnnEngine({ modelDir: dirs[1]! }))).toBe("MODEL_INVALID");
      expect(await codeOf(createMnnEngine({ modelDir: dirs[2]! }))).toBe("MODEL_INVALID");
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
    const session = await engine.createSession();
    await session.feed([...fixture.encode("hello")]);
    expect(await session.sample(allowAll())).toBeGreaterThanOrEqual(0);
    await session.close();
    expect(info.stopIds.length).toBeGreaterThan(0);
  }, 300_000);
});
