/**
 * extract() builds the prompt in the engine's chat template when the engine supplies one
 * (Engine.chatTemplate), and in ChatML when it does not.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { ChatTemplate } from "../../src/tokens/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

/** A plain-text template: no control tokens at all, so any vocabulary can encode it. */
const PLAIN: ChatTemplate = {
  name: "plain",
  turns: (system) => ({
    prefix: [{ text: `### System\n${system}\n### User\n`, control: false }],
    suffix: [{ text: "\n### Assistant\n", control: false }],
  }),
};

const Person = z.object({ name: z.string() });
let vocab: Vocabulary;

beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

/** The prompt text the engine was fed, for an extraction of `text`. */
async function promptSeen(chatTemplate: ChatTemplate | undefined, text: string): Promise<string> {
  let seen = "";
  const script = (prompt: string): string => {
    seen = prompt;
    return '{"name":"Ann"}';
  };
  const extractor = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script, chatTemplate }) });
  const result = await extractor.extract(Person, text, { language: "en" });
  expect(result.ok).toBe(true);
  return seen;
}

describe("extract with an engine's chat template", () => {
  it("feeds the prompt in the engine's template", async () => {
    const prompt = await promptSeen(PLAIN, "Ann wrote this.");
    expect(prompt.startsWith("### System\nExtract information")).toBe(true);
    expect(prompt.endsWith("### User\nAnn wrote this.\n### Assistant\n")).toBe(true);
    expect(prompt).not.toContain("<|im_start|>");
  });

  it("feeds ChatML when the engine supplies none", async () => {
    const prompt = await promptSeen(undefined, "Ann wrote this.");
    expect(prompt.startsWith("<|im_start|>system\n")).toBe(true);
    expect(prompt.endsWith("<|im_start|>user\nAnn wrote this.<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
  });
});
