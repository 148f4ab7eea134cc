/**
 * Evaluate and sample in one native call (EngineSession.feedAndSample, the addon's
 * evaluateSample) on the MNN engine, toy MNN model (fixtures/mnn): the cases of
 * test/support/one-call-cases.ts, plus the addon's own contract (-2 without maskReady, coded
 * errors). Needs MNN_DIR and the addon built against it; skipped with a warning otherwise.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMnnToyModel } from "../../fixtures/mnn/index.js";
import { loadMnnAddon, type NativeMnnModel } from "../../src/engines/mnn/addon.js";
import { createMnnEngine, type MnnEngine } from "../../src/engines/mnn/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { oneCallCases } from "../support/one-call-cases.js";

const WORDS = 65536 / 32;
const HAS_MNN = Boolean(process.env.MNN_DIR);
if (!HAS_MNN) {
  console.warn("test/engines/mnn-one-call.test.ts: SKIPPED, MNN_DIR is not set. To run it, build MNN and the addon (README section on the MNN engine), then MNN_DIR=<prefix> npx vitest run test/engines/mnn-one-call.test.ts");
}

describe.skipIf(!HAS_MNN)("MNN: evaluate and sample in one native call (toy MNN model)", () => {
  let engine: MnnEngine;
  let native: NativeMnnModel;
  let prompt: number[];

  beforeAll(async () => {
    const modelDir = await ensureMnnToyModel();
    const vocabulary = await fixtureVocabulary();
    engine = await createMnnEngine({ modelDir, threads: 1, vocabulary });
    native = await loadMnnAddon().loadModel(join(modelDir, "config.json"), { threads: 1 });
    prompt = vocabulary.encode('<|im_start|>user\nExtract {"name": "Ada", "age": 36}<|im_end|>\n<|im_start|>assistant\n');
  });
  afterAll(async () => {
    await engine?.dispose();
    native?.free();
  });

  oneCallCases(() => ({ engine, prompt }));

  it("the addon: -2 and nothing drawn without maskReady, the same draw as evaluate + sample with it, and the random stream untouched by a -2", async () => {
    const mask = new Uint32Array(WORDS).fill(0xffffffff);
    const drawAfter = async (oneCall: boolean, ready: boolean): Promise<number[]> => {
      native.seed(9);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const tokens = Int32Array.from([100 + i]);
        if (oneCall) {
          const drawn = native.evaluateSample(native.cached(), tokens, mask, 1, 0, 1, 0);
          if (ready) native.maskReady();
          const id = await drawn;
          if (!ready) expect(id).toBe(-2);
          ids.push(id >= 0 ? id : native.sample(mask, 1, 0, 1, 0));
        } else {
          await native.evaluate(native.cached(), tokens);
          ids.push(native.sample(mask, 1, 0, 1, 0));
        }
      }
      return ids;
    };
    await native.evaluate(0, Int32Array.from([1, 2, 3]));
    const two = await drawAfter(false, false);
    await native.evaluate(0, Int32Array.from([1, 2, 3]));
    // Without maskReady every step falls back to sample(): the ids, drawn from the same stream, agree.
    expect(await drawAfter(true, false)).toEqual(two);
    await native.evaluate(0, Int32Array.from([1, 2, 3]));
    // With maskReady right after the call: drawn on the worker, or on the JS thread where the toy's pass was faster.
    expect(await drawAfter(true, true)).toEqual(two);
    expect(native.cached()).toBe(3 + 6);
    // A mask that allows nothing: -1 from the worker, or -2 when the toy's pass beat maskReady() and then -1 from sample().
    const empty = new Uint32Array(WORDS);
    const none = native.evaluateSample(native.cached(), Int32Array.from([7]), empty, 0, 0, 1, 0);
    native.maskReady();
    const drawn = await none;
    expect(drawn === -2 ? native.sample(empty, 0, 0, 1, 0) : drawn).toBe(-1);
  });

  it("the addon refuses misuse with coded errors: busy, out-of-range ids and keeps, short masks", async () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return undefined;
    };
    const mask = new Uint32Array(WORDS).fill(0xffffffff);
    await native.evaluate(0, Int32Array.from([1, 2]));
    const pending = native.evaluateSample(2, Int32Array.from([3]), mask, 0, 0, 1, 0);
    expect(code(() => native.evaluateSample(3, Int32Array.from([4]), mask, 0, 0, 1, 0))).toBe("BUSY");
    expect(code(() => native.sample(mask, 0, 0, 1))).toBe("BUSY");
    native.maskReady();
    // An id, or -2 when the toy's forward pass ended before maskReady().
    expect(await pending).toBeGreaterThanOrEqual(-2);
    expect(await pending).not.toBe(-1);
    expect(code(() => native.evaluateSample(3, Int32Array.from([65536]), mask, 0, 0, 1, 0))).toBe("RANGE");
    expect(code(() => native.evaluateSample(9, Int32Array.from([1]), mask, 0, 0, 1, 0))).toBe("RANGE");
    expect(code(() => native.evaluateSample(3, new Int32Array(0), mask, 0, 0, 1, 0))).toBe("RANGE");
    expect(code(() => native.evaluateSample(3, Int32Array.from([1]), new Uint32Array(3), 0, 0, 1, 0))).toBe("MASK_SIZE");
    expect(native.cached()).toBe(3);
  });
});
