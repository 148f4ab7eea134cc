/**
 * `npm run fuzz -- [--runs N | --seconds S] [--seed N] [--targets compile,extract,cli]
 * [--timeout-ms T] [--max-rss-mb M] [--replay target:seed]`
 *
 * Throws hostile schemas, texts and JSONL (fuzz/arbitraries.ts) at `compileGrammar`, `extract`
 * and the CLI (fuzz/targets.ts). Cases run one at a time in a child process (fuzz/worker.ts)
 * watched from here: a case over its time limit is a hang, one whose process passes the memory
 * bound (resident memory polled from /proc, and V8's heap capped at the same figure) is a memory
 * finding; either way the child is killed and a fresh one takes the next case. A typed error
 * (PocketExtractError with a code) is an expected refusal, not a finding. Each finding prints with
 * the seed that replays it; the last line counts everything. Exit code 1 when anything was found.
 * A separate folder from bench/: this looks for failures, bench/ measures speed.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TARGETS, type CaseOutcome, type Target } from "./targets.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    seconds: { type: "string" },
    seed: { type: "string" },
    targets: { type: "string" },
    "timeout-ms": { type: "string" },
    "max-rss-mb": { type: "string" },
    replay: { type: "string" },
  },
});
const timeoutMs = Number(values["timeout-ms"] ?? 30_000);
const maxRssMb = Number(values["max-rss-mb"] ?? 1536);
const baseSeed = Number(values.seed ?? Math.floor(Math.random() * 2 ** 31));
const targets = (values.targets?.split(",") ?? [...TARGETS]) as Target[];
for (const t of targets) if (!TARGETS.includes(t)) throw new Error(`unknown target "${t}" (expected ${TARGETS.join(", ")})`);
const replay = values.replay ? (/^(\w+):(-?\d+)$/.exec(values.replay) ?? undefined) : undefined;
if (values.replay && !replay) throw new Error(`--replay wants target:seed, got "${values.replay}"`);
const runs = replay ? 1 : values.runs !== undefined ? Number(values.runs) : values.seconds === undefined ? 200 : Number.POSITIVE_INFINITY;
const deadline = values.seconds !== undefined ? performance.now() + Number(values.seconds) * 1000 : Number.POSITIVE_INFINITY;

type Verdict = CaseOutcome | { readonly kind: "hang" } | { readonly kind: "memory"; readonly rssMb: number } | { readonly kind: "died"; readonly why: string };

const WORKER = join(dirname(fileURLToPath(import.meta.url)), "worker.ts");
let worker: { child: ChildProcess; stderr: string } | undefined;

async function startWorker(): Promise<{ child: ChildProcess; stderr: string }> {
  const child = fork(WORKER, [], { execArgv: ["--import", "tsx", `--max-old-space-size=${maxRssMb}`], stdio: ["ignore", "ignore", "pipe", "ipc"] });
  const started = { child, stderr: "" };
  child.stderr!.on("data", (d: Buffer) => (started.stderr = (started.stderr + d.toString()).slice(-2000)));
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`fuzz worker failed to start (exit ${code}): ${started.stderr}`)));
  });
  return started;
}

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function runOne(target: Target, seed: number): Promise<Verdict> {
  worker ??= await startWorker();
  const { child } = worker;
  const current = worker;
  const verdict = await new Promise<Verdict>((resolve) => {
    const started = performance.now();
    const watch = setInterval(() => {
      const rss = rssMb(child.pid!);
      if (rss > maxRssMb) finish({ kind: "memory", rssMb: Math.round(rss) });
      else if (performance.now() - started > timeoutMs) finish({ kind: "hang" });
    }, 50);
    const onMessage = (outcome: CaseOutcome): void => finish(outcome);
    const onExit = (code: number | null, signal: string | null): void => {
      const oom = /heap out of memory|Allocation failed/.test(current.stderr);
      finish(oom ? { kind: "memory", rssMb: Math.round(maxRssMb) } : { kind: "died", why: `exit ${code ?? signal}: ${current.stderr.slice(-300)}` });
    };
    function finish(v: Verdict): void {
      clearInterval(watch);
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(v);
    }
    child.once("message", onMessage);
    child.once("exit", onExit);
    child.send({ target, seed });
  });
  // A fresh worker after a finding, and when memory kept from earlier cases nears the bound.
  if (verdict.kind === "hang" || verdict.kind === "memory" || verdict.kind === "died" || rssMb(child.pid!) > maxRssMb / 2) {
    child.kill("SIGKILL");
    worker = undefined;
  }
  return verdict;
}

const FINDINGS = ["crash", "wrong", "hang", "memory", "died"] as const;
const counts: Record<string, number> = { ok: 0, typed: 0, crash: 0, wrong: 0, hang: 0, memory: 0, died: 0 };
const perTarget: Record<string, number> = {};
const typedCodes: Record<string, number> = {};
const started = performance.now();
let done = 0;
console.log(replay ? `fuzz: replaying ${values.replay}` : `fuzz: base seed ${baseSeed}, targets ${targets.join(",")}, timeout ${timeoutMs} ms, memory bound ${maxRssMb} MB`);
for (let i = 0; i < runs && performance.now() < deadline; i++) {
  const target = replay ? (replay[1] as Target) : targets[i % targets.length]!;
  const seed = replay ? Number(replay[2]) : baseSeed + i;
  const verdict = await runOne(target, seed);
  counts[verdict.kind]!++;
  if (verdict.kind === "typed") typedCodes[verdict.code] = (typedCodes[verdict.code] ?? 0) + 1;
  perTarget[target] = (perTarget[target] ?? 0) + 1;
  done++;
  if ((FINDINGS as readonly string[]).includes(verdict.kind)) {
    const detail = "error" in verdict ? verdict.error : "what" in verdict ? verdict.what : "why" in verdict ? verdict.why : "rssMb" in verdict ? `resident memory over ${maxRssMb} MB` : `no answer within ${timeoutMs} ms`;
    console.log(`${verdict.kind.toUpperCase().padEnd(6)} ${target} seed=${seed}  ${detail.replace(/\s+/g, " ")}\n       replay: npm run fuzz -- --replay ${target}:${seed}`);
  } else if (replay) {
    console.log(`${verdict.kind}${verdict.kind === "typed" ? ` ${verdict.code}` : ""}`);
  }
}
worker?.child.kill();
const seconds = Math.round((performance.now() - started) / 1000);
const found = FINDINGS.reduce((n, k) => n + counts[k]!, 0);
console.log(
  `typed errors by code: ${Object.entries(typedCodes).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(", ") || "none"}\n` +
    `fuzz: ${done} cases in ${seconds} s (${Object.entries(perTarget).map(([t, n]) => `${t} ${n}`).join(", ")}): ok ${counts.ok}, typed ${counts.typed}, crashed ${counts.crash}, wrong ${counts.wrong}, hung ${counts.hang}, memory ${counts.memory}, died ${counts.died}; base seed ${baseSeed}`,
);
process.exitCode = found > 0 ? 1 : 0;
