/**
 * Retries with feedback through the public API (`retryMode: "feedback"`, Instructor's re-ask):
 * an invalid first answer, then a prompt that holds the previous output and its issues (paths and
 * messages, in the prompt's language) after the same prefix, decoded under the same grammar and
 * sampling; every attempt reported in `stats.attemptLog`. Resample mode keeps its prompt and seeds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, extract, type Extractor, type ExtractOptions } from "../../src/index.js";
import type { Engine } from "../../src/engines/engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { recordingEngine, type RecordingEngine } from "../support/recording-engine.js";

const Order = z
  .object({
    product: z.string(),
    quantity: z.number().int(),
    price: z.number(),
  })
  .refine((o) => o.quantity > 0, { message: "quantity must be positive", path: ["quantity"] });

const ZH_TEXT = "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价6299元。";
const EN_TEXT = "The customer bought 3 laptops, model Ruisi Book Pro 14, at 6299 each.";
const ZH_BAD = '{"product":"锐思Book Pro 14","quantity":0,"price":null}';
const ZH_GOOD = '{"product":"锐思Book Pro 14","quantity":3,"price":6299}';
const EN_BAD = '{"product":"Ruisi Book Pro 14","quantity":0,"price":6299}';
const EN_GOOD = '{"product":"Ruisi Book Pro 14","quantity":3,"price":6299}';

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

/** A scripted engine answering from a list (the last answer repeats), recording each session's
 *  prompt and sampling. */
function answering(answers: readonly string[], contextLength?: number): RecordingEngine {
  return recordingEngine(vocab, (n) => answers[Math.min(n, answers.length) - 1]!, contextLength);
}

async function extractor(engine: Engine, options: ExtractOptions = {}): Promise<Extractor> {
  return createExtractor({ engine, ...options });
}

/** The first prompt up to the end of the document: what a re-ask must start with. */
const upToDocument = (prompt: string, text: string): string => prompt.slice(0, prompt.indexOf(text) + text.length);

describe("retryMode: feedback", () => {
  it("re-asks with the previous output and its issues after the same prefix, and returns the second answer", async () => {
    const { engine, prompts, sampling } = answering([EN_BAD, EN_GOOD]);
    const ex = await extractor(engine);
    const r = await ex.extract(Order, EN_TEXT, { retries: 2, retryMode: "feedback" });
    expect(r.ok).toBe(true);
    expect(r.data).toEqual({ product: "Ruisi Book Pro 14", quantity: 3, price: 6299 });
    expect(r.raw).toBe(EN_GOOD);
    expect(r.stats.attempts).toBe(2);
    expect(prompts).toHaveLength(2);
    const [first, reask] = [prompts[0]!, prompts[1]!];
    expect(reask.startsWith(upToDocument(first, EN_TEXT))).toBe(true);
    expect(first).not.toContain("Your previous answer:");
    expect(reask).toContain(`Your previous answer:\n${EN_BAD}\nIt has these problems:\n- /quantity: quantity must be positive\n`);
    expect(reask).toContain("Answer again with the corrected JSON object");
    // The re-ask ends as the first prompt does: the assistant turn opened for the JSON.
    const tail = first.slice(first.indexOf(EN_TEXT) + EN_TEXT.length);
    expect(reask.endsWith(tail)).toBe(true);
    // Same sampling as the first attempt (greedy here): the prompt, not the seed, changes.
    expect(sampling).toEqual([undefined, undefined]);
    expect(r.stats.attemptLog).toEqual([
      { attempt: 1, prompt: "first", ok: false, raw: EN_BAD, issues: [expect.objectContaining({ pointer: "/quantity", message: "quantity must be positive" })], cutShort: false },
      { attempt: 2, prompt: "feedback", ok: true, raw: EN_GOOD, issues: [], cutShort: false },
    ]);
    expect(r.stats.promptTokens).toBeGreaterThan(0);
  });

  it("words the feedback in Chinese for a Chinese prompt, a required null included", async () => {
    const { engine, prompts } = answering([ZH_BAD, ZH_GOOD]);
    const r = await (await extractor(engine)).extract(Order, ZH_TEXT, { retries: 1, retryMode: "feedback" });
    expect(r.ok).toBe(true);
    expect(r.stats.attempts).toBe(2);
    const [first, reask] = [prompts[0]!, prompts[1]!];
    expect(reask.startsWith(upToDocument(first, ZH_TEXT))).toBe(true);
    expect(reask).toContain(`你上一次的回答：\n${ZH_BAD}\n其中有这些问题：\n`);
    expect(reask).toContain("- /price：必填字段，却填了 null；请按原文填写它的值");
    expect(reask).toContain("请重新输出修正后的 JSON 对象");
    expect(reask).not.toContain("Your previous answer");
    expect(r.stats.attemptLog?.[0]?.issues.map((i) => i.pointer)).toContain("/price");
  });

  it("follows `language` over the text's own: English feedback for a Chinese text with language en", async () => {
    const { engine, prompts } = answering([ZH_BAD, ZH_GOOD]);
    await (await extractor(engine)).extract(Order, ZH_TEXT, { retries: 1, retryMode: "feedback", language: "en" });
    expect(prompts[1]).toContain("- /price: required, but the answer was null; give the value as the text states it");
  });

  it("each re-ask shows the latest answer only; when every attempt fails the last is returned with the full log", async () => {
    const second = EN_BAD.replace('"quantity":0', '"quantity":-1');
    const { engine, prompts } = answering([EN_BAD, second]);
    const r = await (await extractor(engine, { retries: 2, retryMode: "feedback" })).extract(Order, EN_TEXT);
    expect(r.ok).toBe(false);
    expect(r.raw).toBe(second);
    expect(r.stats.attempts).toBe(3);
    expect(prompts[2]).toContain(second);
    expect(prompts[2]).not.toContain(EN_BAD);
    expect(r.stats.attemptLog?.map((a) => [a.attempt, a.prompt, a.ok])).toEqual([
      [1, "first", false],
      [2, "feedback", false],
      [3, "feedback", false],
    ]);
  });

  it("falls back to resampling when the re-ask would not fit the model context", async () => {
    const maxTokens = 64;
    const probe = answering([EN_GOOD]);
    const { stats } = await (await extractor(probe.engine)).extract(Order, EN_TEXT, { maxTokens });
    const tight = answering([EN_BAD, EN_GOOD], stats.promptTokens + maxTokens);
    const r = await (await extractor(tight.engine)).extract(Order, EN_TEXT, { maxTokens, retries: 1, retryMode: "feedback" });
    expect(r.ok).toBe(true);
    expect(tight.prompts[1]).toBe(tight.prompts[0]);
    expect(tight.sampling[1]).toEqual({ temperature: 0.7, seed: 1 });
    expect(r.stats.attemptLog?.map((a) => a.prompt)).toEqual(["first", "resample"]);
  });

  it("streams each attempt from the start, the re-ask's as attempt 2", async () => {
    const { engine } = answering([EN_BAD, EN_GOOD]);
    const stream = (await extractor(engine)).stream(Order, EN_TEXT, { retries: 1, retryMode: "feedback" });
    const attempts = new Set<number>();
    for await (const event of stream) if (event.type === "partial") attempts.add(event.attempt);
    expect([...attempts]).toEqual([1, 2]);
    expect((await stream.result).data).toEqual({ product: "Ruisi Book Pro 14", quantity: 3, price: 6299 });
  });
});

describe("retryMode: resample (the default) is unchanged", () => {
  it("runs the same prompt with the next seeds at temperature 0.7 and logs the attempts", async () => {
    const { engine, prompts, sampling } = answering([EN_BAD]);
    const r = await (await extractor(engine)).extract(Order, EN_TEXT, { retries: 2, sampling: { seed: 5 } });
    expect(r.ok).toBe(false);
    expect(r.stats.attempts).toBe(3);
    expect(new Set(prompts).size).toBe(1);
    expect(sampling).toEqual([{ seed: 5 }, { temperature: 0.7, seed: 6 }, { temperature: 0.7, seed: 7 }]);
    expect(r.stats.attemptLog?.map((a) => a.prompt)).toEqual(["first", "resample", "resample"]);
  });

  it("reports no log when the first attempt is returned", async () => {
    const { engine } = answering([EN_GOOD]);
    const r = await (await extractor(engine)).extract(Order, EN_TEXT, { retries: 2, retryMode: "feedback" });
    expect(r.stats.attempts).toBe(1);
    expect(r.stats.attemptLog).toBeUndefined();
  });
});

describe("retryMode option checks", () => {
  it.each([["again"], [""], [1], [null]])("rejects retryMode %j with an OptionError naming it", async (retryMode) => {
    const { engine, sampling } = answering([EN_GOOD]);
    const bad = { retryMode } as unknown as ExtractOptions;
    await expect(createExtractor({ engine, ...bad })).rejects.toMatchObject({ code: "OPTION_INVALID", option: "retryMode" });
    const ex = await extractor(engine);
    await expect(ex.extract(Order, EN_TEXT, bad)).rejects.toThrow(/retryMode must be "resample" or "feedback"/);
    await expect(extract(Order, EN_TEXT, { engine, ...bad })).rejects.toMatchObject({ code: "OPTION_INVALID" });
    expect(sampling).toHaveLength(0);
  });
});
