/** Public face of the queue layer: enqueue documents, run workers, collect results (BullMQ on Redis). */
export { enqueueLines, type EnqueueOptions, type EnqueueSummary } from "./enqueue.js";
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions } from "./worker.js";
export { collectResults, type CollectSummary } from "./collect.js";
export { DEFAULT_PREFIX, DEFAULT_REDIS_URL, checkQueueName, type QueueLocation } from "./connection.js";
export type { DocumentJob, RetryPolicy } from "./jobs.js";
