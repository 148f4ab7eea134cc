/**
 * The queue commands (src/queue on BullMQ/Redis): `worker` (jobs -> result store, until the first
 * SIGINT/SIGTERM finishes the jobs in hand; a second abandons them to another worker), `enqueue`
 * (a JSONL file -> one job per document) and `collect` (result store -> JSONL records).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { DEFAULT_MAX_TEXT_BYTES } from "../extract/index.js";
import { checkQueueName, collectResults, enqueueLines, startQueueWorker } from "../queue/index.js";
import { UsageError } from "./usage-error.js";
import type { CliIo } from "./io.js";
import { defaultMaxLineBytes, readLines } from "../records/index.js";
import { loadSchema } from "./schema-loader.js";
import type { CollectArgs, EnqueueArgs, WorkerArgs } from "./serving-args.js";
import { disposePool, openPool, untilStopped } from "./serving-shared.js";

export async function worker(args: WorkerArgs, io: CliIo): Promise<number> {
  const queue = checkQueueName(args.queue);
  const pool = await openPool(args, args.concurrency, io);
  let done = 0;
  const running = startQueueWorker({
    queue,
    redisUrl: args.redis,
    prefix: args.prefix,
    pool,
    lockDurationMs: args.lockDurationMs,
    stalledIntervalMs: args.stalledIntervalMs,
    onDocument: () => done++,
    onError: (err) => io.stderr.write(`pocket-extract worker: ${err.message}\n`),
  });
  try {
    await running.ready;
    if (!args.quiet) io.stderr.write(`pocket-extract worker: taking jobs from "${queue}" (${pool.size} at a time)\n`);
    await untilStopped(
      io,
      async (signal) => {
        if (!args.quiet) io.stderr.write(`${signal}: no new jobs; finishing the ones in hand (send it again to abandon them)\n`);
        await running.close();
      },
      () => void running.close(true),
    );
    if (!args.quiet) io.stderr.write(`pocket-extract worker: stopped after ${done} document(s)\n`);
    return 0;
  } finally {
    await disposePool(pool, io);
  }
}

export async function enqueue(args: EnqueueArgs, io: CliIo): Promise<number> {
  const queue = checkQueueName(args.queue);
  const { schema } = await loadSchema(args.schema);
  if (args.input === "-" ? !io.stdin : !(await stat(args.input).catch(() => undefined))?.isFile()) {
    throw new UsageError(`--input: ${args.input === "-" ? "no stdin to read" : `${args.input}: no such file`}`);
  }
  const source = args.input === "-" ? io.stdin! : createReadStream(args.input);
  const summary = await enqueueLines(
    { queue, redisUrl: args.redis, prefix: args.prefix, schema, textField: args.textField, idField: args.idField, attempts: args.attempts, backoffMs: args.backoffMs },
    readLines(source, { maxLineBytes: defaultMaxLineBytes(DEFAULT_MAX_TEXT_BYTES) }),
  );
  io.stdout.write(`${JSON.stringify({ queue, ...summary })}\n`);
  return 0;
}

export async function collect(args: CollectArgs, io: CliIo): Promise<number> {
  const queue = checkQueueName(args.queue);
  if ((await stat(args.output).catch(() => undefined)) !== undefined) throw new UsageError(`--output: ${args.output} exists: remove it or choose another file`);
  const summary = await collectResults({ queue, redisUrl: args.redis, prefix: args.prefix }, args.output);
  io.stdout.write(`${JSON.stringify({ queue, ...summary })}\n`);
  return 0;
}
