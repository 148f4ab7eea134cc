/**
 * Two real worker processes (the CLI's `worker`, RandomEngine in place of the model, see
 * test/cli/support/random-cli.ts) share one queue of 500 documents on the real Redis; one is
 * SIGKILLed mid-run. Its jobs in hand stall, the other worker's stalled check hands them out
 * again, and at the end every document has exactly one result: none lost, none doubled. Short
 * lock and stall intervals keep the recovery fast; the time limits are hang guards.
 */
import { join } from "node:path";
import { QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputRecord } from "../../src/records/index.js";
import { ROOT, readJsonl, scratchDir, startTsx, writeJsonl } from "../cli/support/harness.js";
import { REDIS_URL, connectTestRedis, deletePrefix, testPrefix } from "./support/redis.js";

const RANDOM_CLI = join(ROOT, "test/cli/support/random-cli.ts");
const DOCS = 500;
const prefix = testPrefix();
let redis: Redis;

beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  if (redis) {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  }
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

describe("two worker processes, one SIGKILLed", () => {
  it(`${DOCS} documents: exactly one result each, the killed worker's jobs picked up`, async () => {
    const dir = scratchDir();
    const schema = writeJsonl(join(dir, "person.json"), [{ type: "object", properties: { name: { type: "string", maxLength: 12 }, age: { type: "integer" } }, required: ["name", "age"] }]);
    const input = writeJsonl(join(dir, "in.jsonl"), Array.from({ length: DOCS }, (_, i) => ({ id: `doc-${i}`, text: `Person ${i} is called Name${i} and is ${20 + (i % 60)} years old.` })));
    const location = ["--queue", "kill", "--redis", REDIS_URL, "--prefix", prefix];
    const enqueued = await startTsx(RANDOM_CLI, ["enqueue", ...location, "--schema", schema, "--input", input]).exited;
    expect(enqueued.code, enqueued.stderr).toBe(0);

    const events = new QueueEvents("kill", { connection: { host: "127.0.0.1", port: 6379 }, prefix });
    let stalled = 0;
    events.on("stalled", () => stalled++);
    await events.waitUntilReady();
    const results = (): Promise<number> => redis.hlen(`${prefix}:kill:pocket-results`);
    const workerArgs = ["worker", ...location, "--concurrency", "2", "--lock-duration", "1000", "--stalled-interval", "500", "--quiet"];
    const env = { POCKET_TEST_STEP_DELAY_MS: "2" };
    const victim = startTsx(RANDOM_CLI, workerArgs, { ...env, POCKET_TEST_SEED: "1" });
    const survivor = startTsx(RANDOM_CLI, workerArgs, { ...env, POCKET_TEST_SEED: "2" });
    try {
      await waitFor(async () => (await results()) >= 100, "100 results", 60_000);
      victim.child.kill("SIGKILL");
      const killed = await victim.exited;
      expect(killed.signal).toBe("SIGKILL");
      const atKill = await results();
      expect(atKill).toBeLessThan(DOCS); // killed mid-run

      await waitFor(async () => (await results()) >= DOCS, `${DOCS} results`, 90_000);
      survivor.child.kill("SIGTERM");
      const stopped = await survivor.exited;
      expect(stopped.code, stopped.stderr).toBe(0); // graceful stop
      expect(stalled).toBeGreaterThanOrEqual(1); // the killed worker's jobs were recovered as stalled
    } finally {
      victim.child.kill("SIGKILL");
      survivor.child.kill("SIGKILL");
      await events.close();
    }

    const output = join(dir, "out.jsonl");
    const collected = await startTsx(RANDOM_CLI, ["collect", ...location, "--output", output]).exited;
    expect(collected.code, collected.stderr).toBe(0);
    expect(JSON.parse(collected.stdout)).toMatchObject({ written: DOCS, pending: 0 });
    const records = readJsonl<OutputRecord>(output);
    const ids = records.map((r) => r.id);
    expect(records).toHaveLength(DOCS);
    expect(new Set(ids).size).toBe(DOCS);
    expect(ids).toEqual(Array.from({ length: DOCS }, (_, i) => `doc-${i}`));
    expect(records.every((r) => r.status !== "failed")).toBe(true);
  }, 180_000);
});
