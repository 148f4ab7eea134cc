/**
 * The llama.cpp engine on the tiny random-weight GGUF fixture through the native addon: vocabulary
 * agreement (fixture tokenizer.json, GGUF metadata read in TS, llama.cpp's own view), masked
 * sampling that never leaves the mask, determinism, rollback, prefix reuse and typed errors.
 * Without the native addon these tests fail on purpose (CI builds it with `npm run native:build`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGgufFixture, GGUF_FIXTURE_SEED, PRESETS } from "../../fixtures/gguf/index.js";
import { encodeTensor, randomValues } from "../../fixtures/gguf/tensors.js";
import { GgmlType } from "../../src/engines/llama/gguf-format.js";
import { ensureFixtureTokenizer } from "../../fixtures/vocab/index.js";
import type { Engine, EngineSession } from "../../src/engines/engine.js";
import { loadLlamaAddon } from "../../src/engines/llama/addon.js";
import { createLlamaEngine, readGgufVocabulary } from "../../src/engines/llama/index.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import { PocketExtractError } from "../../src/errors.js";
import { loadTokenizerJson, vocabularyFromBytes, type Vocabulary } from "../../src/tokens/index.js";

const WIDTH = 65536;
const WORDS = WIDTH / 32;
const EOS_IDS = [65510, 65512, 65529, 65530, 65531];

let modelPath: string;
let fixtureVocabulary: Vocabulary;
const scratch = mkdtempSync(join(tmpdir(), "pocket-llama-"));

beforeAll(async () => {
  modelPath = await ensureGgufFixture("tiny");
  fixtureVocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: WIDTH });
});

const allowAll = (): Uint32Array => new Uint32Array(WORDS).fill(0xffffffff);
const allowOnly = (...ids: number[]): Uint32Array => {
  const mask = new Uint32Array(WORDS);
  for (const id of ids) mask[id >>> 5]! |= 1 << (id & 31);
  return mask;
};
const forbid = (mask: Uint32Array, ...ids: number[]): Uint32Array => {
  for (const id of ids) mask[id >>> 5]! &= ~(1 << (id & 31));
  return mask;
};
const allowed = (mask: Uint32Array, id: number): boolean => (mask[id >>> 5]! & (1 << (id & 31))) !== 0;

async function expectCode(promise: Promise<unknown>, code: string, text?: string): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PocketExtractError);
  expect((err as PocketExtractError).code).toBe(code);
  if (text !== undefined) expect((err as Error).message).toContain(text);
}

/** Greedy continuation of `prompt` for `n` tokens under an all-allowing mask. */
async function generate(engine: Engine, prompt: number[], n: number, options = {}): Promise<number[]> {
  const session = await engine.createSession(options);
  try {
    await session.feed(prompt);
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const id = await session.sample(allowAll());
      out.push(id);
      await session.feed([id]);
    }
    return out;
  } finally {
    await session.close();
  }
}

describe("GGUF metadata (no native code)", () => {
  it("reads the fixture vocabulary: same width, bytes, specials, eos and pad as the tokenizer.json", () => {
    const gguf = readGgufVocabulary(modelPath);
    expect(gguf.width).toBe(WIDTH);
    expect(gguf.size).toBe(fixtureVocabulary.size);
    for (let id = 0; id < WIDTH; id++) {
      expect(gguf.isSpecial(id), `special ${id}`).toBe(fixtureVocabulary.isSpecial(id));
      const a = gguf.bytes(id);
      const b = fixtureVocabulary.bytes(id);
      if (a.length !== b.length || !a.every((x, i) => x === b[i])) expect.fail(`token ${id} differs`);
    }
    expect(gguf.eosIds).toEqual(fixtureVocabulary.eosIds);
    expect(gguf.padId).toBe(65510);
    expect(gguf.fingerprint).toBe(fixtureVocabulary.fingerprint);
  });

  it("reports a missing file as MODEL_NOT_FOUND and non-GGUF / truncated files as MODEL_INVALID, naming the file", async () => {
    const missing = join(scratch, "missing.gguf");
    await expectCode(createLlamaEngine({ modelPath: missing }), "MODEL_NOT_FOUND", missing);
    const text = join(scratch, "text.gguf");
    writeFileSync(text, "this is not a model");
    await expectCode(createLlamaEngine({ modelPath: text }), "MODEL_INVALID", text);
    const version = join(scratch, "version.gguf");
    const header = Buffer.from(readFileSync(modelPath).subarray(0, 64));
    header.writeUInt32LE(99, 4);
    writeFileSync(version, header);
    await expectCode(createLlamaEngine({ modelPath: version }), "MODEL_INVALID", "version 99");
    const truncated = join(scratch, "truncated.gguf");
    writeFileSync(truncated, readFileSync(modelPath).subarray(0, 100_000));
    await expectCode(createLlamaEngine({ modelPath: truncated }), "MODEL_INVALID", "truncated");
  });

  it("refuses a vocabulary that differs from the model's (VOCABULARY_MISMATCH before loading weights)", async () => {
    const parts = { specialIds: [65510, 65512], eosIds: [65512], padId: 65510 };
    const changed = vocabularyFromBytes({
      ...parts,
      width: WIDTH,
      bytes: (id) => (id === 1234 ? new TextEncoder().encode("changed") : fixtureVocabulary.bytes(id)),
    });
    await expectCode(createLlamaEngine({ modelPath, vocabulary: changed }), "VOCABULARY_MISMATCH", "token 1234");
    const wider = vocabularyFromBytes({ ...parts, width: WIDTH + 64, bytes: (id) => (id < WIDTH ? fixtureVocabulary.bytes(id) : undefined) });
    await expectCode(createLlamaEngine({ modelPath, vocabulary: wider }), "VOCABULARY_MISMATCH", `${WIDTH} vs ${WIDTH + 64}`);
  });
});

describe("llama.cpp engine (native addon)", () => {
  let engine: Engine;
  let prompt: number[];

  beforeAll(async () => {
    try {
      loadLlamaAddon();
    } catch (err) {
      throw new Error(`The native llama.cpp addon is not available; build it with \`npm run native:build\`.\n${(err as Error).message}`, { cause: err });
    }
    engine = await createLlamaEngine({ modelPath, contextLength: 1024, threads: 1, vocabulary: fixtureVocabulary });
    prompt = fixtureVocabulary.encode('<|im_start|>user\nExtract {"name": "Ada", "age": 36}<|im_end|>\n<|im_start|>assistant\n');
  });
  afterAll(async () => {
    await engine?.dispose();
  });

  it("loads with the fixture vocabulary; llama.cpp sees the same bytes and tokenizes the same way", () => {
    expect(engine.name).toBe("llama.cpp");
    expect(engine.vocabulary.width).toBe(WIDTH);
    expect(engine.contextLength).toBe(1024);
    const native = loadLlamaAddon();
    return native.addon.loadModel(modelPath, { backendsDir: native.backendsDir, contextLength: 64, threads: 1 }).then((model) => {
      try {
        const v = model.vocabulary();
        expect(model.width()).toBe(WIDTH);
        for (let id = 0; id < WIDTH; id++) {
          const a = v.bytes.subarray(v.offsets[id], v.offsets[id + 1]);
          const b = fixtureVocabulary.bytes(id);
          if (a.length !== b.length || !a.every((x, i) => x === b[i])) expect.fail(`llama.cpp token ${id} differs`);
        }
        expect([...v.endOfGeneration]).toEqual(EOS_IDS);
        const text = 'Hello {"name": "Ada", "tags": ["x", 3.5]} 日本 <|im_end|>';
        expect([...model.tokenize(text, true)]).toEqual(fixtureVocabulary.encode(text));
      } finally {
        model.free();
      }
    });
  });

  it("logits(): NO_LOGITS before any decode, then a copy of the last row whose argmax is the greedy pick", async () => {
    const native = loadLlamaAddon();
    const model = await native.addon.loadModel(modelPath, { backendsDir: native.backendsDir, contextLength: 64, threads: 1 });
    try {
      expect(() => model.logits()).toThrow(expect.objectContaining({ code: "NO_LOGITS" }));
      await model.decode(Int32Array.from(prompt.slice(0, 8)));
      const row = model.logits();
      expect(row).toBeInstanceOf(Float32Array);
      expect(row.length).toBe(WIDTH);
      const argmax = row.reduce((best, v, i) => (v > row[best]! ? i : best), 0);
      expect(model.sample(new Uint32Array(WORDS).fill(0xffffffff), 0, 0, 1)).toBe(argmax);
      row[argmax] = -Infinity; // a copy: the model's own row is untouched
      expect(model.logits()[argmax]).not.toBe(-Infinity);
    } finally {
      model.free();
    }
  });

  it("decode keeps logits rows at the token indices it is given: the rows of a batch that kept every row, in order", async () => {
    const native = loadLlamaAddon();
    const model = await native.addon.loadModel(modelPath, { backendsDir: native.backendsDir, contextLength: 64, threads: 1 });
    try {
      const batch = Int32Array.from(prompt.slice(0, 6));
      const random = mulberry32(3);
      const masks = [allowAll(), ...Array.from({ length: 6 }, () => allowOnly(...Array.from({ length: 40 }, () => Math.floor(random() * WIDTH))))];
      const picks = (rows: readonly number[]): number[][] => rows.map((row) => masks.map((mask) => model.sample(mask, 0, 0, 1, 0, row)));
      await model.decode(batch, 6);
      const every = picks([0, 1, 2, 3, 4, 5]);
      model.truncate(0);
      await model.decode(batch, Int32Array.from([1, 4, 5]));
      expect(picks([0, 1, 2])).toEqual([every[1], every[4], every[5]]);
      expect(() => model.sample(allowAll(), 0, 0, 1, 0, 3)).toThrow(expect.objectContaining({ code: "RANGE" }));
      model.truncate(0);
      expect(() => model.decode(batch, Int32Array.from([2, 2]))).toThrow(expect.objectContaining({ code: "RANGE" }));
      expect(() => model.decode(batch, Int32Array.from([6]))).toThrow(expect.objectContaining({ code: "RANGE" }));
    } finally {
      model.free();
    }
  });

  it("verifyCost \"measure\" times the verification cost at load (a figure that depends on the machine), and leaves the context empty", async () => {
    const measured = await createLlamaEngine({ modelPath, contextLength: 64, threads: 1, vocabulary: fixtureVocabulary, verifyCost: "measure" });
    try {
      expect(Number.isFinite(measured.verifyRowCost)).toBe(true);
      expect(measured.verifyRowCost).toBeGreaterThanOrEqual(0);
      const session = await measured.createSession();
      await session.feed(prompt);
      const greedy = await session.sample(allowAll());
      await session.close();
      const plainSession = await engine.createSession();
      await plainSession.feed(prompt);
      expect(greedy).toBe(await plainSession.sample(allowAll()));
      await plainSession.close();
    } finally {
      await measured.dispose();
    }
    await expect(createLlamaEngine({ modelPath, verifyCost: "timed" as "measure" })).rejects.toMatchObject({ code: "OPTION_INVALID" });
  });

  it("never samples a disallowed id: random, single-id and eos-excluding masks, greedy and sampled", async () => {
    const random = mulberry32(7);
    const samplings = [{}, { temperature: 1.2, topK: 50, topP: 0.9, seed: 3 }, { temperature: 0.7, seed: 9 }, { temperature: 2, topP: 0.5, seed: 1 }];
    for (const sampling of samplings) {
      const session = await engine.createSession({ sampling });
      await session.feed(prompt);
      for (let step = 0; step < 60; step++) {
        let mask: Uint32Array;
        const kind = step % 5;
        if (kind === 0) mask = allowOnly(Math.floor(random() * WIDTH));
        else if (kind === 1) mask = forbid(allowAll(), ...EOS_IDS);
        else if (kind === 2) {
          mask = new Uint32Array(WORDS);
          for (let w = 0; w < WORDS; w++) mask[w] = random() < 0.02 ? (random() * 2 ** 32) >>> 0 : 0;
          mask[WORDS - 1]! |= 1 << 31; // at least one id
        } else if (kind === 3) mask = allowOnly(...EOS_IDS.slice(0, 2), 0, 65535);
        else mask = allowOnly(Math.floor(random() * WIDTH), Math.floor(random() * WIDTH));
        const id = await session.sample(mask);
        expect(allowed(mask, id), `${JSON.stringify(sampling)} step ${step}: id ${id}`).toBe(true);
        await session.feed([id]);
      }
      await session.close();
    }
  });

  it("greedy under a mask picks the best allowed id; excluding it changes the choice", async () => {
    const session = await engine.createSession();
    await session.feed(prompt);
    const best = await session.sample(allowAll());
    const second = await session.sample(forbid(allowAll(), best));
    expect(second).not.toBe(best);
    expect(await session.sample(allowOnly(best, second))).toBe(best);
    expect(await session.sample(allowOnly(second))).toBe(second);
    await expectCode(session.sample(new Uint32Array(WORDS)), "ENGINE_FAILED", "allows no token");
    await expectCode(session.sample(new Uint32Array(WORDS - 1)), "MASK_SIZE");
    await session.close();
  });

  it("greedy decoding is deterministic and follows the context (not one fixed token)", async () => {
    const a = await generate(engine, prompt, 24);
    const b = await generate(engine, prompt, 24);
    expect(b).toEqual(a);
    expect(new Set(a).size).toBeGreaterThan(3);
  });

  it("seeded sampling is reproducible; another seed gives another sequence", async () => {
    const sampling = (seed: number) => ({ sampling: { temperature: 1, topP: 0.95, seed } });
    const a = await generate(engine, prompt, 24, sampling(11));
    expect(await generate(engine, prompt, 24, sampling(11))).toEqual(a);
    expect(await generate(engine, prompt, 24, sampling(12))).not.toEqual(a);
  });

  it("top-k 1 and top-p 0 reduce sampling to greedy", async () => {
    const greedy = await generate(engine, prompt, 12);
    expect(await generate(engine, prompt, 12, { sampling: { temperature: 1, topK: 1, seed: 5 } })).toEqual(greedy);
    expect(await generate(engine, prompt, 12, { sampling: { temperature: 1, topP: 0, seed: 5 } })).toEqual(greedy);
  });

  it("rollback drops tokens from the context: regenerating gives the same continuation", async () => {
    const reference = await generate(engine, prompt, 12);
    const session = await engine.createSession();
    await session.feed(prompt);
    for (const id of reference.slice(0, 8)) await session.feed([id]);
    await session.rollback!(3);
    expect(await session.sample(allowAll())).toBe(reference[5]);
    await session.feed([123, 456]); // a detour, then back
    await session.rollback!(2);
    const again: number[] = [];
    for (let i = 5; i < 12; i++) {
      const id = await session.sample(allowAll());
      again.push(id);
      await session.feed([id]);
    }
    expect(again).toEqual(reference.slice(5));
    await expectCode(session.rollback!(10_000), "ROLLBACK_RANGE");
    await session.close();
  });

  it("reuses the cached prompt prefix across sessions with the same results as a fresh context", async () => {
    const longer = [...prompt, ...fixtureVocabulary.encode("{")];
    await generate(engine, prompt, 4); // leaves the prompt in the cache
    const reused = await generate(engine, longer, 10);
    const fresh = await createLlamaEngine({ modelPath, contextLength: 1024, threads: 1 });
    try {
      expect(await generate(fresh, longer, 10)).toEqual(reused);
    } finally {
      await fresh.dispose();
    }
  });

  it("serializes sessions: the second starts when the first closes", async () => {
    const first = await engine.createSession();
    let secondStarted = false;
    const second = engine.createSession().then((s) => {
      secondStarted = true;
      return s;
    });
    await first.feed(prompt);
    await new Promise((r) => setTimeout(r, 20));
    expect(secondStarted).toBe(false);
    await first.close();
    await (await second).close();
    expect(secondStarted).toBe(true);
  });

  it("honours AbortSignal between steps, refuses bad sampling options and context overflow", async () => {
    await expectCode(engine.createSession({ sampling: { temperature: Number.NaN } }), "OPTION_INVALID", "temperature");
    await expectCode(engine.createSession({ sampling: { topP: 1.5 } }), "OPTION_INVALID", "topP");
    const controller = new AbortController();
    const session = await engine.createSession({ signal: controller.signal });
    await session.feed(prompt);
    controller.abort();
    await expectCode(session.sample(allowAll()), "ABORTED");
    await session.close();
    const other = await engine.createSession();
    await expectCode(other.feed(new Array<number>(2000).fill(100)), "CONTEXT_OVERFLOW");
    await expectCode(other.feed([WIDTH]), "TOKEN_UNKNOWN");
    await other.feed(prompt);
    const first = other.feed([1, 2]);
    await expectCode(other.feed([3]), "ENGINE_FAILED", "in progress");
    await expectCode(other.sample(allowAll()), "ENGINE_FAILED", "in progress");
    await first;
    await other.close();
  });

  it("a model with NaN weights gives LOGITS_INVALID in every sampling mode, not tokens picked from garbage", async () => {
    // The tiny fixture with its final norm's weights (found by their bytes) set to NaN: every logit is NaN.
    const bytes = readFileSync(modelPath);
    const norm = encodeTensor(randomValues(PRESETS.tiny.embedding, GGUF_FIXTURE_SEED, "output_norm.weight", 1, 0.1), GgmlType.F32);
    const at = bytes.indexOf(norm);
    expect(at).toBeGreaterThan(0);
    bytes.fill(Buffer.from(Float32Array.of(Number.NaN).buffer), at, at + norm.length);
    const corruptPath = join(scratch, "nan-weights.gguf");
    writeFileSync(corruptPath, bytes);
    const corrupt = await createLlamaEngine({ modelPath: corruptPath, contextLength: 256, threads: 1 });
    try {
      for (const sampling of [{}, { temperature: 0.8 }, { temperature: 0.8, topK: 40 }, { temperature: 1, topP: 0.9, minP: 0.05 }]) {
        const session = await corrupt.createSession({ sampling });
        await session.feed(prompt);
        await expectCode(session.sample(allowAll()), "LOGITS_INVALID", "corrupted");
        await session.close();
      }
    } finally {
      await corrupt.dispose();
    }
  });

  it("after dispose every call is a typed ENGINE_DISPOSED error, even with a decode in flight", async () => {
    const doomed = await createLlamaEngine({ modelPath, contextLength: 256, threads: 1 });
    const session = await doomed.createSession();
    await session.feed(prompt);
    const inFlight = session.feed([1, 2, 3]);
    await doomed.dispose();
    await inFlight.catch(() => undefined); // either finished or refused, never a crash
    await expectCode(session.sample(allowAll()), "ENGINE_DISPOSED");
    await expectCode(session.feed([1]), "ENGINE_DISPOSED");
    await expectCode(doomed.createSession(), "ENGINE_DISPOSED");
    expect(() => doomed.vocabulary.encode("x")).toThrow(PocketExtractError);
    await doomed.dispose(); // idempotent
    await session.close();
  });

  it("measures mask + sample overhead and decode speed (reported, not asserted)", async () => {
    const session: EngineSession = await engine.createSession();
    await session.feed(prompt);
    const masks = [allowAll(), forbid(allowAll(), ...EOS_IDS), allowOnly(1, 2, 3, 500, 60000)];
    let sampleMs = 0;
    let feedMs = 0;
    const steps = 200;
    for (let i = 0; i < steps; i++) {
      let t = performance.now();
      const id = await session.sample(masks[i % masks.length]!);
      sampleMs += performance.now() - t;
      t = performance.now();
      await session.feed([id]);
      feedMs += performance.now() - t;
    }
    await session.close();
    const perToken = (sampleMs + feedMs) / steps;
    console.log(
      `[llama tiny, 1 thread] mask+sample ${((sampleMs / steps) * 1000).toFixed(1)} us/token (${((100 * sampleMs) / (sampleMs + feedMs)).toFixed(1)}% of step), ` +
        `decode ${(feedMs / steps).toFixed(2)} ms/token, ${(1000 / perToken).toFixed(0)} tokens/s`,
    );
    expect(perToken).toBeGreaterThan(0);
  });
});
