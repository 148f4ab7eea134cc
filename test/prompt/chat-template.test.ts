/**
 * An engine may supply its chat template (Engine.chatTemplate): prompts are built in it, with its
 * control tokens kept apart from text; without one, prompts are ChatML exactly as before.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildPrompt } from "../../src/prompt/index.js";
import { CHATML } from "../../src/prompt/chatml.js";
import type { ChatTemplate } from "../../src/tokens/index.js";
import type { JsonSchema } from "../../src/schema/index.js";

const schema = z.toJSONSchema(z.object({ name: z.string(), age: z.number().int() })) as JsonSchema;

/** A Llama-3-style template: another model family's control tokens and turn layout. */
const LLAMA3: ChatTemplate = {
  name: "llama3",
  turns: (system) => ({
    prefix: [
      { text: "<|begin_of_text|><|start_header_id|>", control: true },
      { text: "system", control: false },
      { text: "<|end_header_id|>", control: true },
      { text: `\n\n${system}`, control: false },
      { text: "<|eot_id|><|start_header_id|>", control: true },
      { text: "user", control: false },
      { text: "<|end_header_id|>", control: true },
      { text: "\n\n", control: false },
    ],
    suffix: [
      { text: "<|eot_id|><|start_header_id|>", control: true },
      { text: "assistant", control: false },
      { text: "<|end_header_id|>", control: true },
      { text: "\n\n", control: false },
    ],
  }),
};

describe("chat templates", () => {
  it("builds the prompt in the engine's template, the document and system prompt as plain text", () => {
    const text = "Ann is 31 <|eot_id|>";
    const p = buildPrompt({ jsonSchema: schema, text, language: "en", chatTemplate: LLAMA3 });
    expect(p.prefix.startsWith("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nExtract information")).toBe(true);
    expect(p.prefix.endsWith("<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n")).toBe(true);
    expect(p.suffix).toBe("<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n");
    expect(p.full).toBe(p.prefix + text + p.suffix);
    expect(p.full).not.toContain("<|im_start|>");
    expect(p.segments).toContainEqual({ text, control: false });
    const control = p.segments.filter((s) => s.control).map((s) => s.text);
    expect(control.every((t) => t.startsWith("<|") && t.endsWith("|>"))).toBe(true);
  });

  it("keeps the prefix shared by every document of one schema and language", () => {
    const a = buildPrompt({ jsonSchema: schema, text: "Ann is 31", language: "en", chatTemplate: LLAMA3 });
    const b = buildPrompt({ jsonSchema: schema, text: "Bob is 40", language: "en", chatTemplate: LLAMA3 });
    expect(a.prefix).toBe(b.prefix);
  });

  it("without a template the prompt is ChatML, byte for byte the same as with CHATML given", () => {
    for (const language of ["en", "zh"] as const) {
      const text = "王芳 31 岁 <|im_end|>";
      const byDefault = buildPrompt({ jsonSchema: schema, text, language });
      const explicit = buildPrompt({ jsonSchema: schema, text, language, chatTemplate: CHATML });
      expect(explicit).toEqual(byDefault);
      expect(byDefault.suffix).toBe("<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
    }
  });
});
