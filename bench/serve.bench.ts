/**
 * `npm run bench:serve`: what the service and the queue cost on top of the extractor, on the tiny
 * random-weight GGUF through the real llama.cpp engine (1 thread per engine).
 *
 * 1. HTTP: `POST /v1/extract` at concurrency 1, 4 and 16 against a pool of 1 and 2 engines, side
 *    by side with the same documents through the same pool in-process (`pool.use(e =>
 *    e.extract(...))`), runs interleaved. Per configuration: docs/s, latency p50/p99, and the
 *    service overhead per request as a share of the in-process time. At concurrency 1 each
 *    document runs in-process then over HTTP back to back and the overhead is the median of the
 *    per-document differences (load drift on a shared machine cancels); at 4 and 16, the median
 *    over reps of the p50 difference between an in-process run and the HTTP run right after it. The client (a keep-alive `fetch`) runs in the same
 *    process as the server, so its cost is counted as overhead too.
 * 2. Queue: `pocket-extract worker` processes (1, then 2) against the real Redis on loopback,
 *    docs/s from enqueue to the last result (after a warm-up batch), next to in-process
 *    `extractMany` on the same docs.
 *
 * Options: --docs 32 (per HTTP run), --reps 5 (median run reported), --queue-docs 120,
 * --max-tokens 32. Results go to bench/results/serve-<stamp>.json. The model's answers are noise;
 * the figures are about the serving layers, and greedy decoding makes both sides do the same work.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { readLines } from "../src/records/index.js";
import { createExtractor, type Extractor } from "../src/index.js";
import { ExtractorPool } from "../src/pool/index.js";
import { enqueueLines } from "../src/queue/index.js";
import { createServer } from "../src/serve/index.js";
import { ORDER_SCHEMA, orderText } from "./support/orders.js";
import { PROJECT_ROOT, resultPath, stamp } from "./support/paths.js";
import { median, summarize } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: "32" },
    reps: { type: "string", default: "5" },
    "queue-docs": { type: "string", default: "120" },
    "max-tokens": { type: "string", default: "32" },
  },
});
const DOCS = Number(values.docs);
const REPS = Number(values.reps);
const QUEUE_DOCS = Number(values["queue-docs"]);
const MAX_TOKENS = Number(values["max-tokens"]);
const REDIS_URL = "redis://127.0.0.1:6379";

const SCHEMA = ORDER_SCHEMA;
const text = orderText;

interface Run {
  readonly docsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** `docs` documents by `concurrency` callers of `one`; per-call latency and overall docs/s. */
async function drive(concurrency: number, docs: number, one: (i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < docs; i = next++) {
        const t0 = performance.now();
        await one(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const s = summarize(latencies);
  return { docsPerSecond: docs / ((performance.now() - started) / 1000), p50: s.p50, p99: s.p99 };
}

function medianRun(runs: readonly Run[]): Run {
  return { docsPerSecond: median(runs.map((r) => r.docsPerSecond)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) };
}

async function httpSection(model: string): Promise<Record<string, unknown>[]> {
  const engines: Extractor[] = [];
  for (let i = 0; i < 2; i++) engines.push(await createExtractor({ model, threads: 1, maxTokens: MAX_TOKENS }));
  const rows: Record<string, unknown>[] = [];
  for (const poolSize of [1, 2]) {
    const pool = new ExtractorPool(engines.slice(0, poolSize), { maxWaiting: 64 });
    const server = createServer({ pool });
    const { url } = await server.listen(0);
    const inProcess = (i: number): Promise<void> => pool.use((e) => e.extract(SCHEMA, text(i))).then(() => undefined);
    const overHttp = async (i: number): Promise<void> => {
      const res = await fetch(`${url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: SCHEMA, text: text(i) }) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    await drive(2, 8, inProcess); // warm-up: compile, JIT, KV caches
    await drive(2, 8, overHttp);
    // Concurrency 1: each document in-process, then over HTTP, back to back, so machine load
    // drifts cancel out; the overhead is the median of the per-document differences.
    const paired: { direct: number; http: number }[] = [];
    for (let r = 0; r < REPS; r++) {
      for (let i = 0; i < DOCS; i++) {
        let t0 = performance.now();
        await inProcess(i);
        const direct = performance.now() - t0;
        t0 = performance.now();
        await overHttp(i);
        paired.push({ direct, http: performance.now() - t0 });
      }
    }
    const directMs = summarize(paired.map((p) => p.direct));
    const httpMs = summarize(paired.map((p) => p.http));
    const overheadMs = median(paired.map((p) => p.http - p.direct));
    rows.push({
      pool: poolSize,
      concurrency: 1,
      http: { docsPerSecond: 1000 / httpMs.avg, p50: httpMs.p50, p99: httpMs.p99 },
      inProcess: { docsPerSecond: 1000 / directMs.avg, p50: directMs.p50, p99: directMs.p99 },
      overheadMs,
      overheadShare: overheadMs / directMs.p50,
    });
    console.log(`  pool ${poolSize}, concurrency 1: in-process p50 ${fmt(directMs.p50)} ms, HTTP p50 ${fmt(httpMs.p50)} ms, paired overhead ${fmt(overheadMs, 2)} ms per request`);
    for (const concurrency of [4, 16]) {
      const http: Run[] = [];
      const direct: Run[] = [];
      for (let r = 0; r < REPS; r++) {
        direct.push(await drive(concurrency, DOCS, inProcess));
        http.push(await drive(concurrency, DOCS, overHttp));
      }
      const h = medianRun(http);
      const d = medianRun(direct);
      // Each rep's two runs are adjacent in time: the median of their differences is the estimate.
      const overheadMs = median(http.map((run, r) => run.p50 - direct[r]!.p50));
      const overheadShare = median(http.map((run, r) => (run.p50 - direct[r]!.p50) / direct[r]!.p50));
      rows.push({ pool: poolSize, concurrency, http: h, inProcess: d, overheadMs, overheadShare });
      console.log(`  pool ${poolSize}, concurrency ${concurrency}: HTTP ${fmt(h.docsPerSecond)} docs/s p50 ${fmt(h.p50)} ms; in-process ${fmt(d.docsPerSecond)} docs/s p50 ${fmt(d.p50)} ms`);
    }
    await server.close();
  }
  await Promise.all(engines.map((e) => e.dispose()));
  return rows;
}

/** Starts a worker process and resolves once it takes jobs. */
function startWorker(model: string, queue: string, prefix: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "src/cli/index.ts"), "worker", "--queue", queue, "--prefix", prefix, "--model", model, "--threads", "1", "--max-tokens", String(MAX_TOKENS)], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes("taking jobs")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
  });
}

async function queueSection(model: string): Promise<Record<string, unknown>[]> {
  const redis = new Redis(REDIS_URL);
  const prefix = `pocket-bench-${process.pid}`;
  const rows: Record<string, unknown>[] = [];
  const extractor = await createExtractor({ model, threads: 1, maxTokens: MAX_TOKENS });
  const docs = Array.from({ length: QUEUE_DOCS }, (_, i) => ({ id: `d${i}`, text: text(i) }));
  await drive(1, 4, (i) => extractor.extract(SCHEMA, text(i)).then(() => undefined));
  /** The same documents through one in-process extractor, measured right before each queue run. */
  const inProcessDocsPerSecond = async (): Promise<number> => {
    const t0 = performance.now();
    for await (const r of extractor.extractMany(SCHEMA, docs)) if (r.error) throw r.error;
    return QUEUE_DOCS / ((performance.now() - t0) / 1000);
  };
  try {
    for (const workers of [1, 2]) {
      const inProcess = await inProcessDocsPerSecond();
      const queue = `bench-${workers}`;
      const children = await Promise.all(Array.from({ length: workers }, () => startWorker(model, queue, prefix)));
      const enqueue = async (batch: readonly { id: string; text: string }[], expected: number): Promise<void> => {
        const jsonl = batch.map((d) => `${JSON.stringify(d)}\n`).join("");
        await enqueueLines({ queue, prefix, redisUrl: REDIS_URL, schema: SCHEMA }, readLines((async function* () { yield jsonl; })()));
        while ((await redis.hlen(`${prefix}:${queue}:pocket-results`)) < expected) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      // Warm-up: each fresh worker process compiles the schema and warms its JIT on these.
      const warmUp = Array.from({ length: 4 * workers }, (_, i) => ({ id: `warm${i}`, text: text(i) }));
      await enqueue(warmUp, warmUp.length);
      const started = performance.now();
      await enqueue(docs, warmUp.length + QUEUE_DOCS);
      const docsPerSecond = QUEUE_DOCS / ((performance.now() - started) / 1000);
      await Promise.all(children.map((c) => new Promise((resolve) => (c.once("exit", resolve), c.kill("SIGTERM")))));
      rows.push({ workers, docsPerSecond, inProcessDocsPerSecond: inProcess });
      console.log(`  ${workers} worker(s): ${fmt(docsPerSecond)} docs/s (in-process extractMany: ${fmt(inProcess)} docs/s)`);
    }
  } finally {
    await extractor.dispose();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  return rows;
}

async function main(): Promise<void> {
  const model = await ensureGgufFixture("tiny");
  console.log(`bench:serve — tiny GGUF, 1 thread per engine, max ${MAX_TOKENS} tokens, ${DOCS} docs per run, median of ${REPS} runs`);
  const http = await httpSection(model);
  console.log("\nqueue (worker processes on the local Redis):");
  const queue = await queueSection(model);
  const table = formatTable(
    ["pool", "conc", "HTTP docs/s", "HTTP p50 ms", "HTTP p99 ms", "in-proc docs/s", "in-proc p50 ms", "in-proc p99 ms", "overhead ms", "overhead"],
    http.map((row) => {
      const h = row.http as Run;
      const d = row.inProcess as Run;
      return [String(row.pool), String(row.concurrency), fmt(h.docsPerSecond), fmt(h.p50), fmt(h.p99), fmt(d.docsPerSecond), fmt(d.p50), fmt(d.p99), fmt(row.overheadMs as number, 2), `${((row.overheadShare as number) * 100).toFixed(1)}%`];
    }),
  );
  const queueTable = formatTable(
    ["workers", "queue docs/s", "in-process docs/s (1 engine, run just before)", "ratio"],
    queue.map((row) => [String(row.workers), fmt(row.docsPerSecond as number), fmt(row.inProcessDocsPerSecond as number), `${((row.docsPerSecond as number) / (row.inProcessDocsPerSecond as number)).toFixed(2)}x`]),
  );
  console.log(`\nHTTP /v1/extract vs in-process extract (same pool, same documents)\n${table}\n\nQueue (${QUEUE_DOCS} documents, enqueue to last result)\n${queueTable}`);
  const path = resultPath(`serve-${stamp()}.json`);
  writeFileSync(path, `${JSON.stringify({ maxTokens: MAX_TOKENS, docs: DOCS, reps: REPS, queueDocs: QUEUE_DOCS, http, queue }, null, 2)}\n`);
  console.log(`results: ${path}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
