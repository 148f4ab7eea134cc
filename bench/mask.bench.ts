/**
 * Our mask engine vs XGrammar compiled to WASM, side by side in one process, on the 64K fixture
 * vocabulary, same schemas, same instances, same token ids:
 *
 *   npm run bench:mask -- [--runs R] [--schemas K] [--seed S] [--skip-xg-maxlength]
 *
 * Sets: typical extraction schemas (bench/support/extraction-set.ts) and K MaskBench dev schemas
 * (seeded sample) that both engines compile and whose valid instances both accept. Output format
 * is compact JSON (separators "," and ":"), JSON Schema semantics on both sides. Reported: per-token
 * cost (mask + check + accept) warm and cold, compile time, a `maxLength: 200` string's compile
 * time, memory, and mask-only cost in characteristic states; medians over R runs after one
 * discarded warm-up run, with ratios theirs/ours. Writes JSON to bench/results/.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { OUR_FORMAT, prepare, probeMasks, runOurs, runTheirs, selectMaskbenchCases, XG_FORMAT, type EngineRun, type PreparedCase, type SelectionReport } from "./support/compare.js";
import { DEFAULT_MASKBENCH_DIR, listMaskbench } from "./support/corpus.js";
import { driveMatcher } from "./support/drive.js";
import { compileUncached } from "./support/evaluate.js";
import { EXTRACTION_CASES, MAX_LENGTH_200, PROBE_SCHEMA, PROBE_STATES } from "./support/extraction-set.js";
import { externalBytes } from "./support/memory.js";
import { fromRoot, resultPath, stamp } from "./support/paths.js";
import { median, medianSummary, summarize, type Summary } from "./support/stats.js";
import { fmt, formatTable, megabytes, ratio } from "./support/table.js";
import { loadXGrammar } from "./support/xgrammar.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    schemas: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    "skip-xg-maxlength": { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);

const vocabulary = await fixtureVocabulary();
const eos = vocabulary.eosIds[0]!;
const externalBefore = externalBytes();
const xg = await loadXGrammar(await ensureFixtureTokenizer(), vocabulary.width, vocabulary.eosIds);
const xgVocabBytes = externalBytes() - externalBefore;
// One grammar's heap growth, measured before other compiles have grown (and freed) the WASM heap.
const invoice = EXTRACTION_CASES.find((c) => c.name === "invoice")!;
const beforeXgGrammar = externalBytes();
const xgInvoice = await xg.compileJsonSchema(invoice.schema, XG_FORMAT);
const xgGrammarBytes = externalBytes() - beforeXgGrammar;
xgInvoice.dispose();

const sets: { name: string; cases: PreparedCase[] }[] = [{ name: "extraction", cases: prepare(EXTRACTION_CASES, vocabulary) }];
const dir = fromRoot(DEFAULT_MASKBENCH_DIR);
let selection: SelectionReport | undefined;
if (listMaskbench(dir)) {
  console.error(`selecting ${values.schemas} MaskBench schemas both engines handle (seed ${seed})...`);
  const chosen = await selectMaskbenchCases(dir, Number(values.schemas), seed, vocabulary, xg);
  selection = chosen.report;
  sets.push({ name: "maskbench", cases: chosen.cases });
  console.error(`  kept ${chosen.cases.length} of ${selection.tried} tried`, selection);
} else {
  console.log(`bench:mask: MaskBench corpus not found at ${dir}; extraction set only`);
}

interface RunFigures {
  readonly cold: Summary;
  readonly warm: Summary;
  readonly compile: Summary;
}
const figures = (run: EngineRun): RunFigures => ({ cold: run.cold.summary(), warm: run.warm.summary(), compile: summarize(run.compileMs) });
const perRun = new Map<string, { ours: RunFigures[]; theirs: RunFigures[] }>(sets.map((s) => [s.name, { ours: [], theirs: [] }]));

for (let r = 0; r <= runs; r++) {
  console.error(r === 0 ? "warm-up run (discarded)..." : `run ${r}/${runs}...`);
  for (const set of sets) {
    // Alternate which engine goes first so neither always runs on a freshly collected heap.
    let o: EngineRun;
    let t: EngineRun;
    if (r % 2 === 0) {
      o = runOurs(set.cases, vocabulary);
      t = await runTheirs(set.cases, xg, eos);
    } else {
      t = await runTheirs(set.cases, xg, eos);
      o = runOurs(set.cases, vocabulary);
    }
    if (r === 0) continue;
    perRun.get(set.name)!.ours.push(figures(o));
    perRun.get(set.name)!.theirs.push(figures(t));
  }
}

console.error("compile time of a string with maxLength 200...");
const oursMaxLen: number[] = [];
for (let r = 0; r < runs; r++) {
  const t0 = performance.now();
  compileUncached(MAX_LENGTH_200, vocabulary, OUR_FORMAT);
  oursMaxLen.push(performance.now() - t0);
}
let theirsMaxLen = NaN;
if (!values["skip-xg-maxlength"]) {
  const t0 = performance.now();
  (await xg.compileJsonSchema(MAX_LENGTH_200, XG_FORMAT)).dispose();
  theirsMaxLen = performance.now() - t0;
}

console.error("mask-only cost in characteristic states...");
const probes = await probeMasks(PROBE_SCHEMA, PROBE_STATES, vocabulary, xg, Math.max(5, runs * 2));

// Memory: our vocabulary index and one compiled grammar with the caches filled by its documents
// (XGrammar's WASM heap growth for its tokenizer info and the same grammar was taken at load).
const ourInvoice = compileUncached(invoice.schema, vocabulary, OUR_FORMAT);
for (const ids of prepare([invoice], vocabulary)[0]!.ids) driveMatcher(ourInvoice.tokens.matcher(), ids, new Uint32Array(ourInvoice.tokens.maskWords), eos, {});

// ---- report
const rowsFor = (name: string): string[][] => {
  const { ours, theirs } = perRun.get(name)!;
  const o = { cold: medianSummary(ours.map((f) => f.cold)), warm: medianSummary(ours.map((f) => f.warm)), compile: medianSummary(ours.map((f) => f.compile)) };
  const t = { cold: medianSummary(theirs.map((f) => f.cold)), warm: medianSummary(theirs.map((f) => f.warm)), compile: medianSummary(theirs.map((f) => f.compile)) };
  const line = (label: string, a: number, b: number): string[] => [label, fmt(a), fmt(b), ratio(b, a)];
  return [
    line("token us, warm p50", o.warm.p50, t.warm.p50),
    line("token us, warm p99", o.warm.p99, t.warm.p99),
    line("token us, warm avg", o.warm.avg, t.warm.avg),
    line("token us, cold (first doc) p50", o.cold.p50, t.cold.p50),
    line("token us, cold (first doc) p99", o.cold.p99, t.cold.p99),
    line("token us, cold (first doc) p99.9", o.cold.p999, t.cold.p999),
    line("token us, cold (first doc) avg", o.cold.avg, t.cold.avg),
    line("compile ms, p50", o.compile.p50, t.compile.p50),
    line("compile ms, p99", o.compile.p99, t.compile.p99),
  ];
};

const header = ["", "ours", "XGrammar-WASM", "theirs/ours"];
for (const set of sets) {
  const tokens = set.cases.reduce((n, c) => n + c.ids.reduce((m, ids) => m + ids.length, 0), 0);
  console.log(`\n${set.name}: ${set.cases.length} schemas, ${tokens} tokens per pass; medians of ${runs} runs`);
  console.log(formatTable(header, rowsFor(set.name)));
}
const oursIndexBytes = ourInvoice.tokens.index.memoryBytes;
const oursGrammarStats = ourInvoice.tokens.stats();
console.log("\ncompile, memory");
console.log(
  formatTable(header, [
    ["compile ms, string maxLength 200", fmt(median(oursMaxLen)), fmt(theirsMaxLen), ratio(theirsMaxLen, median(oursMaxLen))],
    ["vocabulary (ours: index + trie; XGrammar: WASM heap growth)", megabytes(oursIndexBytes), megabytes(xgVocabBytes), ratio(xgVocabBytes, oursIndexBytes)],
    [`invoice grammar + caches (ours: ${oursGrammarStats.cachedMasks} masks; XGrammar: heap growth)`, megabytes(oursGrammarStats.memoryBytes), megabytes(xgGrammarBytes), ratio(xgGrammarBytes, oursGrammarStats.memoryBytes)],
  ]),
);
console.log("\nmask only (us, medians)");
console.log(
  formatTable(
    ["state", "ours computed", "ours cached", "XGrammar first", "XGrammar", "theirs/ours (cached)"],
    probes.map((p) => [p.state, fmt(p.oursColdUs), fmt(p.oursWarmUs), fmt(p.theirsFirstUs), fmt(p.theirsUs), ratio(p.theirsUs, p.oursWarmUs)]),
  ),
);

const out = resultPath(`mask-bench-${stamp()}.json`);
writeFileSync(
  out,
  JSON.stringify(
    {
      meta: { runs, seed, node: process.version, date: new Date().toISOString(), ourOptions: OUR_FORMAT, xgFormat: XG_FORMAT },
      selection,
      sets: sets.map((s) => ({ name: s.name, schemas: s.cases.map((c) => c.name), perRun: perRun.get(s.name) })),
      maxLength200: { oursMs: oursMaxLen, theirsMs: theirsMaxLen },
      memory: { oursIndexBytes, oursGrammar: oursGrammarStats, xgVocabBytes, xgGrammarBytes },
      probes,
    },
    null,
    1,
  ),
);
console.log(`\nresults: ${out}`);
