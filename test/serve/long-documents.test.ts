/**
 * Long documents over HTTP: `POST /v1/extract` with `options.chunkSize` (and chunkOverlap, passes)
 * answers one merged result whose spans are offsets into the request's text (a deterministic
 * per-chunk test model, bench/support/long-document.ts); a chunking option of the wrong type or
 * out of the extractor's range is a 400 OPTION_INVALID naming it, and the service still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { longDocument, paymentsEngine, PaymentsSchema } from "../../bench/support/long-document.js";
import type { FieldResult } from "../../src/index.js";
import { createExtractor } from "../../src/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { mostOpenAtOnce, sessionsBy, timelineEngine, type TimelineEntry } from "../support/timeline-engine.js";
import { postJson, startServer, type TestServer } from "./support/server.js";

const SCHEMA = z.toJSONSchema(PaymentsSchema);
const doc = longDocument(5000);
let t: TestServer;

beforeAll(async () => {
  t = await startServer(paymentsEngine(await fixtureVocabulary(), 8192), { maxTokens: 512 });
});
afterAll(async () => {
  await t?.close();
  await t?.pool.dispose();
});

const extract = (options?: Record<string, unknown>) => postJson(`${t.url}/v1/extract`, { schema: SCHEMA, text: doc.text, ...(options && { options }) });

describe("POST /v1/extract with chunkSize", () => {
  it("answers the merged result: every payment once, spans in the request's text", async () => {
    const { status, body } = await extract({ chunkSize: 1000, chunkOverlap: 300, passes: 2 });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.status).toBe("ok");
    expect((body.stats as { chunks: number }).chunks).toBeGreaterThanOrEqual(5);
    expect(body.data).toEqual({ payments: doc.payments.map(({ id, name, date, amount }) => ({ id, name, date, amount })) });
    const fields = body.fields as FieldResult[];
    doc.payments.forEach((p, i) => {
      expect(fields.find((f) => f.pointer === `/payments/${i}/id`)!.best).toMatchObject({ start: p.idAt, end: p.idAt + p.id.length, text: p.id });
    });
    for (const f of fields) for (const s of f.spans) expect(doc.text.slice(s.start, s.end)).toBe(s.text);
  });

  it("on a server of two engines, one request's chunks run on both; the answer is the one-engine answer", async () => {
    const timeline: TimelineEntry[] = [];
    const vocab = await fixtureVocabulary();
    const extractors = await Promise.all(["a", "b"].map((name) => createExtractor({ engine: timelineEngine(paymentsEngine(vocab, 8192), name, timeline), maxTokens: 512 })));
    const two = await startServer(extractors);
    try {
      const options = { chunkSize: 1000, chunkOverlap: 300 };
      const spread = await postJson(`${two.url}/v1/extract`, { schema: SCHEMA, text: doc.text, options });
      const one = await extract(options);
      expect(spread.status).toBe(200);
      for (const key of ["status", "ok", "data", "fields", "issues", "raw"]) expect(spread.body[key], key).toEqual(one.body[key]);
      expect(Object.keys(sessionsBy(timeline)).sort()).toEqual(["a", "b"]);
      expect(mostOpenAtOnce(timeline)).toBe(2);
    } finally {
      await two.close();
    }
  });

  it("refuses a bad chunking option with a 400 naming it, then serves the next request", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ chunkSize: "2000" }, /^options\.chunkSize must be a positive integer, got "2000"$/],
      [{ chunkSize: 10 }, /^chunkSize must be an integer from 200 to 1,073,741,824, got 10$/],
      [{ chunkSize: 1000, chunkOverlap: -1 }, /^options\.chunkOverlap must be a non-negative integer, got -1$/],
      [{ chunkSize: 1000, chunkOverlap: 500 }, /^chunkOverlap must be an integer under half of chunkSize \(1000\), got 500$/],
      [{ chunkSize: 1000, passes: 4 }, /^passes must be an integer from 1 to 3, got 4$/],
      [{ chunkSize: 1000, passes: 1.5 }, /^options\.passes must be a positive integer, got 1\.5$/],
    ];
    for (const [options, message] of cases) {
      const { status, body } = await extract(options);
      expect(status, JSON.stringify(options)).toBe(400);
      expect(body.error).toMatchObject({ code: "OPTION_INVALID", message: expect.stringMatching(message) });
    }
    expect((await extract({ chunkSize: 2500 })).status).toBe(200);
  });
});
