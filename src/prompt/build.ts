/**
 * Builds the extraction prompt: system turn (instruction, schema description, few-shot examples),
 * the document as the user turn (in a retry's re-ask, followed by the previous answer and its
 * problems: feedback.ts), and the assistant turn opened, in the engine's chat template
 * (by default ChatML, with thinking off). Everything before the document is `prefix` and depends only
 * on the schema and options (and the language, when "auto" picks it from the text), so a batch
 * over one schema shares its KV cache.
 */
import { PocketExtractError } from "../errors.js";
import type { JsonSchema } from "../schema/index.js";
import { validate } from "../validate/index.js";
import type { ChatTemplate, PromptSegment } from "../tokens/index.js";
import { CHATML, joinSegments } from "./chatml.js";
import { describeSchema } from "./describe-schema.js";
import { feedbackText, type Feedback } from "./feedback.js";
import { detectLanguage, type PromptLanguage } from "./language.js";

export interface PromptExample {
  readonly text: string;
  readonly output: unknown;
}

export interface PromptOptions {
  readonly jsonSchema: JsonSchema;
  readonly text: string;
  /** Language of the instruction; "auto" (default) follows the text (see language.ts). */
  readonly language?: "auto" | PromptLanguage;
  /** Worked examples, each validated against `jsonSchema` (OPTION_INVALID when one is not). */
  readonly examples?: readonly PromptExample[];
  /** Replaces the default instruction sentence(s); the schema and examples still follow. */
  readonly instruction?: string;
  /** The engine's chat template (Engine.chatTemplate); ChatML, MNN-Pocket's, when absent. */
  readonly chatTemplate?: ChatTemplate;
  /** A retry's re-ask (feedback.ts), placed after the document: the prefix stays the same. */
  readonly feedback?: Feedback;
}

export interface Prompt {
  /** Everything before the document text: identical for every document with the same schema,
   *  options and language. */
  readonly prefix: string;
  /** Everything after the document text (a re-ask's feedback included), up to where the model
   *  starts writing JSON. */
  readonly suffix: string;
  /** prefix + document + suffix. */
  readonly full: string;
  /** `full` as segments: only the template's own control tokens are `control`; the document,
   *  the schema description, the instruction and the examples are plain text (tokenize with
   *  `encodeSegments`, never as one string with special tokens recognised). */
  readonly segments: readonly PromptSegment[];
  readonly language: PromptLanguage;
}

const TEXT: Readonly<Record<PromptLanguage, { instruction: string; fields: string; example: string; input: string; output: string }>> = {
  en: {
    instruction:
      "Extract information from the user's text into one JSON object with the fields below. Copy values as they are written in the text. Use null when the text does not state a field; never guess. Reply with the JSON object only.",
    fields: "Fields:",
    example: "Example",
    input: "Text:",
    output: "JSON:",
  },
  zh: {
    instruction: "从用户给出的文本中抽取信息，输出一个包含下列字段的 JSON 对象。字段值按原文照抄。文本没有提到的字段填 null，不要猜测。只输出 JSON 对象。",
    fields: "字段：",
    example: "示例",
    input: "文本：",
    output: "JSON：",
  },
};

function checkedExamples(examples: readonly PromptExample[], schema: JsonSchema): readonly PromptExample[] {
  examples.forEach((ex, i) => {
    if (typeof ex.text !== "string" || ex.text.trim() === "") {
      throw new PocketExtractError("OPTION_INVALID", `examples[${i}]: text must be a non-empty string`);
    }
    const r = validate(ex.output, schema);
    if (!r.ok) {
      const why = r.issues.map((x) => `${x.pointer || "/"} ${x.message}`).join("; ");
      throw new PocketExtractError("OPTION_INVALID", `examples[${i}]: output does not match the schema: ${why}`);
    }
  });
  return examples;
}

/** The system turn's content for a schema, language and options. */
export function systemPrompt(schema: JsonSchema, lang: PromptLanguage, examples: readonly PromptExample[], instruction?: string): string {
  const t = TEXT[lang];
  const parts = [instruction?.trim() || t.instruction, `${t.fields}\n${describeSchema(schema, lang)}`];
  examples.forEach((ex, i) => {
    const n = examples.length > 1 ? ` ${i + 1}` : "";
    parts.push(`${t.example}${n}\n${t.input}\n${ex.text}\n${t.output}\n${JSON.stringify(ex.output)}`);
  });
  return parts.join("\n\n");
}

export function buildPrompt(options: PromptOptions): Prompt {
  const lang = !options.language || options.language === "auto" ? detectLanguage(options.text) : options.language;
  if (lang !== "zh" && lang !== "en") throw new PocketExtractError("OPTION_INVALID", `language must be "auto", "zh" or "en", got ${JSON.stringify(lang)}`);
  const examples = checkedExamples(options.examples ?? [], options.jsonSchema);
  const turns = (options.chatTemplate ?? CHATML).turns(systemPrompt(options.jsonSchema, lang, examples, options.instruction));
  const after = options.feedback ? [{ text: feedbackText(options.feedback, lang), control: false }, ...turns.suffix] : turns.suffix;
  const segments = [...turns.prefix, { text: options.text, control: false }, ...after];
  const prefix = joinSegments(turns.prefix);
  const suffix = joinSegments(after);
  return { prefix, suffix, full: prefix + options.text + suffix, segments, language: lang };
}
