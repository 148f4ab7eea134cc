/**
 * The MNN engine on the toy MNN model (fixtures/mnn) through the native MNN addon: vocabulary read
 * back through MNN's tokenizer, KV prefix bookkeeping, masked sampling, constrained extraction
 * through the real MNN forward path, failed loads, serialization, leaks, and per-token overhead.
 * Needs an MNN install (MNN_DIR) and the addon built against it (`node native/build.mjs --backend mnn`);
 * without MNN_DIR the suite is skipped with a visible warning (CI has no MNN).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMnnToyModel } from "../../fixtures/mnn/index.js";
import { mnnTokenizerText } from "../../fixtures/mnn/tokenizer-txt.js";
import { ensureFixtureTokenizer } from "../../fixtures/vocab/index.js";
import { generate } from "../../src/decode/generate.js";
import { CachedContextEngine } from "../../src/engines/native-shared/cached-context-engine.js";
import { createExtractor } from "../../src/index.js";
import { compileGrammar } from "../../src/mask/index.js";
import type { Engine } from "../../src/engines/engine.js";
import { loadMnnAddon, type NativeMnnModel } from "../../src/engines/mnn/addon.js";
import { createMnnEngine, readMnnModelDir, type MnnEngine } from "../../src/engines/mnn/index.js";
import { PocketExtractError } from "../../src/errors.js";
import { byteLevelToBytes } from "../../src/tokens/byte-level.js";
import { vocabularyFromBytes, type Vocabulary } from "../../src/tokens/index.js";
import { expectCompleteValidJson, SCHEMAS } from "../support/extraction-cases.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { expectSameVocabulary } from "../support/same-vocabulary.js";

const WIDTH = 65536;
const WORDS = WIDTH / 32;
const HAS_MNN = Boolean(process.env.MNN_DIR);
if (!HAS_MNN) {
  console.warn("test/engines/mnn.test.ts: SKIPPED, MNN_DIR is not set. To run it, build MNN and the addon (README section on the MNN engine), then MNN_DIR=<prefix> npx vitest run test/engines/mnn.test.ts");
}

const allowAll = (): Uint32Array => new Uint32Array(WORDS).fill(0xffffffff);
const allowOnly = (...ids: number[]): Uint32Array => {
  const mask = new Uint32Array(WORDS);
  for (const id of ids) mask[id >>> 5]! |= 1 << (id & 31);
  return mask;
};

function thrownCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (e: unknown) => (e instanceof PocketExtractError ? e.code : `untyped: ${String(e)}`),
  );
}


describe("MNN model directory checks and the tokenizer.txt writer (no MNN needed)", () => {
  let fixture: Vocabulary;
  let text: string;
  beforeAll(async () => {
    fixture = await fixtureVocabulary();
    text = mnnTokenizerText(await ensureFixtureTokenizer(), fixture.eosIds);
  });

  /** A directory shaped like an MNN model (dummy graph and weights), with `change` applied. */
  function fakeModelDir(change: (dir: string) => void = () => {}): string {
    const dir = mkdtempSync(join(tmpdir(), "pocket-mnn-dir-"));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ llm_model: "llm.mnn", llm_weight: "llm.mnn.weight" }));
    writeFileSync(join(dir, "llm_config.json"), JSON.stringify({ hidden_size: 4, max_position_embeddings: 2048 }));
    writeFileSync(join(dir, "llm.mnn"), "graph");
    writeFileSync(join(dir, "llm.mnn.weight"), "");
    writeFileSync(join(dir, "embeddings_bf16.bin"), Buffer.alloc(10 * 4 * 2));
    writeFileSync(join(dir, "tokenizer.txt"), text);
    change(dir);
    return dir;
  }
  const problem = (dir: string): string | undefined => thrownCode(() => readMnnModelDir(dir));

  it("writes MNN's HuggingFace tokenizer layout: header, specials and stops, then every id's byte-level token and the merges", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("430 3");
    expect(lines[1]).toBe(`26 ${fixture.eosIds.length} 0`);
    const ids = lines[2]!.split(" ").map(Number);
    expect(ids.slice(0, 26)).toEqual(Array.from({ length: 26 }, (_, i) => 65510 + i));
    expect(ids.slice(26)).toEqual([...fixture.eosIds]);
    const [size, merges] = lines[3]!.split(" ").map(Number);
    expect(size).toBe(WIDTH);
    expect(lines.length).toBe(4 + WIDTH + merges! + 1);
    for (let id = 0; id < WIDTH; id++) {
      const line = lines[4 + id]!;
      const bytes = fixture.isSpecial(id) ? new TextEncoder().encode(line) : byteLevelToBytes(line);
      expect(Buffer.from(bytes!).equals(Buffer.from(fixture.bytes(id))), `token ${id}`).toBe(true);
    }
    expect(lines[4 + WIDTH]!.split(" ")).toHaveLength(2);
  });

  it("reads a model directory: config path, special and stop ids from the tokenizer header, context, embedding rows", () => {
    const dir = fakeModelDir();
    const model = readMnnModelDir(dir);
    expect(model.configPath).toBe(join(dir, "config.json"));
    expect(model.specialIds).toHaveLength(26);
    expect(model.stopIds).toEqual([...fixture.eosIds]);
    expect(model.contextLength).toBe(2048);
    expect(model.embeddingRows).toBe(10);
    rmSync(dir, { recursive: true });
  });

  it("names what is wrong with a directory MNN would choke on (MODEL_INVALID)", () => {
    const cases: [string, (dir: string) => void][] = [
      ["missing embeddings", (dir) => rmSync(join(dir, "embeddings_bf16.bin"))],
      ["ragged embeddings", (dir) => writeFileSync(join(dir, "embeddings_bf16.bin"), Buffer.alloc(7))],
      ["missing weights", (dir) => rmSync(join(dir, "llm.mnn.weight"))],
      ["bad config", (dir) => writeFileSync(join(dir, "config.json"), "{nope")],
      ["bad tokenizer magic", (dir) => writeFileSync(join(dir, "tokenizer.txt"), "999 3\n")],
      ["short tokenizer header", (dir) => writeFileSync(join(dir, "tokenizer.txt"), "430 3\n2 1 0\n5\n")],
      ["no configs", (dir) => ["config.json", "llm_config.json"].forEach((f) => rmSync(join(dir, f)))],
    ];
    for (const [name, change] of cases) expect(problem(fakeModelDir(change)), name).toBe("MODEL_INVALID");
    // tie_embeddings: the rows live in the weights, no embedding file needed.
    const tied = fakeModelDir((dir) => {
      rmSync(join(dir, "embeddings_bf16.bin"));
      writeFileSync(join(dir, "llm_config.json"), JSON.stringify({ hidden_size: 4, tie_embeddings: [0, 0, 0, 4, 32] }));
    });
    expect(readMnnModelDir(tied).embeddingRows).toBeUndefined();
    const noConfigJson = fakeModelDir((dir) => rmSync(join(dir, "config.json")));
    expect(readMnnModelDir(noConfigJson).configPath).toBe(`${noConfigJson}/`);
  });
});

describe.skipIf(!HAS_MNN)("MNN engine (native addon, toy MNN model)", () => {
  let modelDir: string;
  let fixture: Vocabulary;
  let engine: MnnEngine;
  let native: NativeMnnModel;

  beforeAll(async () => {
    modelDir = await ensureMnnToyModel();
    fixture = await fixtureVocabulary();
    engine = await createMnnEngine({ modelDir, threads: 1, vocabulary: fixture });
    native = await loadMnnAddon().loadModel(join(modelDir, "config.json"), { threads: 1 });
  });
  afterAll(async () => {
    await engine?.dispose();
    native?.free();
  });

  it("loads the toy model: width 65,536 from the logits, and MNN's 65,536 token byte strings match the fixture vocabulary", async () => {
    const own = await createMnnEngine({ modelDir, threads: 1 });
    try {
      expect(own.name).toBe("mnn");
      expect(own.contextLength).toBe(4096);
      expect(own.vocabulary.width).toBe(WIDTH);
      expectSameVocabulary(own.vocabulary, fixture);
      // MNN's own tokenizer round-trips through the shared bytes.
      const ids = own.tokenize("<|im_start|>user\nhello 世界<|im_end|>");
      expect(ids[0]).toBe(fixture.specialId("<|im_start|>"));
      expect(own.vocabulary.decode(ids)).toBe("<|im_start|>user\nhello 世界<|im_end|>");
      expect(own.applyChatTemplate("hi")).toContain("hi");
    } finally {
      await own.dispose();
    }
  });

  it("rejects a vocabulary that differs from MNN's, id by id", async () => {
    const changed = vocabularyFromBytes({
      width: WIDTH,
      bytes: (id) => (id === 1234 ? new TextEncoder().encode("##") : fixture.bytes(id).length > 0 ? fixture.bytes(id) : undefined),
      specialIds: [],
      eosIds: fixture.eosIds,
    });
    expect(await codeOf(createMnnEngine({ modelDir, threads: 1, vocabulary: changed }))).toBe("VOCABULARY_MISMATCH");
  });

  it("keeps a prefix of the KV cache and evaluates after it (logits depend on the last token only: a bigram toy)", async () => {
    const greedy = (): number => native.sample(allowAll(), 0, 0, 1);
    await native.evaluate(0, Int32Array.from([11, 22, 33]));
    expect(native.cached()).toBe(3);
    const after33 = greedy();
    await native.evaluate(2, Int32Array.from([44, 55]));
    expect(native.cached()).toBe(4);
    const after55 = greedy();
    await native.evaluate(0, Int32Array.from([33]));
    expect(greedy()).toBe(after33);
    await native.evaluate(1, Int32Array.from([55]));
    expect(native.cached()).toBe(2);
    expect(greedy()).toBe(after55);
    // The mask is obeyed whatever the logits.
    expect(native.sample(allowOnly(7, 65512), 0, 0, 1)).toBeOneOf([7, 65512]);
    expect(native.sample(new Uint32Array(WORDS), 0, 0, 1)).toBe(-1);
  });

  it("refuses misuse with coded errors instead of crashing: busy, out-of-range ids and keeps, short masks", async () => {
    const pending = native.evaluate(0, Int32Array.from([1, 2]));
    expect(thrownCode(() => native.evaluate(0, Int32Array.from([3])))).toBe("BUSY");
    expect(thrownCode(() => native.sample(allowAll(), 0, 0, 1))).toBe("BUSY");
    // Tokenizing only reads MNN's tokenizer: allowed during a forward pass.
    expect(native.tokenize("hello").length).toBeGreaterThan(0);
    await pending;
    expect(thrownCode(() => native.evaluate(0, Int32Array.from([WIDTH])))).toBe("RANGE");
    expect(thrownCode(() => native.evaluate(5, Int32Array.from([1])))).toBe("RANGE");
    expect(thrownCode(() => native.sample(new Uint32Array(3), 0, 0, 1))).toBe("MASK_SIZE");
  });

  it("feeds a decode step's batch (a sampled token and the forced run after it) to MNN's decode module: only prompts reach the prefill module", async () => {
    // MNN resizes its prefill module whenever a batch's length differs from the last one's (~0.4 s
    // on the pocket INT4 export): forced runs sent there made constrained decoding slower than unconstrained.
    const start = native.prefillBatches();
    await native.evaluate(0, Int32Array.from([1, 2, 3])); // after a reset: a prompt
    await native.evaluate(3, Int32Array.from([4, 5, 6]));
    await native.evaluate(5, Int32Array.from([7, 8])); // after dropping a cached token too
    await native.evaluate(7, Int32Array.from([9]));
    expect(native.prefillBatches() - start).toBe(1);
    await native.evaluate(8, Int32Array.from({ length: 17 }, (_, i) => 100 + i)); // a prompt-sized batch
    expect(native.prefillBatches() - start).toBe(2);

    const { tokens: grammar } = compileGrammar(
      { type: "object", properties: { customer_name: { type: "string", maxLength: 8 }, order_total: { type: "integer" } }, required: ["customer_name", "order_total"], additionalProperties: false },
      fixture,
    );
    const session = await new CachedContextEngine(native, { name: "mnn", vocabulary: fixture, contextLength: 4096 }).createSession();
    const before = native.prefillBatches();
    const { stats } = await generate(session, grammar, fixture.encode("<|im_start|>assistant\n"), { maxTokens: 40 });
    await session.close();
    // Fewer batches after the prompt than tokens: the forced runs ({"customer_name":" and more) went
    // in multi-token batches, and none of them to the prefill module.
    expect(stats.forwardPasses - 1).toBeLessThan(stats.tokensSampled + stats.tokensForced);
    expect(native.prefillBatches() - before).toBe(1);
  });

  it("constrained extraction on several schemas returns complete valid JSON through the real MNN forward path", async () => {
    const extractor = await createExtractor({ engine: engine as Engine, maxTokens: 48 });
    for (const { name, schema, text } of SCHEMAS) {
      const result = await extractor.extract(schema, text);
      expectCompleteValidJson(name, schema, result.raw);
      expect(result.stats.tokensSampled, name).toBeGreaterThan(0);
      console.log(`mnn extraction [${name}] ${result.stats.tokensSampled} sampled + ${result.stats.tokensForced} forced tokens, ${result.stats.stopReason}: ${result.raw}`);
    }
  });

  it("a failed load never crashes the process and leaves nothing to call", async () => {
    const broken = (what: string, file: string, content: string): string => {
      const dir = mkdtempSync(join(tmpdir(), `pocket-mnn-${what}-`));
      cpSync(modelDir, dir, { recursive: true });
      writeFileSync(join(dir, file), content);
      return dir;
    };
    // Caught by our checks before MNN sees the directory.
    expect(await codeOf(createMnnEngine({ modelDir: join(tmpdir(), "no-such-mnn-model") }))).toBe("MODEL_NOT_FOUND");
    expect(await codeOf(createMnnEngine({ modelDir: broken("embeddings", "embeddings_bf16.bin", "") }))).toBe("MODEL_INVALID");
    expect(await codeOf(createMnnEngine({ modelDir: broken("magic", "tokenizer.txt", "999 3\n") }))).toBe("MODEL_INVALID");
    expect(await codeOf(createMnnEngine({ modelDir: broken("config", "config.json", "{not json") }))).toBe("MODEL_INVALID");
    // Failing inside MNN's load(): a corrupt graph, and a tokenizer header MNN rejects.
    expect(await codeOf(createMnnEngine({ modelDir: broken("graph", "llm.mnn", "garbage") }))).toBe("ENGINE_LOAD");
    const badTokenizer = broken("tokenizer", "tokenizer.txt", "430 7\n0 0 0\n\n");
    const rejected = await loadMnnAddon().loadModel(join(badTokenizer, "config.json"), {}).then(
      () => "loaded",
      (e: { code?: string }) => e.code,
    );
    expect(rejected).toBe("LOAD");
    // The working engine is unaffected.
    const session = await engine.createSession();
    await session.feed([1, 2, 3]);
    expect(await session.sample(allowOnly(42))).toBe(42);
    await session.close();
  });

  it("serializes concurrent requests on the one MNN instance: same results as one at a time", async () => {
    // MNN's own vocabulary and tokenizer here: queued requests tokenize while another decodes.
    const own = await createMnnEngine({ modelDir, threads: 1 });
    const extractor = await createExtractor({ engine: own as Engine, maxTokens: 32 });
    const sequential = [];
    for (const { schema, text } of SCHEMAS) sequential.push((await extractor.extract(schema, text)).raw);
    const concurrent = await Promise.all(SCHEMAS.map(({ schema, text }) => extractor.extract(schema, text)));
    expect(concurrent.map((r) => r.raw)).toEqual(sequential);
    await extractor.dispose();
  });

  it("does not leak over 1,000 requests (RSS reported)", async () => {
    const prompt = Array.from({ length: 24 }, (_, i) => 1000 + i * 37);
    const request = async (i: number): Promise<void> => {
      const session = await engine.createSession({ sampling: { temperature: 0.8, seed: i } });
      // Alternate the prompt tail so half the requests reuse the cached prefix and half erase it.
      await session.feed(i % 2 === 0 ? prompt : [...prompt.slice(0, 20), 5, 6, 7, 8]);
      for (let t = 0; t < 4; t++) await session.feed([await session.sample(allowAll())]);
      await session.close();
    };
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 100; i++) await request(i);
    gc?.();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    for (let i = 0; i < 1000; i++) await request(i);
    const seconds = (performance.now() - started) / 1000;
    gc?.();
    const growth = (process.memoryUsage().rss - before) / 2 ** 20;
    console.log(`mnn leak check: 1,000 requests (24-token prompt + 4 sampled tokens each) in ${seconds.toFixed(1)} s, RSS ${(before / 2 ** 20).toFixed(1)} MB -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB)`);
    expect(growth).toBeLessThan(64);
    // ~5,500 forward passes: about 50 s on an unoptimized MNN build on a busy 2-core machine.
  }, 300_000);

  it("bench: per-token overhead of mask + sampling + JS/native crossing, as a share of the 2.1 ms/token budget", async () => {
    const extractor = await createExtractor({ engine: engine as Engine, maxTokens: 48 });
    let maskMs = 0;
    let engineMs = 0;
    let sampled = 0;
    for (let round = 0; round < 3; round++) {
      for (const { schema, text } of SCHEMAS) {
        const { stats } = await extractor.extract(schema, text);
        maskMs += stats.maskMs;
        engineMs += stats.engineMs;
        sampled += stats.tokensSampled;
      }
    }
    // Sampling alone (one sync crossing + the C++ sampler over 65,536 logits), greedy and top-p.
    const mask = allowAll();
    await native.evaluate(0, Int32Array.from([1, 2, 3]));
    const time = (n: number, f: () => void): number => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) f();
      return (performance.now() - t0) / n;
    };
    time(200, () => native.sample(mask, 0, 0, 1));
    const greedyMs = time(2000, () => native.sample(mask, 0, 0, 1));
    const topPMs = time(500, () => native.sample(mask, 0.8, 0, 0.9));
    // One-token forward passes: round trip from JS, and MNN's share of it (timed on the worker).
    let keep = 3;
    let mnnMicros = 0;
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) mnnMicros += await native.evaluate(keep++, Int32Array.from([7]));
    const stepMs = (performance.now() - t0) / 200;
    const mnnMs = mnnMicros / 1000 / 200;
    const budget = 2.1;
    const share = (ms: number): string => `${ms.toFixed(3)} ms (${((100 * ms) / budget).toFixed(1)}% of ${budget} ms)`;
    console.log(
      [
        `mnn bench over ${sampled} sampled tokens of real extractions:`,
        `  mask (grammar fillMask) per sampled token: ${share(maskMs / sampled)}`,
        `  engine per sampled token (feed + forward + sample): ${share(engineMs / sampled)}`,
        `  native sample() alone, greedy: ${share(greedyMs)}; temperature 0.8 + top-p 0.9: ${share(topPMs)}`,
        `  one-token evaluate round trip: ${stepMs.toFixed(3)} ms, of which MNN's toy forward ${mnnMs.toFixed(3)} ms and our crossing + worker hop ${share(stepMs - mnnMs)}`,
      ].join("\n"),
    );
    expect(greedyMs).toBeLessThan(budget);
  });
});
