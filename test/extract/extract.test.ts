import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, extract, type Extractor } from "../../src/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { compileValidator } from "../../src/validate/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const Order = z.object({
  product: z.string().describe("product name"),
  quantity: z.number().int().min(1),
  price: z.number().nullable(),
  note: z.string().optional(),
});

const TEXT = "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价¥6,299.00。";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

function scripted(output: string, contextLength?: number): Promise<Extractor> {
  return createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: output, contextLength }) });
}

describe("extract() through the real mask path", () => {
  it("returns typed data with found fields and spans into the text", async () => {
    const ex = await scripted('{"product":"锐思Book Pro 14","quantity":3,"price":6299,"note":null}');
    const r = await ex.extract(Order, TEXT);
    expect(r.ok).toBe(true);
    expect(r.data).toEqual({ product: "锐思Book Pro 14", quantity: 3, price: 6299 });
    const product = r.fields.find((f) => f.pointer === "/product")!;
    expect(product.status).toBe("found");
    expect(TEXT.slice(product.best!.start, product.best!.end)).toBe("锐思Book Pro 14");
    expect(r.fields.find((f) => f.pointer === "/quantity")!.status).toBe("found");
    expect(r.stats.tokensForced).toBeGreaterThan(0);
    expect(r.stats.stopReason).toBe("closed"); // nothing can follow the closing brace: no eos step needed
  });

  it("flags a value that is not in the text as fabricated", async () => {
    const ex = await scripted('{"product":"ThinkPad X1","quantity":3,"price":6299}');
    const r = await ex.extract(Order, TEXT);
    expect(r.fields.find((f) => f.pointer === "/product")!.status).toBe("fabricated");
  });

  it("reports a required field answered with null as invalid: ok false, data null, partial kept", async () => {
    const ex = await scripted('{"product":null,"quantity":3,"price":null}');
    const r = await ex.extract(Order, TEXT);
    expect(r.ok).toBe(false);
    expect(r.data).toBeNull();
    expect(r.fields.find((f) => f.pointer === "/product")!.status).toBe("invalid");
    expect(r.fields.find((f) => f.pointer === "/price")!.status).toBe("missing"); // nullable: an allowed absence
    expect(r.issues.some((i) => i.pointer === "/product" && /not stated/.test(i.message))).toBe(true);
    expect(r.partial).toEqual({ product: null, quantity: 3, price: null });
  });

  it("bends an output the schema forbids into a valid one", async () => {
    // quantity must be an integer >= 1; the script says 0 and adds an unknown key.
    const ex = await scripted('{"product":"锐思","quantity":0,"price":1,"extra":true}');
    const r = await ex.extract(Order, TEXT);
    const value = JSON.parse(r.raw) as { quantity: unknown };
    expect(value.quantity).not.toBe(0);
    expect(compileValidator(ex.compile(Order).jsonSchema!)(JSON.parse(r.raw))).toBe(true);
  });

  it("finishes within maxTokens with complete JSON and marks the cut fields", async () => {
    const ex = await scripted('{"product":"' + "很长的名字".repeat(40) + '","quantity":3,"price":1}');
    const r = await ex.extract(Order, TEXT, { maxTokens: 20 });
    expect(r.stats.stopReason).toBe("budget");
    expect(r.stats.cutShort).toBe(true);
    expect(r.ok).toBe(false);
    expect(r.stats.tokensSampled + r.stats.tokensForced + r.stats.tokensCompleted).toBeLessThanOrEqual(20);
    expect(() => JSON.parse(r.raw)).not.toThrow();
    expect(r.fields.some((f) => f.truncated)).toBe(true);
  });

  it("random engine fuzz: outputs are complete JSON whose only problems are the null escapes", async () => {
    const engine = new RandomEngine({ vocabulary: vocab, seed: 42, eosProbability: 0.9 });
    const ex = await createExtractor({ engine, maxTokens: 60 });
    for (let i = 0; i < 25; i++) {
      const r = await ex.extract(Order, TEXT);
      expect(() => JSON.parse(r.raw), r.raw).not.toThrow();
      // Every keyword of Order is enforced by the grammar: a problem can only be a required field
      // the model left null (an escape), reported as such, never a violated constraint.
      for (const issue of r.issues) expect(issue.message, r.raw).toMatch(/not stated in the text/);
      const requiredMissing = r.fields.some((f) => f.required && f.value === null);
      expect(r.ok).toBe(r.issues.length === 0 && !requiredMissing && r.stats.stopReason !== "budget");
      expect(r.fields.map((f) => f.pointer)).toEqual(expect.arrayContaining(["/product", "/quantity", "/price"]));
    }
  });

  it("streams partial values, then the result", async () => {
    const ex = await scripted('{"product":"锐思Book Pro 14","quantity":3,"price":6299}');
    const partials: unknown[] = [];
    let final: unknown;
    for await (const e of ex.stream(Order, TEXT)) {
      if (e.type === "partial") partials.push(e.partial);
      else final = e.result.data;
    }
    expect(partials.length).toBeGreaterThan(2);
    expect(partials).toContainEqual({ product: "锐思Book Pro 14" });
    expect(final).toEqual({ product: "锐思Book Pro 14", quantity: 3, price: 6299 });
  });

  it("extractMany tags every result with its input id, errors included", async () => {
    const ex = await scripted('{"product":"锐思","quantity":1,"price":null}');
    const inputs = [{ id: "a", text: TEXT }, { id: "b", text: "   " }, { id: "c", text: "另一份订单：锐思 1台" }];
    const seen = new Map<string | number, string>();
    for await (const r of ex.extractMany(Order, inputs, { concurrency: 2 })) {
      seen.set(r.id, r.error ? (r.error as { code?: string }).code ?? "error" : "ok");
    }
    expect(Object.fromEntries(seen)).toEqual({ a: "ok", b: "TEXT_EMPTY", c: "ok" });
  });

  it("extractMany yields finished results while the next input is still pending", async () => {
    const ex = await scripted('{"product":"锐思","quantity":1,"price":null}');
    let released = false;
    let release: () => void = () => undefined;
    async function* slowInput(): AsyncGenerator<{ id: string; text: string }> {
      yield { id: "first", text: TEXT };
      await new Promise<void>((resolve) => (release = resolve));
      released = true;
      yield { id: "second", text: TEXT };
    }
    const order: string[] = [];
    for await (const r of ex.extractMany(Order, slowInput(), { concurrency: 2 })) {
      order.push(`${r.id}:${released ? "after" : "before"}`);
      release();
    }
    expect(order).toEqual(["first:before", "second:after"]);
  });

  it("retries resample an output whose zod refinement fails, and report the attempts", async () => {
    const Refined = Order.refine(() => false, { message: "never good enough" });
    const engine = new RandomEngine({ vocabulary: vocab, seed: 3, eosProbability: 0.9 });
    const ex = await createExtractor({ engine, maxTokens: 40 });
    const r = await ex.extract(Refined, TEXT, { retries: 2 });
    expect(r.ok).toBe(false);
    expect(r.stats.attempts).toBe(3);
    const once = await ex.extract(Order, TEXT, { maxTokens: 40 });
    expect(once.stats.attempts).toBe(1);
  });

  it("gives typed errors for bad text and an overlong prompt", async () => {
    const ex = await scripted("{}", 64);
    await expect(ex.extract(Order, "")).rejects.toMatchObject({ code: "TEXT_EMPTY" });
    await expect(ex.extract(Order, "bad \uD800 surrogate")).rejects.toMatchObject({ code: "TEXT_INVALID" });
    await expect(ex.extract(Order, TEXT)).rejects.toMatchObject({ code: "TEXT_TOO_LONG" });
    await expect(extract(Order, TEXT, { model: "/nonexistent/model.gguf" })).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
  });
});
