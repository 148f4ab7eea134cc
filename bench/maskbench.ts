/**
 * MaskBench (JSONSchemaBench's mask benchmark) on our 64K fixture vocabulary:
 *
 *   npm run maskbench -- [dir] [--sample N] [--seed S] [--timeout-ms T] [--json out] [--cold-compile] [--eager-states N] [--property-order any|declared]
 *
 * For each file (default: the dev sample in ../shared/corpora/jsonschemabench/maskbench) the schema
 * is compiled with JSON Schema semantics and flexible whitespace, and every test instance,
 * serialized like Python's `json.dumps(data, ensure_ascii=False)`, is tokenized with the fixture
 * tokenizer and fed token by token (fill mask, check the token's bit, accept). A valid instance
 * must be accepted to the end and complete; an invalid one must be refused or left incomplete.
 * Each schema runs in a worker with a wall-clock limit (a hung compile cannot stop the run); each
 * instance set is run twice on the same compiled grammar: first pass (cold caches), second (warm).
 * Prints the benchmark's counts and percentiles; writes the full result (including every
 * failure with its instance) as JSON to bench/results/. Compile times are with the rule automata
 * shared across schemas warm from the files before (a long-running process); --cold-compile
 * clears them before each file (a first compile). --eager-states N compiles with that
 * `eagerStates` (0: only the start rule at compile, the rest as documents reach them; Infinity:
 * every rule at compile; default: the library's). --property-order compiles with that
 * `propertyOrder` (default: the library's, "declared", whose refusals of valid instances for their
 * key order are counted as "order").
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_MASKBENCH_DIR, listMaskbench, sampleNames } from "./support/corpus.js";
import { bareOutcome, type SchemaOutcome } from "./support/evaluate.js";
import { IsolatedRunner } from "./support/isolated.js";
import { MaskbenchTally, printSummary } from "./support/maskbench-report.js";
import type { MaskbenchWorkerConfig } from "./support/maskbench-worker.js";
import { fromRoot, resultPath, stamp } from "./support/paths.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sample: { type: "string" },
    seed: { type: "string", default: "1" },
    "timeout-ms": { type: "string", default: "10000" },
    json: { type: "string" },
    "cold-compile": { type: "boolean", default: false },
    "eager-states": { type: "string" },
    "property-order": { type: "string" },
  },
});

const dir = fromRoot(positionals[0] ?? DEFAULT_MASKBENCH_DIR);
const sample = values.sample === undefined ? undefined : Number(values.sample);
const seed = Number(values.seed);
const timeoutMs = Number(values["timeout-ms"]);
const names = listMaskbench(dir);
if (!names) {
  console.log(`maskbench: skipped, corpus directory not found: ${dir}`);
  process.exit(0);
}
const chosen = sampleNames(names, sample, seed);
const out = values.json ? fromRoot(values.json) : resultPath(`maskbench-${sample === undefined ? "all" : `sample${sample}-seed${seed}`}-${stamp()}.json`);
console.log(`maskbench: ${chosen.length} of ${names.length} files in ${dir} (seed ${seed}, limit ${timeoutMs} ms per schema)`);

const propertyOrder = values["property-order"];
if (propertyOrder !== undefined && propertyOrder !== "any" && propertyOrder !== "declared") {
  console.log(`maskbench: --property-order must be "any" or "declared", got ${JSON.stringify(propertyOrder)}`);
  process.exit(1);
}
const config: MaskbenchWorkerConfig = { dir, timeoutMs, coldCompile: values["cold-compile"], eagerStates: values["eager-states"] === undefined ? undefined : Number(values["eager-states"]), propertyOrder };
const runner = new IsolatedRunner<string, SchemaOutcome>(new URL("./support/maskbench-worker.ts", import.meta.url), config);
const tally = new MaskbenchTally();
const started = performance.now();
// The worker checks the limit itself between tokens; the watchdog only catches what cannot be interrupted.
const watchdogMs = timeoutMs + Math.max(5000, timeoutMs);
for (const [i, name] of chosen.entries()) {
  const result = await runner.run(name, watchdogMs);
  if (result.kind === "ok") tally.add(result.value);
  else if (result.kind === "timeout") tally.add(bareOutcome(name, "timeout"));
  else tally.add(bareOutcome(name, "crash", { stage: "worker", code: "WorkerDied", message: result.error }));
  if ((i + 1) % 25 === 0 || i + 1 === chosen.length) {
    const elapsed = (performance.now() - started) / 1000;
    console.error(`[${i + 1}/${chosen.length}] ${elapsed.toFixed(0)} s: ${tally.progress()}`);
    // A checkpoint, so a long run that is stopped early still leaves its figures so far.
    writeResult(i + 1 === chosen.length);
  }
}
await runner.close();

printSummary(tally.summary(), `MaskBench: ${chosen.length} schemas (${sample === undefined ? "all files" : `sample ${sample}, seed ${seed}`})`);
for (const o of problems().slice(0, 20)) console.log(`  ${o.status}: ${o.file}: ${o.error ? `${o.error.stage} ${o.error.code}: ${o.error.message}` : o.mismatches[0]}`);
console.log(`\nresults: ${out}`);


/** Crashes, engine mismatches and typed errors while matching. */
function problems(): SchemaOutcome[] {
  return tally.outcomes.filter((o) => o.status === "crash" || o.mismatches.length > 0 || (o.status === "fail" && o.error));
}

function writeResult(complete: boolean): void {
  const meta = { dir, files: names!.length, sample, seed, timeoutMs, propertyOrder: propertyOrder ?? "declared", done: tally.outcomes.length, complete, workerStarts: runner.starts };
  const result = {
    meta: { ...meta, node: process.version, date: new Date().toISOString(), seconds: (performance.now() - started) / 1000 },
    summary: tally.summary(),
    failures: {
      validRejected: tally.failures("validRejected"),
      orderRejected: tally.failures("orderRejected"),
      invalidAccepted: tally.failures("invalidAccepted"),
      problems: problems().map(({ coldTokenUs, warmTokenUs, coldMaskUs, ...rest }) => rest),
    },
    schemas: tally.rows(),
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 1));
}
