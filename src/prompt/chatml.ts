/**
 * MNN-Pocket's chat template (Qwen3 family, ChatML) — the one place that knows it. Thinking is
 * off for extraction: the assistant turn opens with an empty think block, exactly what Qwen3's
 * template renders for `enable_thinking=false`, so the model starts on the answer.
 */

export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";

/** The assistant turn header with thinking disabled; generation continues right after it. */
export const ASSISTANT_OPEN = `${IM_START}assistant\n<think>\n\n</think>\n\n`;

/**
 * Texts must not smuggle in control tokens: a document containing "<|im_end|>" would close the
 * user turn if the tokenizer parsed special tokens in it. A zero-width space after "<" keeps the
 * characters readable to the model but no longer spells the token. Grounding spans refer to the
 * caller's original text, so this changes no offsets the caller sees.
 */
export function escapeControlTokens(text: string): string {
  return text.replace(/<\|(im_start|im_end|endoftext|think|\/think)\|>|<(\/?think)>/g, (m) => `<\u200b${m.slice(1)}`);
}

/** Splits a one-turn conversation around the user's document: `prefix + document + suffix`. */
export function chatTurns(system: string): { prefix: string; suffix: string } {
  return {
    prefix: `${IM_START}system\n${system}${IM_END}\n${IM_START}user\n`,
    suffix: `${IM_END}\n${ASSISTANT_OPEN}`,
  };
}
