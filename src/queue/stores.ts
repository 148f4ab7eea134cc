/**
 * The two Redis hashes a queue shares between all its machines. The schema store holds each JSON
 * Schema once, under its SHA-256 digest, so jobs carry only the digest and a worker needs nothing
 * but the model file. The result store holds exactly one CLI record per document: the write is
 * HSETNX keyed by the document's id, so a job delivered twice (a stalled worker, a re-enqueue)
 * never produces a second result.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { OutputRecord } from "../records/index.js";
import { PocketExtractError } from "../errors.js";
import { documentKey } from "./connection.js";

export class SchemaStore {
  private readonly cache = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Stores a JSON Schema (once) and returns its digest. */
  async put(schema: Record<string, unknown>): Promise<string> {
    const text = JSON.stringify(schema);
    const digest = createHash("sha256").update(text).digest("hex");
    await this.redis.hsetnx(this.key, digest, text);
    return digest;
  }

  async get(digest: string): Promise<Record<string, unknown>> {
    const cached = this.cache.get(digest);
    if (cached) return cached;
    const text = await this.redis.hget(this.key, digest);
    if (text === null) throw new PocketExtractError("SCHEMA_INVALID", `schema ${digest} is not in ${this.key}: enqueue the documents again with their schema`);
    const schema = JSON.parse(text) as Record<string, unknown>;
    this.cache.set(digest, schema);
    return schema;
  }
}

export class ResultStore {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** Writes the document's record unless it has one; true when this call wrote it. */
  async put(record: OutputRecord): Promise<boolean> {
    return (await this.redis.hsetnx(this.key, documentKey(record.id), JSON.stringify(record))) === 1;
  }

  async has(id: string | number): Promise<boolean> {
    return (await this.redis.hexists(this.key, documentKey(id))) === 1;
  }

  /** Which of `ids` already have a result (one round trip). */
  async existing(ids: readonly (string | number)[]): Promise<boolean[]> {
    if (ids.length === 0) return [];
    const found = await this.redis.hmget(this.key, ...ids.map(documentKey));
    return found.map((v) => v !== null);
  }

  async count(): Promise<number> {
    return this.redis.hlen(this.key);
  }

  /** Every record, in no particular order, read in pages. */
  async *records(): AsyncGenerator<OutputRecord> {
    let cursor = "0";
    do {
      const [next, flat] = await this.redis.hscan(this.key, cursor, "COUNT", 500);
      cursor = next;
      for (let i = 1; i < flat.length; i += 2) yield JSON.parse(flat[i]!) as OutputRecord;
    } while (cursor !== "0");
  }
}
