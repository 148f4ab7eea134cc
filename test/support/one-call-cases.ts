/**
 * The cases every native engine's one-call path (EngineSession.feedAndSample: the draw happens on
 * the worker thread right after the forward pass, under the mask JS writes while the model runs)
 * must pass, for llama-one-call.test.ts and mnn-one-call.test.ts: exactly what feed, then sample
 * gives (same ids, same random stream), a JS-thread sample when the mask is written after the
 * pass ends, and an engine left usable when writing the mask fails.
 */
import { expect, it } from "vitest";
import { generate } from "../../src/decode/generate.js";
import type { Engine, EngineSession, SamplingOptions } from "../../src/engines/engine.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import { compileGrammar } from "../../src/mask/index.js";

export interface OneCallSubject {
  readonly engine: Engine;
  /** A chat prompt in the engine's vocabulary. */
  readonly prompt: readonly number[];
}

/** The session without feedAndSample: generate feeds and samples in two calls. */
const twoCalls = (s: EngineSession): EngineSession => ({ feed: (ids) => s.feed(ids), sample: (mask) => s.sample(mask), close: () => s.close() });

/** A random mask allowing about `density` of the ids (at least id 96). */
function randomMask(random: () => number, words: number, density: number): Uint32Array {
  const mask = new Uint32Array(words).map(() => {
    let word = 0;
    for (let bit = 0; bit < 32; bit++) if (random() < density) word |= 1 << bit;
    return word >>> 0;
  });
  mask[3] = 1;
  return mask;
}

/** Registers the one-call cases (inside a describe) on the subject `subject()` returns once set up. */
export function oneCallCases(subject: () => OneCallSubject): void {
  /** Steps of feed + sample under random masks, through feedAndSample or as two calls. */
  async function steps(sampling: SamplingOptions, oneCall: boolean, seed: number, fillDelayMs = 0): Promise<number[]> {
    const { engine, prompt } = subject();
    const random = mulberry32(seed);
    const words = Math.ceil(engine.vocabulary.width / 32);
    const masks = Array.from({ length: 12 }, (_, i) => randomMask(random, words, [0.001, 0.3, 0.9, 1][i % 4]!));
    const session = await engine.createSession({ sampling });
    try {
      expect(session.feedAndSample).toBeDefined();
      await session.feed(prompt);
      const ids: number[] = [];
      let next = [prompt[prompt.length - 1]!];
      for (const source of masks) {
        const mask = new Uint32Array(source.length);
        const fill = (): void => {
          const until = performance.now() + fillDelayMs;
          while (performance.now() < until); // a mask slower than the forward pass
          mask.set(source);
        };
        let id: number;
        if (oneCall) id = await session.feedAndSample!(next, mask, fill);
        else {
          await session.feed(next);
          fill();
          id = await session.sample(mask);
        }
        expect((source[id >>> 5]! >>> (id & 31)) & 1).toBe(1);
        ids.push(id);
        next = [id];
      }
      return ids;
    } finally {
      await session.close();
    }
  }

  it("draws the same ids as feed, then sample: greedy and seeded sampling, masks from 0.1% to all ids", async () => {
    for (const [i, sampling] of [{}, { temperature: 0.8, seed: 5 }, { temperature: 1, topP: 0.9, seed: 6 }, { temperature: 0.7, topK: 40, minP: 0.05, seed: 7 }].entries()) {
      const one = await steps(sampling, true, 10 + i);
      const two = await steps(sampling, false, 10 + i);
      expect(one, JSON.stringify(sampling)).toEqual(two);
    }
  });

  it("a mask written after the forward pass ends is sampled on the JS thread instead, with the same ids", async () => {
    const sampling = { temperature: 0.9, topP: 0.95, seed: 11 };
    expect(await steps(sampling, true, 21, 30)).toEqual(await steps(sampling, false, 21));
  });

  it("generate gives the same output through one call per token as through two, for greedy and seeded sampling", async () => {
    const { engine, prompt } = subject();
    const grammar = compileGrammar(
      { type: "object", properties: { name: { type: "string", maxLength: 20 }, age: { type: "integer" }, tags: { type: "array", items: { enum: ["a", "b", "c"] }, maxItems: 3 } }, required: ["name", "age", "tags"], additionalProperties: false },
      engine.vocabulary,
    ).tokens;
    for (const sampling of [{}, { temperature: 0.8, seed: 3 }, { temperature: 1.2, topP: 0.9, seed: 4 }]) {
      const run = async (wrap: (s: EngineSession) => EngineSession): Promise<string> => {
        const session = await engine.createSession({ sampling });
        try {
          return (await generate(wrap(session), grammar, prompt, { maxTokens: 60 })).text;
        } finally {
          await session.close();
        }
      };
      expect(await run((s) => s), JSON.stringify(sampling)).toBe(await run(twoCalls));
    }
  });

  it("a mask that fails to be written: the error reaches the caller after the forward pass, and the engine stays usable", async () => {
    const { engine, prompt } = subject();
    const session = await engine.createSession();
    try {
      await session.feed(prompt);
      const mask = new Uint32Array(Math.ceil(engine.vocabulary.width / 32)).fill(0xffffffff);
      await expect(
        session.feedAndSample!([prompt[prompt.length - 1]!], mask, () => {
          throw new Error("mask failed");
        }),
      ).rejects.toThrow("mask failed");
      const id = await session.feedAndSample!([5], mask, () => undefined);
      expect(id).toBeGreaterThanOrEqual(0);
    } finally {
      await session.close();
    }
  });
}
