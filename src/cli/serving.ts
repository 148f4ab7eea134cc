/**
 * The serving commands: `serve` (the HTTP service), `worker` (queue jobs -> result store),
 * `enqueue` (a JSONL file -> jobs) and `collect` (result store -> JSONL). serve and worker run
 * until the first SIGINT/SIGTERM, then stop taking work, let the work in hand finish (serve: up
 * to --shutdown-grace) and exit 0; a second signal abandons the work in hand (a worker's jobs
 * are then picked up by another worker once their lock expires).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createExtractor, type Extractor } from "../extract/index.js";
import { ExtractorPool } from "../pool/index.js";
import { checkQueueName, collectResults, enqueueLines, startQueueWorker } from "../queue/index.js";
import { createServer } from "../serve/index.js";
import { UsageError } from "./args.js";
import type { CliIo, StopSignal } from "./io.js";
import { readLines } from "./jsonl.js";
import { loadSchema } from "./schema-loader.js";
import type { CollectArgs, EnqueueArgs, ServeArgs, ServingArgs, WorkerArgs } from "./serving-args.js";

export async function servingCommand(args: ServingArgs, io: CliIo): Promise<number> {
  switch (args.command) {
    case "serve":
      return serve(args, io);
    case "worker":
      return worker(args, io);
    case "enqueue":
      return enqueue(args, io);
    case "collect":
      return collect(args, io);
  }
}

async function serve(args: ServeArgs, io: CliIo): Promise<number> {
  const pool = await openPool(args, args.pool, io);
  const server = createServer({ pool, requestTimeoutMs: args.timeoutSeconds * 1000 });
  try {
    const { url } = await server.listen(args.port, args.host);
    io.stderr.write(`pocket-extract serve: listening on ${url} (${pool.size} engine${pool.size > 1 ? "s" : ""})\n`);
    await untilStopped(io, async (signal) => {
      io.stderr.write(`${signal}: no new requests; finishing in-flight ones (up to ${args.shutdownGraceSeconds} s)\n`);
      await server.close(args.shutdownGraceSeconds * 1000);
    });
    return 0;
  } finally {
    await disposePool(pool, io);
  }
}

async function worker(args: WorkerArgs, io: CliIo): Promise<number> {
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

async function enqueue(args: EnqueueArgs, io: CliIo): Promise<number> {
  const queue = checkQueueName(args.queue);
  const { schema } = await loadSchema(args.schema);
  if (args.input === "-" ? !io.stdin : !(await stat(args.input).catch(() => undefined))?.isFile()) {
    throw new UsageError(`--input: ${args.input === "-" ? "no stdin to read" : `${args.input}: no such file`}`);
  }
  const source = args.input === "-" ? io.stdin! : createReadStream(args.input);
  const summary = await enqueueLines(
    { queue, redisUrl: args.redis, prefix: args.prefix, schema, textField: args.textField, idField: args.idField, attempts: args.attempts, backoffMs: args.backoffMs },
    readLines(source),
  );
  io.stdout.write(`${JSON.stringify({ queue, ...summary })}\n`);
  return 0;
}

async function collect(args: CollectArgs, io: CliIo): Promise<number> {
  const queue = checkQueueName(args.queue);
  if ((await stat(args.output).catch(() => undefined)) !== undefined) throw new UsageError(`--output: ${args.output} exists: remove it or choose another file`);
  const summary = await collectResults({ queue, redisUrl: args.redis, prefix: args.prefix }, args.output);
  io.stdout.write(`${JSON.stringify({ queue, ...summary })}\n`);
  return 0;
}

/** N extractors: N engines loaded from --model, or N extractors over the injected engine. */
async function openPool(args: ServeArgs | WorkerArgs, size: number, io: CliIo): Promise<ExtractorPool> {
  const extractors: Extractor[] = [];
  try {
    for (let i = 0; i < size; i++) {
      extractors.push(
        io.engine
          ? await createExtractor({ engine: io.engine, maxTokens: args.maxTokens })
          : await createExtractor({ model: args.model!, threads: args.threads, contextLength: args.contextLength, maxTokens: args.maxTokens }),
      );
    }
  } catch (err) {
    if (!io.engine) await Promise.all(extractors.map((e) => e.dispose()));
    throw err;
  }
  return new ExtractorPool(extractors, { maxWaiting: "maxWaiting" in args ? args.maxWaiting : undefined });
}

/** An injected engine stays the caller's: only engines loaded here are disposed. */
async function disposePool(pool: ExtractorPool, io: CliIo): Promise<void> {
  if (!io.engine) await pool.dispose();
}

/** Resolves after the first signal's `stop` has finished; a second signal calls `abandon`. */
function untilStopped(io: CliIo, stop: (signal: StopSignal) => Promise<void>, abandon?: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let stopping = false;
    const unsubscribe = io.signals?.subscribe((signal) => {
      if (stopping) return abandon?.();
      stopping = true;
      stop(signal).then(() => {
        unsubscribe?.();
        resolve();
      }, reject);
    });
    if (!unsubscribe) reject(new UsageError("serve and worker run until a signal stops them: no signal source"));
  });
}
