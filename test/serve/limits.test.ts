/**
 * The service under pressure, with a slowed RandomEngine (real vocabulary and masks; each step
 * sleeps so a request stays in flight): a full wait queue answers 429 with Retry-After (through
 * the openai client too), a client that disconnects stops its decode and frees the engine, the
 * per-request timeout answers 504, and close() lets in-flight requests finish, then stops the
 * ones past the deadline with 503. Time bounds here are hang guards, not speed claims.
 */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { observedEngine } from "./support/engines.js";
import { PERSON_SCHEMA, postJson, startServer } from "./support/server.js";

const TEXT = "Customer Alice Wong, 34 years old, ordered three lamps.";
/** A schema whose shortest document is long, so a slowed decode surely outlasts the test's moves. */
const LONG_SCHEMA = { type: "object", properties: { items: { type: "array", items: { type: "string", minLength: 40, maxLength: 60 }, minItems: 4 } }, required: ["items"] };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe("limits of the HTTP service", () => {
  it("a full wait queue answers 429 with Retry-After and code OVERLOADED", async () => {
    const engine = await observedEngine({ delayMs: 20 });
    const t = await startServer(engine, { pool: { maxWaiting: 1 }, maxTokens: 400 });
    const clients = [new AbortController(), new AbortController()];
    try {
      const started = engine.nextSampling();
      const running = fetch(`${t.url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: LONG_SCHEMA, text: TEXT }), signal: clients[0]!.signal }).catch(() => undefined);
      await started;
      const waiting = fetch(`${t.url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: LONG_SCHEMA, text: TEXT }), signal: clients[1]!.signal }).catch(() => undefined);
      await until(() => t.pool.waiting === 1, "the second request to wait");
      const refused = await postJson(`${t.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.body.error).toMatchObject({ code: "OVERLOADED" });
      const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: "x", maxRetries: 0 });
      const call = client.chat.completions.create({ model: "m", messages: [{ role: "user", content: TEXT }], response_format: { type: "json_object" } });
      await expect(call).rejects.toMatchObject({ status: 429, error: { code: "OVERLOADED" } });
      clients.forEach((c) => c.abort());
      await Promise.all([running, waiting]);
      await until(() => t.pool.busy === 0 && t.pool.waiting === 0, "the pool to drain");
    } finally {
      await t.close();
    }
  });

  it("a client that disconnects aborts its decode; the engine is free at once", async () => {
    const engine = await observedEngine({ delayMs: 20 });
    const t = await startServer(engine, { maxTokens: 400 });
    try {
      const client = new AbortController();
      const started = engine.nextSampling();
      const request = fetch(`${t.url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: LONG_SCHEMA, text: TEXT }), signal: client.signal });
      await started;
      await sleep(60);
      client.abort();
      await expect(request).rejects.toThrow();
      await until(() => t.pool.busy === 0, "the engine to be released", 2000);
      expect(engine.aborted).toBe(1);
      const sampledAtRelease = engine.sampled;
      await sleep(100);
      expect(engine.sampled).toBe(sampledAtRelease); // nothing decodes for the gone client
      expect(sampledAtRelease).toBeLessThan(100); // far from the >= 160-token shortest document
      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(metrics).toMatch(/^pocket_http_requests_total\{route="\/v1\/extract",status="499"\} 1$/m);
    } finally {
      await t.close();
    }
  });

  it("the per-request timeout answers 504 TIMEOUT and frees the engine", async () => {
    const engine = await observedEngine({ delayMs: 20 });
    const t = await startServer(engine, { maxTokens: 400, server: { requestTimeoutMs: 300 } });
    try {
      const res = await postJson(`${t.url}/v1/extract`, { schema: LONG_SCHEMA, text: TEXT });
      expect(res.status).toBe(504);
      expect(res.body.error).toMatchObject({ code: "TIMEOUT" });
      expect(engine.aborted).toBe(1);
      expect(t.pool.busy).toBe(0);
    } finally {
      await t.close();
    }
  });

  it("close(): in-flight requests finish, new connections are refused, past the deadline 503", async () => {
    const engine = await observedEngine({ delayMs: 5 });
    const t = await startServer(engine, { maxTokens: 64 });
    const started = engine.nextSampling();
    const inFlight = postJson(`${t.url}/v1/extract`, { schema: PERSON_SCHEMA, text: TEXT }, { headers: { "content-type": "application/json", connection: "close" } });
    await started;
    const closing = t.server.close(10_000);
    expect((await inFlight).status).toBe(200);
    await closing;
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();

    const slow = await startServer(await observedEngine({ delayMs: 20 }), { maxTokens: 400 });
    const slowStarted = (slow.pool.extractors[0]!.engine as Awaited<ReturnType<typeof observedEngine>>).nextSampling();
    const cut = postJson(`${slow.url}/v1/extract`, { schema: LONG_SCHEMA, text: TEXT });
    await slowStarted;
    await slow.server.close(200);
    const answer = await cut;
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ code: "SHUTTING_DOWN" });
  });
});
