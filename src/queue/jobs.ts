/**
 * What a queue job carries, and the BullMQ objects every part of the queue layer opens the same
 * way: a job is one document (its id, its input line, its text) plus the digest of its schema in
 * the schema store; retries back off exponentially; a completed job is removed (its result lives
 * in the result store, which is what makes a re-enqueue a no-op).
 */
import { Queue, type JobsOptions } from "bullmq";
import { connectionOptions, prefixOf, type QueueLocation } from "./connection.js";

export interface DocumentJob {
  readonly id: string | number;
  /** 1-based line of the input file it was enqueued from. */
  readonly line: number;
  /** SHA-256 of that input line (the output record carries it). */
  readonly inputSha256: string;
  readonly text: string;
  /** SHA-256 digest of the JSON Schema in the schema store. */
  readonly schema: string;
}

export interface RetryPolicy {
  /** Tries per document before an engine failure is recorded as its result (default 3). */
  readonly attempts?: number;
  /** First retry delay; doubles each retry (default 1000 ms). */
  readonly backoffMs?: number;
}

export function jobOptions(policy: RetryPolicy): JobsOptions {
  return {
    attempts: policy.attempts ?? 3,
    backoff: { type: "exponential", delay: policy.backoffMs ?? 1000 },
    removeOnComplete: true,
  };
}

export function openQueue(location: QueueLocation): Queue<DocumentJob> {
  return new Queue<DocumentJob>(location.queue, { connection: connectionOptions(location), prefix: prefixOf(location) });
}
