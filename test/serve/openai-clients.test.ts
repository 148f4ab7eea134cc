/**
 * `POST /v1/chat/completions` through the clients backend teams already use, pointed at the
 * service on loopback (tiny GGUF through the real llama.cpp engine): the `openai` npm client
 * (JSON-schema response format, streaming with usage, json_object, a refused parameter) and the
 * AI SDK's `generateObject` with a Zod schema through `@ai-sdk/openai-compatible`.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateObject } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor } from "../../src/index.js";
import { PERSON_SCHEMA, startServer, type TestServer } from "./support/server.js";

const TEXT = "Customer Alice Wong, 34 years old, ordered three lamps.";
let t: TestServer;
let client: OpenAI;

beforeAll(async () => {
  const model = await ensureGgufFixture("tiny");
  t = await startServer([await createExtractor({ model, maxTokens: 64 })]);
  client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
});
afterAll(async () => {
  await t?.close();
  await t?.pool.dispose();
});

const personFormat = { type: "json_schema", json_schema: { name: "person", schema: PERSON_SCHEMA, strict: true } } as const;

describe("openai npm client", () => {
  it("json_schema response format: content is JSON of the schema's shape, usage from our stats", async () => {
    const c = await client.chat.completions.create({
      model: "pocket",
      messages: [
        { role: "system", content: "Extract the customer." },
        { role: "user", content: TEXT },
      ],
      response_format: personFormat,
      max_tokens: 48,
      temperature: 0,
      seed: 3,
    });
    const content = c.choices[0]!.message.content!;
    const value = JSON.parse(content) as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(["age", "name"]);
    expect(value.name === null || typeof value.name === "string").toBe(true);
    expect(value.age === null || Number.isInteger(value.age)).toBe(true);
    expect(["stop", "length"]).toContain(c.choices[0]!.finish_reason);
    expect(c.usage!.prompt_tokens).toBeGreaterThan(10);
    expect(c.usage!.completion_tokens).toBeGreaterThan(2);
    expect(c.usage!.total_tokens).toBe(c.usage!.prompt_tokens + c.usage!.completion_tokens);
    const report = (c as unknown as { pocket_extract: { fields: { pointer: string }[] } }).pocket_extract;
    expect(report.fields.map((f) => f.pointer).sort()).toEqual(["/age", "/name"]);
  });

  it("stream: the deltas add up to the non-streamed content, then a usage chunk", async () => {
    const request = { model: "pocket", messages: [{ role: "user" as const, content: TEXT }], response_format: personFormat, max_completion_tokens: 48 };
    const plain = await client.chat.completions.create(request);
    const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
    let content = "";
    let deltas = 0;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        content += choice.delta.content;
        deltas++;
      }
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(content).toBe(plain.choices[0]!.message.content);
    expect(deltas).toBeGreaterThan(2);
    expect(finish).toBe(plain.choices[0]!.finish_reason);
    expect(usage).toEqual(plain.usage);
  });

  it("json_object: any JSON object", async () => {
    const c = await client.chat.completions.create({ model: "pocket", messages: [{ role: "user", content: TEXT }], response_format: { type: "json_object" }, max_tokens: 32 });
    const value: unknown = JSON.parse(c.choices[0]!.message.content!);
    expect(typeof value === "object" && value !== null && !Array.isArray(value)).toBe(true);
  });

  it("a parameter we cannot honour is a 400 the client raises, with our code", async () => {
    const call = client.chat.completions.create({ model: "pocket", messages: [{ role: "user", content: TEXT }], response_format: personFormat, n: 2 });
    await expect(call).rejects.toMatchObject({ status: 400, error: { code: "OPTION_INVALID" } });
    const noFormat = client.chat.completions.create({ model: "pocket", messages: [{ role: "user", content: TEXT }] });
    await expect(noFormat).rejects.toMatchObject({ status: 400, error: { code: "REQUEST_INVALID" } });
  });
});

describe("AI SDK generateObject with a Zod schema", () => {
  it("returns an object that the Zod schema validated", async () => {
    const pocket = createOpenAICompatible({ name: "pocket", baseURL: `${t.url}/v1`, supportsStructuredOutputs: true });
    const Person = z.object({ name: z.string().max(16).nullable(), age: z.number().int().min(0).max(150).nullable() });
    const { object, usage, finishReason } = await generateObject({ model: pocket("pocket"), schema: Person, prompt: TEXT, maxOutputTokens: 48, maxRetries: 0 });
    expect(Person.safeParse(object).success).toBe(true);
    expect(Object.keys(object).sort()).toEqual(["age", "name"]);
    expect(usage.inputTokens).toBeGreaterThan(10);
    expect(["stop", "length"]).toContain(finishReason);
  });
});
