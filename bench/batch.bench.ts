/**
 * `npm run bench:batch`: 1,000 documents through the `pocket-extract` CLI (a real subprocess,
 * src/cli/index.ts under tsx) on the tiny random-weight GGUF fixture. Measures, from the CLI's own
 * --summary-json, documents/s at concurrency 1 and N; the process's RSS (from /proc) when the first
 * result is written vs when the last one is, so a leak per document shows as growth; and, after a
 * SIGKILL half way, how long `--resume` takes to write its first new line (reading the output
 * back, loading the model, compiling) and to finish.
 *
 * Options: --docs 1000, --concurrency 2 (the N), --max-tokens 32. Results go to
 * bench/results/batch-<stamp>.json. The tiny model's weights are random: its answers are noise,
 * the figures are about the pipeline (decode loop, masks, verification, JSONL I/O), not accuracy.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { ORDER_SCHEMA, orderText } from "./support/orders.js";
import { PROJECT_ROOT, resultPath, stamp } from "./support/paths.js";

const { values } = parseArgs({
  options: { docs: { type: "string", default: "1000" }, concurrency: { type: "string", default: "2" }, "max-tokens": { type: "string", default: "32" } },
});
const DOCS = Number(values.docs);
const N = Number(values.concurrency);
const MAX_TOKENS = values["max-tokens"];
const BIN = join(PROJECT_ROOT, "src/cli/index.ts");


interface RunFigures {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly wallMs: number;
  /** ms from spawn to the first new output line. */
  readonly firstLineMs: number | undefined;
  readonly rssAtFirstLineMb: number | undefined;
  /** Sampled when the line count last grew: near the end of the batch, before the model is freed. */
  readonly rssAtLastResultMb: number | undefined;
  readonly rssMaxMb: number;
  readonly summary: Summary | undefined;
}

interface Summary {
  readonly documents: Record<string, number>;
  readonly thisRun: { readonly documents: number; readonly setupMs: number; readonly batchMs: number; readonly documentsPerSecond: number; readonly outputTokensPerSecond: number };
  readonly time: { readonly maskShare: number };
  readonly tokens: Record<string, number>;
}

const mb = (kb: number): number => Math.round(kb / 102.4) / 10;

function rssKb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Distinct ids in an output file, refusing duplicates. */
function distinctIds(path: string): number {
  const ids = readFileSync(path, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as { id: string }).id);
  const distinct = new Set(ids);
  if (distinct.size !== ids.length) throw new Error(`${path}: ${ids.length - distinct.size} duplicate ids`);
  return distinct.size;
}

function lines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path).reduce((n, b) => (b === 0x0a ? n + 1 : n), 0);
}

/** Runs the CLI, sampling its RSS every 100 ms; `killAfterLines` SIGKILLs it once that many lines exist. */
async function runCli(args: readonly string[], output: string, summaryPath: string, killAfterLines?: number): Promise<RunFigures> {
  const before = lines(output);
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args, "--summary-json", summaryPath], { cwd: PROJECT_ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let firstLineMs: number | undefined;
  let rssAtFirstLine: number | undefined;
  let rssAtLastResult: number | undefined;
  let rssMax = 0;
  let seen = before;
  const timer = setInterval(() => {
    const rss = rssKb(child.pid!);
    if (rss !== undefined) rssMax = Math.max(rssMax, rss);
    const now = lines(output);
    if (now > seen) {
      seen = now;
      rssAtLastResult = rss;
    }
    if (firstLineMs === undefined && now > before) {
      firstLineMs = performance.now() - started;
      rssAtFirstLine = rss;
    }
    if (killAfterLines !== undefined && now >= killAfterLines) child.kill("SIGKILL");
  }, 100);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("close", (code, sig) => resolve([code, sig])));
  clearInterval(timer);
  if (exitCode === 2) throw new Error(`pocket-extract failed:\n${stderr}`);
  return {
    exitCode,
    signal,
    wallMs: performance.now() - started,
    firstLineMs,
    rssAtFirstLineMb: rssAtFirstLine === undefined ? undefined : mb(rssAtFirstLine),
    rssAtLastResultMb: rssAtLastResult === undefined ? undefined : mb(rssAtLastResult),
    rssMaxMb: mb(rssMax),
    summary: signal === "SIGKILL" ? undefined : (JSON.parse(readFileSync(summaryPath, "utf8")) as Summary),
  };
}

async function main(): Promise<void> {
  const model = await ensureGgufFixture("tiny");
  const dir = mkdtempSync(join(tmpdir(), "pocket-batch-bench-"));
  const schema = join(dir, "schema.json");
  writeFileSync(schema, JSON.stringify(ORDER_SCHEMA));
  const input = join(dir, "in.jsonl");
  writeFileSync(
    input,
    Array.from({ length: DOCS }, (_, i) => {
      const text = orderText(i);
      return JSON.stringify({ id: `doc-${i}`, text });
    }).join("\n") + "\n",
  );
  const common = (output: string, concurrency: number): string[] => [
    "run", "--schema", schema, "--model", model, "--input", input, "--output", output, "--max-tokens", MAX_TOKENS, "--concurrency", String(concurrency), "--quiet",
  ];
  const report: Record<string, unknown> = { docs: DOCS, maxTokens: Number(MAX_TOKENS), model, when: new Date().toISOString() };
  const rows: string[] = [];
  for (const concurrency of [1, N]) {
    const output = join(dir, `out-c${concurrency}.jsonl`);
    const r = await runCli(common(output, concurrency), output, join(dir, `s-c${concurrency}.json`));
    const s = r.summary!;
    if (distinctIds(output) !== DOCS) throw new Error(`expected ${DOCS} ids in ${output}, found ${distinctIds(output)}`);
    report[`concurrency${concurrency}`] = r;
    rows.push(
      `concurrency ${concurrency}: ${s.thisRun.documentsPerSecond.toFixed(2)} docs/s (${s.thisRun.outputTokensPerSecond.toFixed(0)} output tokens/s, ` +
        `batch ${(s.thisRun.batchMs / 1000).toFixed(1)} s + setup ${(s.thisRun.setupMs / 1000).toFixed(1)} s), mask share ${(100 * s.time.maskShare).toFixed(1)}%, ` +
        `RSS ${r.rssAtFirstLineMb} MB at first result -> ${r.rssAtLastResultMb} MB at last result (max ${r.rssMaxMb} MB)`,
    );
    console.log(rows[rows.length - 1]);
  }
  // Kill half way, then time the resume.
  const output = join(dir, "out-resume.jsonl");
  const killed = await runCli(common(output, 1), output, join(dir, "s-killed.json"), Math.floor(DOCS / 2));
  const linesAtKill = lines(output);
  const resumed = await runCli([...common(output, 1), "--resume"], output, join(dir, "s-resume.json"));
  if (distinctIds(output) !== DOCS) throw new Error(`resume: expected ${DOCS} ids, found ${distinctIds(output)}`);
  report.resume = { killedAtLines: linesAtKill, killed, resumed };
  rows.push(
    `resume after SIGKILL at ${linesAtKill} lines: first new line after ${((resumed.firstLineMs ?? NaN) / 1000).toFixed(1)} s ` +
      `(setup ${(resumed.summary!.thisRun.setupMs / 1000).toFixed(1)} s, reading ${linesAtKill} lines back included), ` +
      `finished the remaining ${resumed.summary!.thisRun.documents} in ${(resumed.wallMs / 1000).toFixed(1)} s; output ${DOCS} lines, no duplicate`,
  );
  console.log(rows[rows.length - 1]);
  const path = resultPath(`batch-${stamp()}.json`);
  writeFileSync(path, `${JSON.stringify({ ...report, rows }, null, 2)}\n`);
  console.log(`results: ${path}`);
}

await main();
