/**
 * The HTTP service on loopback over the real llama.cpp engine (tiny random-weight GGUF): results
 * as JSON and as server-sent events, typed 4xx for bad requests, 5xx for an engine failure (and
 * the server still answering afterwards), health and Prometheus metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor } from "../../src/index.js";
import { observedEngine } from "./support/engines.js";
import { PERSON_SCHEMA, postJson, readSse, startServer, type TestServer } from "./support/server.js";

const TEXT = "Customer Alice Wong, 34 years old, ordered three lamps.";
let gguf: TestServer;

beforeAll(async () => {
  const model = await ensureGgufFixture("tiny");
  gguf = await startServer([await createExtractor({ model, maxTokens: 48 })], { server: { bodyLimitBytes: 64 * 1024 } });
});
afterAll(async () => {
  await gguf?.close();
  await gguf?.pool.dispose();
});

describe("POST /v1/extract on the tiny GGUF", () => {
  it("answers the ExtractResult with its document status", async () => {
    const { status, body } = await postJson(`${gguf.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT });
    expect(status).toBe(200);
    expect(["ok", "missing", "fabricated", "invalid"]).toContain(body.status);
    expect((body.fields as { pointer: string }[]).map((f) => f.pointer).sort()).toEqual(["/age", "/name"]);
    expect(() => JSON.parse(body.raw as string)).not.toThrow();
    const stats = body.stats as { promptTokens: number; tokensForced: number };
    expect(stats.promptTokens).toBeGreaterThan(10);
    expect(stats.tokensForced).toBeGreaterThan(0);
  });

  it('with "stream": true sends partial events, then the same result as the JSON answer', async () => {
    const plain = await postJson(`${gguf.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT });
    const res = await fetch(`${gguf.url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: PERSON_SCHEMA, text: TEXT, stream: true }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const frames = await readSse(res);
    const last = frames.at(-1)!;
    expect(last.event).toBe("result");
    expect(frames.slice(0, -1).every((f) => f.event === "partial")).toBe(true);
    expect(frames.length).toBeGreaterThan(2);
    // Greedy decoding: the streamed document is the one the JSON answer had.
    expect((last.data as { raw: string }).raw).toBe(plain.body.raw);
    const raws = frames.slice(0, -1).map((f) => (f.data as { raw: string }).raw);
    raws.forEach((raw, i) => i > 0 && expect(raw.startsWith(raws[i - 1]!.replace(/\uFFFD+$/, ""))).toBe(true));
  });

  it("bad requests get a 4xx with the typed code", async () => {
    const post = (body: unknown) => postJson(`${gguf.url}/v1/extract`, body);
    const cases: [unknown, number, RegExp][] = [
      [{ schema: { type: "object", properties: { a: { type: "strng" } } }, text: TEXT }, 400, /^SCHEMA_/],
      [{ schema: PERSON_SCHEMA, text: "" }, 400, /^TEXT_EMPTY$/],
      [{ schema: PERSON_SCHEMA, text: TEXT, options: { temprature: 1 } }, 400, /^OPTION_INVALID$/],
      [{ schema: PERSON_SCHEMA, text: TEXT, options: { maxTokens: -3 } }, 400, /^OPTION_INVALID$/],
      [{ schema: PERSON_SCHEMA, text: TEXT, options: { sampling: { minP: 2 } } }, 400, /^OPTION_INVALID$/],
      [{ schema: PERSON_SCHEMA, text: TEXT, options: { sampling: { temperature: 2.5 } } }, 400, /^OPTION_INVALID$/],
      [{ schema: PERSON_SCHEMA }, 400, /^REQUEST_INVALID$/],
      [{ schema: "person", text: TEXT }, 400, /^REQUEST_INVALID$/],
      [{ schema: PERSON_SCHEMA, text: "word ".repeat(6000) }, 413, /^TEXT_TOO_LONG$/],
      ["{not json", 400, /^REQUEST_INVALID$/],
      [JSON.stringify({ schema: PERSON_SCHEMA, text: "x".repeat(70 * 1024) }), 413, /^REQUEST_TOO_LARGE$/],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(body);
      const error = res.body.error as { code: string; message: string };
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(error.code).toMatch(code);
      expect(error.message.length).toBeGreaterThan(10);
    }
    const sampled = await post({ schema: PERSON_SCHEMA, text: TEXT, options: { sampling: { temperature: 0.7, minP: 0.05, seed: 3 }, maxTokens: 64 } });
    expect(sampled.status, JSON.stringify(sampled.body)).toBe(200);
    expect(typeof sampled.body.raw).toBe("string");
    const missing = await fetch(`${gguf.url}/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });

  it("GET /healthz and GET /metrics report the pool and the documents served", async () => {
    const health = (await (await fetch(`${gguf.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "ok", engines: 1, busy: 0, waiting: 0 });
    const metrics = await (await fetch(`${gguf.url}/metrics`)).text();
    const value = (pattern: RegExp): number => Number(pattern.exec(metrics)?.[1] ?? NaN);
    expect(value(/^pocket_http_requests_total\{route="\/v1\/extract",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(3);
    expect(value(/^pocket_http_requests_total\{route="\/v1\/extract",status="400"\} (\d+)/m)).toBeGreaterThanOrEqual(4);
    expect(value(/^pocket_tokens_total\{origin="forced"\} (\d+)/m)).toBeGreaterThan(0);
    expect(value(/^pocket_mask_seconds_count (\d+)/m)).toBeGreaterThanOrEqual(3);
    expect(value(/^pocket_engine_seconds_count (\d+)/m)).toBeGreaterThanOrEqual(3);
    expect(metrics).toMatch(/^pocket_fields_total\{status="\w+"\} \d+/m);
    expect(metrics).toMatch(/^pocket_documents_total\{status="failed"\} \d+/m);
    expect(value(/^pocket_queue_depth (\d+)/m)).toBe(0);
  });
});

describe("a pool of two engines of one model", () => {
  it("shares compiled grammars: the second engine's first request does not compile again", async () => {
    const model = await ensureGgufFixture("tiny");
    const t = await startServer([await createExtractor({ model, maxTokens: 24 }), await createExtractor({ model, maxTokens: 24 })]);
    try {
      const schema = { type: "object", properties: { shared: { type: "string", maxLength: 9 }, n: { type: "integer" } }, required: ["shared", "n"] };
      // Two requests at once: one on each engine.
      const [a, b] = await Promise.all([0, 1].map(() => postJson(`${t.url}/v1/extract`, { schema, text: TEXT })));
      const compileMs = [a!, b!].map((r) => (r.body.stats as { compileMs: number }).compileMs).sort((x, y) => x - y);
      expect(compileMs[0]).toBe(0);
      expect(compileMs[1]).toBeGreaterThan(0);
    } finally {
      await t.close();
      await t.pool.dispose();
    }
  });
});

describe("engine failure", () => {
  it("is a 5xx with its code, and the next request is served", async () => {
    const t = await startServer(await observedEngine({ failSessions: 1 }));
    try {
      const failed = await postJson(`${t.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT });
      expect(failed.status).toBe(500);
      expect(failed.body.error).toMatchObject({ code: "ENGINE_FAILED" });
      const next = await postJson(`${t.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT });
      expect(next.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
