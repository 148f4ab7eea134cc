/**
 * The re-ask of a retry in feedback mode (Instructor's approach): after the document, the model's
 * previous answer and what was wrong with it (JSON paths and messages), in the prompt's language,
 * then the request to answer again. It goes after the document, inside the user turn, so the
 * re-ask shares the first prompt's prefix (system turn and document) and its KV cache, and works
 * with any chat template (a template describes one turn: ChatTemplate.turns).
 */
import type { PromptLanguage } from "./language.js";

export interface FeedbackProblem {
  /** JSON Pointer of the value ("" for the whole answer). */
  readonly pointer: string;
  readonly message: string;
  /** A required field answered null: worded in the prompt's language instead of `message`. */
  readonly missingRequired?: boolean;
}

export interface Feedback {
  /** The previous answer, as the model wrote it. */
  readonly previous: string;
  readonly problems: readonly FeedbackProblem[];
  /** The previous answer ran out of the output budget and was completed short. */
  readonly cutShort: boolean;
}

/** Problems listed at most; the rest are counted (a small model reads a short list better). */
export const MAX_FEEDBACK_PROBLEMS = 8;

const TEXT: Readonly<
  Record<PromptLanguage, { previous: string; problems: string; missing: string; cutShort: string; more: (n: number) => string; again: string; colon: string }>
> = {
  en: {
    previous: "Your previous answer:",
    problems: "It has these problems:",
    missing: "required, but the answer was null; give the value as the text states it",
    cutShort: "The answer was cut off at the output limit; keep the values shorter.",
    more: (n) => `- and ${n} more`,
    again: "Answer again with the corrected JSON object; keep the values that were right.",
    colon: ": ",
  },
  zh: {
    previous: "你上一次的回答：",
    problems: "其中有这些问题：",
    missing: "必填字段，却填了 null；请按原文填写它的值",
    cutShort: "回答超出了输出长度上限，被截断了；请把字段值写短一些。",
    more: (n) => `- 另有 ${n} 个问题`,
    again: "请重新输出修正后的 JSON 对象，正确的值保持不变。",
    colon: "：",
  },
};

/** The re-ask text placed after the document (starting with a blank line). */
export function feedbackText(feedback: Feedback, lang: PromptLanguage): string {
  const t = TEXT[lang];
  const lines = uniqueProblems(feedback.problems).map((p) => `- ${p.pointer || "/"}${t.colon}${p.missingRequired ? t.missing : p.message}`);
  const shown = lines.slice(0, MAX_FEEDBACK_PROBLEMS);
  if (lines.length > shown.length) shown.push(t.more(lines.length - shown.length));
  const parts = [t.previous, feedback.previous];
  if (shown.length > 0) parts.push(t.problems, ...shown);
  if (feedback.cutShort) parts.push(t.cutShort);
  parts.push(t.again);
  return `\n\n${parts.join("\n")}`;
}

/** One line per path and message: ajv and the schema's own validation can report the same one. */
function uniqueProblems(problems: readonly FeedbackProblem[]): FeedbackProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.pointer}\u0000${p.missingRequired ? "" : p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
