/**
 * Decode and sample in one native call (EngineSession.feedAndSample) on the llama.cpp engine, tiny
 * GGUF fixture: the cases of test/support/one-call-cases.ts.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { ensureFixtureTokenizer } from "../../fixtures/vocab/index.js";
import { createLlamaEngine, type LlamaEngine } from "../../src/engines/llama/index.js";
import { loadTokenizerJson } from "../../src/tokens/index.js";
import { oneCallCases } from "../support/one-call-cases.js";

let engine: LlamaEngine;
let prompt: number[];

beforeAll(async () => {
  const vocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: 65536 });
  engine = await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny"), contextLength: 1024, threads: 1, vocabulary });
  prompt = vocabulary.encode('<|im_start|>user\nExtract {"name": "Ada", "age": 36}<|im_end|>\n<|im_start|>assistant\n');
});
afterAll(async () => {
  await engine?.dispose();
});

describe("llama.cpp: feed and sample in one native call", () => {
  oneCallCases(() => ({ engine, prompt }));
});
