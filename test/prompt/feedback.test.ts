/**
 * A retry's re-ask prompt (feedback mode): the first prompt's prefix and document unchanged, then
 * the previous answer and its problems in the prompt's language, concise (deduplicated, at most
 * MAX_FEEDBACK_PROBLEMS lines), then the same assistant opening.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildPrompt, MAX_FEEDBACK_PROBLEMS, type Feedback } from "../../src/prompt/index.js";
import type { JsonSchema } from "../../src/schema/index.js";

const schema = z.toJSONSchema(z.object({ name: z.string(), age: z.number().int() })) as JsonSchema;
const previous = '{"name":null,"age":-3}';
const feedback: Feedback = {
  previous,
  cutShort: false,
  problems: [
    { pointer: "/name", message: "required field not stated in the text (the model answered null)", missingRequired: true },
    { pointer: "/age", message: "must be >= 0" },
    { pointer: "/age", message: "must be >= 0" },
  ],
};

describe("buildPrompt with feedback", () => {
  it("keeps the prefix and the document, and puts the re-ask before the assistant turn", () => {
    const text = "Alice is 31.";
    const first = buildPrompt({ jsonSchema: schema, text });
    const reask = buildPrompt({ jsonSchema: schema, text, feedback });
    expect(reask.prefix).toBe(first.prefix);
    expect(reask.full.startsWith(first.prefix + text)).toBe(true);
    expect(reask.full.endsWith(first.suffix)).toBe(true);
    expect(reask.full).toBe(
      first.prefix +
        text +
        `\n\nYour previous answer:\n${previous}\nIt has these problems:\n` +
        "- /name: required, but the answer was null; give the value as the text states it\n" +
        "- /age: must be >= 0\n" +
        "Answer again with the corrected JSON object; keep the values that were right." +
        first.suffix,
    );
    // The document and the feedback are plain text: only the template's tokens are control.
    expect(reask.segments.filter((s) => s.control)).toEqual(first.segments.filter((s) => s.control));
  });

  it("speaks Chinese for a Chinese prompt", () => {
    const reask = buildPrompt({ jsonSchema: schema, text: "爱丽丝今年三十一岁。", feedback: { ...feedback, cutShort: true } });
    expect(reask.language).toBe("zh");
    expect(reask.suffix).toContain(`你上一次的回答：\n${previous}\n其中有这些问题：\n- /name：必填字段，却填了 null；请按原文填写它的值\n- /age：must be >= 0\n`);
    expect(reask.suffix).toContain("回答超出了输出长度上限，被截断了；请把字段值写短一些。\n请重新输出修正后的 JSON 对象，正确的值保持不变。");
  });

  it("lists at most MAX_FEEDBACK_PROBLEMS problems and counts the rest; a cut-short answer without issues says so", () => {
    const many = Array.from({ length: MAX_FEEDBACK_PROBLEMS + 3 }, (_, i) => ({ pointer: `/items/${i}`, message: "must be string" }));
    const reask = buildPrompt({ jsonSchema: schema, text: "Alice is 31.", feedback: { previous, cutShort: false, problems: many } });
    expect(reask.suffix.match(/^- \/items\//gm)).toHaveLength(MAX_FEEDBACK_PROBLEMS);
    expect(reask.suffix).toContain("- and 3 more\n");
    const cut = buildPrompt({ jsonSchema: schema, text: "Alice is 31.", feedback: { previous, cutShort: true, problems: [] } });
    expect(cut.suffix).not.toContain("It has these problems");
    expect(cut.suffix).toContain("The answer was cut off at the output limit; keep the values shorter.");
  });
});
