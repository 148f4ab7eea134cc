/**
 * Which language a text is in (the prompt language, grounding defaults). "auto" reads the text: Chinese when CJK characters
 * make up at least 40% of its words, counting each CJK character as a word (Chinese texts often
 * carry Latin product names and units; English texts sometimes quote a Chinese name).
 */

export type PromptLanguage = "zh" | "en";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const LATIN_WORD = /[A-Za-z\u00c0-\u024f]+/g;
export const CJK_SHARE_FOR_ZH = 0.4;

export function detectLanguage(text: string): PromptLanguage {
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text.match(LATIN_WORD)?.length ?? 0;
  return cjk > 0 && cjk / (cjk + words) >= CJK_SHARE_FOR_ZH ? "zh" : "en";
}
