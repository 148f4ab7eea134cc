/**
 * Issue 15, item 11: every option is range-checked before any work, with an OptionError naming
 * the option, the bad value and the allowed range (before: `threads: 100000` hung over 60 s,
 * `retries: -1` or NaN resolved extract() to undefined, `maxTokens: "40"` gave a misleading
 * message about the schema's shortest document).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, OptionError } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { expectCode, withinBounds } from "./bounds.js";

const Schema = z.object({ name: z.string().max(10) });
const TEXT = "name: Alice";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

function expectOptionError(error: unknown, option: string, value: unknown): void {
  const e = expectCode(error, "OPTION_INVALID");
  expect(e).toBeInstanceOf(OptionError);
  expect((e as OptionError).option).toBe(option);
  expect(Object.is((e as OptionError).value, value)).toBe(true);
  expect(e.message).toContain(option);
  expect(e.message).toMatch(/must be (an integer|a number|a finite number)/);
}

const BAD_CALL_OPTIONS: [string, unknown][] = [
  ["retries", -1],
  ["retries", Number.NaN],
  ["retries", 1e9],
  ["maxTokens", "40"],
  ["maxTokens", 0],
  ["maxTokens", 1.5],
  ["maxTextBytes", 0],
  ["defaultMaxStringLength", -3],
];

describe("extract() options", () => {
  for (const [option, value] of BAD_CALL_OPTIONS) {
    it(`${option}: ${String(value)} is an OptionError, never undefined`, async () => {
      const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"Alice"}' }) });
      const { error } = await withinBounds({ ms: 5_000, rssMB: 200 }, () => ex.extract(Schema, TEXT, { [option]: value }));
      expectOptionError(error, option, value);
    });
  }

  it("a bad default given to createExtractor fails at creation", async () => {
    const engine = new ScriptedEngine({ vocabulary: vocab, script: "{}" });
    const { error } = await withinBounds({ ms: 1_000, rssMB: 50 }, () => createExtractor({ engine, retries: -1 }));
    expectOptionError(error, "retries", -1);
  });

  it("sampling is checked for every engine, the test engines included", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"Alice"}' }) });
    const { error } = await withinBounds({ ms: 5_000, rssMB: 100 }, () => ex.extract(Schema, TEXT, { sampling: { topP: 2 } }));
    expectOptionError(error, "sampling.topP", 2);
  });

  it("extractMany: concurrency out of range", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"Alice"}' }) });
    const { error } = await withinBounds({ ms: 5_000, rssMB: 100 }, async () => {
      for await (const _ of ex.extractMany(Schema, [TEXT], { concurrency: 100_000 })) void _;
    });
    expectOptionError(error, "concurrency", 100_000);
  });
});

describe("engine options, before any model is read", () => {
  for (const [option, value] of [["threads", 100_000], ["threads", 0], ["contextLength", 2 ** 40], ["contextLength", "4096"]] as const) {
    it(`${option}: ${String(value)} fails fast on the llama.cpp engine`, async () => {
      const model = await ensureGgufFixture("tiny");
      const { error } = await withinBounds({ ms: 2_000, rssMB: 100 }, () => createExtractor({ model, [option]: value }));
      expectOptionError(error, option, value);
    });
  }
});
