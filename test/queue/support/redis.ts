/**
 * The real Redis the queue tests run against (127.0.0.1:6379, started by .ci/run), a key prefix
 * of their own per run, and the cleanup that deletes every key under it. No mock: when Redis does
 * not answer, the tests fail with a message saying how to start it.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env.POCKET_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function connectTestRedis(): Promise<Redis> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`Redis is not answering at ${REDIS_URL} (${(err as Error).message}): the queue tests need a real Redis; .ci/run shows the command that starts it`, { cause: err });
  }
  return redis;
}

/** A key prefix no other run uses. */
export function testPrefix(): string {
  return `pocket-test-${randomUUID().slice(0, 8)}`;
}

/** Deletes every key under the prefix. */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== "0");
  return deleted;
}
