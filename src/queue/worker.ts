/**
 * A queue worker: takes document jobs from BullMQ, extracts each on an extractor of the pool, and
 * writes its CLI record to the shared result store. Delivery is at least once (a job whose worker
 * died is found stalled and handed to another); the result store's HSETNX makes it exactly one
 * result per document. A document fault (schema, text, options) is recorded at once and never
 * retried; any other failure is retried with backoff and recorded with its typed error when the
 * last attempt fails. `close()` stops taking jobs and waits for the ones in hand.
 */
import { UnrecoverableError, Worker, type Job } from "bullmq";
import { recordOf } from "../records/index.js";
import type { ExtractorPool } from "../pool/index.js";
import { isDocumentFault } from "../pool/index.js";
import { asPocketExtractError } from "../errors.js";
import { connectionOptions, openRedis, prefixOf, storeKeys, type QueueLocation } from "./connection.js";
import type { DocumentJob } from "./jobs.js";
import { ResultStore, SchemaStore } from "./stores.js";

export interface QueueWorkerOptions extends QueueLocation {
  /** Jobs run in parallel, one per extractor of the pool. */
  readonly pool: ExtractorPool;
  /** How long a job's lock lasts without renewal (default 30 s); a dead worker's jobs wait this long. */
  readonly lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  readonly stalledIntervalMs?: number;
  /** Called after each job: what was recorded (`wrote` false when another delivery had written it). */
  readonly onDocument?: (event: { readonly id: string | number; readonly status: string; readonly wrote: boolean }) => void;
  /** Redis and worker errors (ioredis reconnects by itself); default: written to stderr. */
  readonly onError?: (err: Error) => void;
}

export interface QueueWorker {
  /** Resolves when the worker has connected and takes jobs. */
  readonly ready: Promise<void>;
  /** Stops taking jobs; waits for those in hand unless `force`. */
  close(force?: boolean): Promise<void>;
}

/** Stalled-job recoveries allowed before BullMQ gives a job up (a crash loop, not one dead worker). */
const MAX_STALLED = 5;

export function startQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const redis = openRedis(options);
  const keys = storeKeys(options);
  const schemas = new SchemaStore(redis, keys.schemas);
  const results = new ResultStore(redis, keys.results);

  const record = async (job: Job<DocumentJob>, out: Parameters<typeof recordOf>[1]): Promise<void> => {
    const r = recordOf({ line: job.data.line, id: job.data.id, inputSha256: job.data.inputSha256 }, out);
    const wrote = await results.put(r);
    options.onDocument?.({ id: job.data.id, status: r.status, wrote });
  };

  const processJob = async (job: Job<DocumentJob>): Promise<void> => {
    const { id, text } = job.data;
    if (await results.has(id)) return; // delivered again after its result was written
    try {
      const schema = await schemas.get(job.data.schema);
      const result = await options.pool.extract(schema, text);
      await record(job, { id, index: 0, result });
    } catch (err) {
      const error = asPocketExtractError(err);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (isDocumentFault(error) || lastAttempt) {
        await record(job, { id, index: 0, error });
        if (!isDocumentFault(error)) throw new UnrecoverableError(error.message);
        return;
      }
      throw error; // BullMQ retries it after the backoff
    }
  };

  const worker = new Worker<DocumentJob>(options.queue, processJob, {
    connection: connectionOptions(options),
    prefix: prefixOf(options),
    concurrency: options.pool.size,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: MAX_STALLED,
    autorun: true,
  });
  const onError = options.onError ?? ((err: Error) => void process.stderr.write(`pocket-extract worker: ${err.message}\n`));
  worker.on("error", onError);
  // A job BullMQ gave up on by itself (stalled too often) still gets its one result. The event
  // also fires for attempts that will be retried: only a job in the failed state is final.
  worker.on("failed", (job, err) => {
    if (!job) return;
    const recordIfFinal = async (): Promise<void> => {
      if ((await job.isFailed()) && !(await results.has(job.data.id))) await record(job, { id: job.data.id, index: 0, error: asPocketExtractError(err) });
    };
    recordIfFinal().catch(onError);
  });
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    async close(force = false) {
      await worker.close(force);
      redis.disconnect();
    },
  };
}
