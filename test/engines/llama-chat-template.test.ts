/**
 * The llama.cpp engine supplies the chat template it was given (Engine.chatTemplate), and none
 * (ChatML prompts) by default: the GGUF's own template is not read.
 */
import { describe, expect, it } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createLlamaEngine } from "../../src/engines/llama/index.js";
import type { ChatTemplate } from "../../src/tokens/index.js";

const PLAIN: ChatTemplate = { name: "plain", turns: (system) => ({ prefix: [{ text: `${system}\n`, control: false }], suffix: [{ text: "\n", control: false }] }) };

describe("llama.cpp engine chat template", () => {
  it("is the one given, or absent", async () => {
    const modelPath = await ensureGgufFixture("tiny");
    const given = await createLlamaEngine({ modelPath, threads: 1, chatTemplate: PLAIN });
    const plain = await createLlamaEngine({ modelPath, threads: 1 });
    try {
      expect(given.chatTemplate).toBe(PLAIN);
      expect(plain.chatTemplate).toBeUndefined();
    } finally {
      await given.dispose();
      await plain.dispose();
    }
  });
});
