/**
 * Collect: the result store written out as the CLI's JSONL records, ordered by input line (then
 * id), plus what the queue still holds, so a caller can tell a finished queue from one still
 * running. The output file is created fresh, never overwritten.
 */
import { JsonlAppender, type OutputRecord } from "../records/index.js";
import { openRedis, storeKeys, type QueueLocation } from "./connection.js";
import { openQueue } from "./jobs.js";
import { ResultStore } from "./stores.js";

export interface CollectSummary {
  readonly written: number;
  /** Jobs not finished yet: waiting, active, delayed (retry backoff), prioritized. */
  readonly pending: number;
}

export async function collectResults(location: QueueLocation, output: string): Promise<CollectSummary> {
  const redis = openRedis(location);
  const queue = openQueue(location);
  try {
    const records: OutputRecord[] = [];
    for await (const r of new ResultStore(redis, storeKeys(location).results).records()) records.push(r);
    records.sort((a, b) => a.line - b.line || String(a.id).localeCompare(String(b.id)));
    const out = new JsonlAppender(output, "create");
    try {
      for (const r of records) out.append(r);
    } finally {
      out.close();
    }
    const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
    return { written: records.length, pending: Object.values(counts).reduce((a, b) => a + b, 0) };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
