/**
 * The queue end to end on the real Redis, in-process: `enqueue` and `collect` through the CLI,
 * workers through `startQueueWorker` over the seeded RandomEngine. Enqueuing twice adds nothing;
 * bad lines and bad documents get their typed error record once, without retries; an engine
 * failure is retried with backoff, and recorded with its code once the attempts are spent.
 */
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import type { OutputRecord } from "../../src/records/index.js";
import { createExtractor } from "../../src/extract/index.js";
import { ExtractorPool } from "../../src/pool/index.js";
import { startQueueWorker } from "../../src/queue/index.js";
import { captureIo, readJsonl, scratchDir, writeJsonl } from "../cli/support/harness.js";
import { observedEngine, type ObservedEngine } from "../serve/support/engines.js";
import { REDIS_URL, connectTestRedis, deletePrefix, testPrefix } from "./support/redis.js";

const SCHEMA = join(scratchDir(), "person.json");
let redis: Redis;
const prefix = testPrefix();

beforeAll(async () => {
  redis = await connectTestRedis();
  writeJsonl(SCHEMA, [{ type: "object", properties: { name: { type: "string", maxLength: 12 }, age: { type: "integer" } }, required: ["name", "age"] }]);
});
afterAll(async () => {
  if (redis) {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  }
});

async function cli(engine: ObservedEngine, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(engine);
  const code = await runCli([...argv, "--redis", REDIS_URL, "--prefix", prefix], io);
  return { code, out: io.out(), err: io.err() };
}

/** Runs a worker over `engine` until the result store holds `expected` records. */
async function drain(engine: ObservedEngine, queue: string, expected: number, concurrency = 2): Promise<void> {
  const pool = new ExtractorPool(await Promise.all(Array.from({ length: concurrency }, () => createExtractor({ engine, maxTokens: 48 }))));
  const worker = startQueueWorker({ queue, redisUrl: REDIS_URL, prefix, pool });
  const limit = Date.now() + 30_000; // hang guard
  try {
    while ((await redis.hlen(`${prefix}:${queue}:pocket-results`)) < expected) {
      if (Date.now() > limit) throw new Error(`queue ${queue}: fewer than ${expected} results after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await worker.close();
  }
}

describe("enqueue, worker, collect", () => {
  it("one record per input line; enqueuing twice adds nothing; bad lines and documents recorded once", async () => {
    const engine = await observedEngine();
    const dir = scratchDir();
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: i % 2 ? `doc-${i}` : i, text: `Person ${i} is called Name${i} and is ${20 + i} years old.` }));
    const input = writeJsonl(join(dir, "in.jsonl"), [...docs, "RAW:{not json", { id: "empty", text: "" }]);
    const first = await cli(engine, "enqueue", "--queue", "q1", "--schema", SCHEMA, "--input", input);
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ submitted: 41, alreadyDone: 0, invalid: 1 });
    const again = await cli(engine, "enqueue", "--queue", "q1", "--schema", SCHEMA, "--input", input);
    expect(JSON.parse(again.out)).toMatchObject({ submitted: 41, alreadyDone: 0 });
    // BullMQ kept one job per document id.
    expect(await redis.llen(`${prefix}:q1:wait`)).toBe(41);

    await drain(engine, "q1", 42);
    expect(engine.sessions).toBe(40); // the empty text never reached the engine, and nothing ran twice

    const third = await cli(engine, "enqueue", "--queue", "q1", "--schema", SCHEMA, "--input", input);
    expect(JSON.parse(third.out)).toMatchObject({ submitted: 0, alreadyDone: 41, invalid: 1 });

    const output = join(dir, "out.jsonl");
    const collected = await cli(engine, "collect", "--queue", "q1", "--output", output);
    expect(JSON.parse(collected.out)).toEqual({ queue: "q1", written: 42, pending: 0 });
    const records = readJsonl<OutputRecord>(output);
    expect(records.map((r) => r.line)).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
    expect(records.slice(0, 40).map((r) => r.id)).toEqual(docs.map((d) => d.id));
    expect(records.slice(0, 40).every((r) => r.status !== "failed" && typeof r.raw === "string")).toBe(true);
    expect(records[40]).toMatchObject({ line: 41, status: "failed", error: { code: "INPUT_INVALID" } });
    expect(records[41]).toMatchObject({ line: 42, id: "empty", status: "failed", error: { code: "TEXT_EMPTY" } });
    expect(await redis.zcard(`${prefix}:q1:failed`)).toBe(0); // a document fault is recorded, not failed and retried
  });

  it("an engine failure is retried with backoff; after the last attempt it is recorded with its code", async () => {
    const dir = scratchDir();
    const input = writeJsonl(join(dir, "in.jsonl"), [{ id: "a", text: "Alice is 30." }]);
    const flaky = await observedEngine({ failSessions: 2 });
    await cli(flaky, "enqueue", "--queue", "q2", "--schema", SCHEMA, "--input", input, "--attempts", "3", "--backoff", "10");
    await drain(flaky, "q2", 1, 1);
    expect(flaky.sessions).toBe(3);
    const ok = JSON.parse((await redis.hget(`${prefix}:q2:pocket-results`, "doc_%22a%22"))!) as OutputRecord;
    expect(ok.status).not.toBe("failed");

    const broken = await observedEngine({ failSessions: 100 });
    await cli(broken, "enqueue", "--queue", "q3", "--schema", SCHEMA, "--input", input, "--attempts", "2", "--backoff", "10");
    await drain(broken, "q3", 1, 1);
    expect(broken.sessions).toBe(2);
    const failed = JSON.parse((await redis.hget(`${prefix}:q3:pocket-results`, "doc_%22a%22"))!) as OutputRecord;
    expect(failed).toMatchObject({ id: "a", line: 1, status: "failed", error: { code: "ENGINE_FAILED" } });
  });

  it("usage errors: a bad queue name, a missing schema file, an existing collect output", async () => {
    const engine = await observedEngine();
    const dir = scratchDir();
    expect((await cli(engine, "enqueue", "--queue", "a:b", "--schema", SCHEMA, "--input", SCHEMA)).err).toMatch(/OPTION_INVALID: queue name/);
    expect((await cli(engine, "enqueue", "--queue", "q4", "--schema", join(dir, "none.json"), "--input", SCHEMA)).code).toBe(2);
    const existing = writeJsonl(join(dir, "out.jsonl"), []);
    const refused = await cli(engine, "collect", "--queue", "q4", "--output", existing);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/exists/);
  });
});
