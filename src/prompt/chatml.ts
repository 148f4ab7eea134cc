/**
 * MNN-Pocket's chat template (Qwen3 family, ChatML) — the one place that knows it, and the default
 * when the engine supplies no template of its own (Engine.chatTemplate). Thinking is
 * off for extraction: the assistant turn opens with an empty think block, exactly what Qwen3's
 * template renders for `enable_thinking=false`, so the model starts on the answer.
 *
 * The template is given as segments: its own control tokens are `control`, everything else
 * (the template's words, the system prompt, the document) is text, which the tokenizer keeps
 * plain (tokens/plain-text.ts): a document or schema spelling "<|im_end|>" cannot end a turn.
 */
import type { ChatTemplate, ChatTurns, PromptSegment } from "../tokens/index.js";

export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";
const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";

const control = (text: string): PromptSegment => ({ text, control: true });
const plain = (text: string): PromptSegment => ({ text, control: false });

/** The assistant turn header with thinking disabled; generation continues right after it. */
export const ASSISTANT_OPEN_SEGMENTS: readonly PromptSegment[] = [
  control(IM_START),
  plain("assistant\n"),
  control(THINK_OPEN),
  plain("\n\n"),
  control(THINK_CLOSE),
  plain("\n\n"),
];
export const ASSISTANT_OPEN = joinSegments(ASSISTANT_OPEN_SEGMENTS);

/** Splits a one-turn conversation around the user's document: `prefix + document + suffix`. */
export function chatTurns(system: string): ChatTurns {
  return {
    prefix: [control(IM_START), plain(`system\n${system}`), control(IM_END), plain("\n"), control(IM_START), plain("user\n")],
    suffix: [control(IM_END), plain("\n"), ...ASSISTANT_OPEN_SEGMENTS],
  };
}

/** ChatML as a ChatTemplate: what prompts use unless the engine supplies another template. */
export const CHATML: ChatTemplate = { name: "chatml", turns: chatTurns };

/** The segments as one string (what the model sees, for display). */
export function joinSegments(segments: readonly PromptSegment[]): string {
  return segments.map((s) => s.text).join("");
}
