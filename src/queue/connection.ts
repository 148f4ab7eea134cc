/**
 * Where a queue lives: the Redis server (a `redis://` URL), the key prefix (BullMQ's, default
 * "pocket") and the queue name. Also the Redis keys of our own next to BullMQ's: the schema
 * store and the result store of each queue, and the job id of a document.
 */
import { Redis } from "ioredis";
import { PocketExtractError } from "../errors.js";

export interface QueueLocation {
  /** `redis://[user:password@]host:port[/db]` (default redis://127.0.0.1:6379). */
  readonly redisUrl?: string;
  /** Key prefix of every key of the queue (default "pocket"). */
  readonly prefix?: string;
  readonly queue: string;
}

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
export const DEFAULT_PREFIX = "pocket";

/** ioredis options for BullMQ: workers need `maxRetriesPerRequest: null` (blocking commands). */
export function connectionOptions(location: QueueLocation): { host: string; port: number; db: number; username?: string; password?: string; maxRetriesPerRequest: null } {
  const raw = location.redisUrl ?? DEFAULT_REDIS_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PocketExtractError("OPTION_INVALID", `redis URL ${JSON.stringify(raw)} is not a URL (expected redis://host:port[/db])`);
  }
  if (url.protocol !== "redis:") throw new PocketExtractError("OPTION_INVALID", `redis URL ${JSON.stringify(raw)} must start with redis://`);
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new PocketExtractError("OPTION_INVALID", `redis URL ${JSON.stringify(raw)}: the database must be a number`);
  return {
    host: url.hostname || "127.0.0.1",
    port: url.port ? Number(url.port) : 6379,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    maxRetriesPerRequest: null,
  };
}

export function openRedis(location: QueueLocation): Redis {
  return new Redis(connectionOptions(location));
}

export function prefixOf(location: QueueLocation): string {
  return location.prefix ?? DEFAULT_PREFIX;
}

export function checkQueueName(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) {
    throw new PocketExtractError("OPTION_INVALID", `queue name ${JSON.stringify(name)} must be 1-100 letters, digits, ".", "_" or "-"`);
  }
  return name;
}

/** Our keys beside BullMQ's `prefix:queue:*` keys (job ids start with "doc_", so never collide). */
export function storeKeys(location: QueueLocation): { schemas: string; results: string } {
  const base = `${prefixOf(location)}:${location.queue}`;
  return { schemas: `${base}:pocket-schemas`, results: `${base}:pocket-results` };
}

/** The job id and result key of a document id: "1" and 1 stay distinct, and BullMQ's rules hold (no ":", not an integer). */
export function documentKey(id: string | number): string {
  return `doc_${encodeURIComponent(JSON.stringify(id))}`;
}
