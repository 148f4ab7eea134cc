/**
 * Persisted grammars: what a restarted process saves by loading a serialized grammar instead of
 * compiling it, side by side in one run on the 64K fixture vocabulary:
 *
 *   npm run bench:persist -- [--runs R] [--dir <maskbench dir>]
 *
 * Schemas: the extraction set (bench/support/extraction-set.ts, compact JSON) and the MaskBench
 * dev-sample schema at the 99th percentile of schema size that compiles and accepts its valid
 * instances (flexible whitespace, as maskbench runs it). Per schema, medians of R runs:
 * - compile: compileGrammar without the compile cache, shared rule automata cleared first (a
 *   fresh process); load: loadCompiledGrammar of the bytes serialized after the documents
 *   (tables + hot masks), and the same read from a file (readFileSync + load), each the median
 *   of 15 loads per run;
 * - first-document per-token cost (mask + check + accept over the schema's instances) on a fresh
 *   compile, on a grammar loaded with tables only, and on one loaded with its hot masks (the
 *   restart case: the masks the same documents computed in the process before).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadCompiledGrammar, type CompiledGrammar, type CompileGrammarOptions } from "../src/mask/index.js";
import type { Vocabulary } from "../src/tokens/index.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { OUR_FORMAT } from "./support/compare.js";
import { DEFAULT_MASKBENCH_DIR, listMaskbench, loadMaskbench } from "./support/corpus.js";
import { driveMatcher } from "./support/drive.js";
import { compileUncached, MASKBENCH_OPTIONS } from "./support/evaluate.js";
import { EXTRACTION_CASES } from "./support/extraction-set.js";
import { fromRoot } from "./support/paths.js";
import { median, Samples } from "./support/stats.js";
import { fmt, formatTable, ratio } from "./support/table.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" }, dir: { type: "string", default: DEFAULT_MASKBENCH_DIR } } });
const runs = Number(values.runs);
const vocabulary = await fixtureVocabulary();
const eos = vocabulary.eosIds[0]!;

interface Case {
  readonly name: string;
  readonly schema: unknown;
  readonly options: CompileGrammarOptions;
  readonly ids: readonly (readonly number[])[];
}

/** Per-token microseconds over every instance, first pass on `compiled` (false: some refused). */
function firstDocument(compiled: CompiledGrammar, c: Case): Samples | undefined {
  const samples = new Samples();
  const mask = new Uint32Array(compiled.tokens.maskWords);
  for (const ids of c.ids) {
    const outcome = driveMatcher(compiled.tokens.matcher(), ids, mask, eos, { token: samples });
    if (outcome.rejectedAt >= 0 || !outcome.complete) return undefined;
  }
  return samples;
}

/** The MaskBench dev schema at the 99th percentile of size that compiles and takes its valid instances. */
function corpusP99(dir: string, vocab: Vocabulary): Case | undefined {
  const names = listMaskbench(dir);
  if (!names) return undefined;
  const bySize = names.map((name) => ({ name, size: readFileSync(join(dir, name)).length })).sort((a, b) => a.size - b.size);
  for (let rank = Math.floor(bySize.length * 0.99); rank >= 0; rank--) {
    const file = loadMaskbench(dir, bySize[rank]!.name);
    const c: Case = { name: `maskbench p99 (${file.name})`, schema: file.schema, options: MASKBENCH_OPTIONS, ids: file.tests.filter((t) => t.valid).map((t) => vocab.encode(t.text)) };
    if (c.ids.length === 0) continue;
    try {
      if (firstDocument(compileUncached(c.schema, vocab, c.options), c)) return c;
    } catch {
      // Does not compile: the next size down.
    }
  }
  return undefined;
}

const cases: Case[] = EXTRACTION_CASES.map((c) => ({ name: c.name, schema: c.schema, options: OUR_FORMAT, ids: c.texts.map((t) => vocabulary.encode(t)) }));
const p99 = corpusP99(fromRoot(values.dir), vocabulary);
if (p99) cases.push(p99);
else console.log(`bench:persist: no MaskBench corpus at ${values.dir}; extraction set only`);

const scratch = mkdtempSync(join(tmpdir(), "pocket-persist-bench-"));
interface Row {
  compileMs: number[];
  loadMs: number[];
  fileLoadMs: number[];
  fresh: number[];
  tablesOnly: number[];
  hot: number[];
  bytes: number;
  tableBytes: number;
  masks: number;
}
const rows = new Map<string, Row>(cases.map((c) => [c.name, { compileMs: [], loadMs: [], fileLoadMs: [], fresh: [], tablesOnly: [], hot: [], bytes: 0, tableBytes: 0, masks: 0 }]));
const avg = (s: Samples): number => s.summary().avg;
/** Loads are sub-millisecond: each run takes the median of several, so one preemption on a
 *  shared machine does not stand for the run. */
const LOADS_PER_RUN = 15;
function medianTime(times: number, fn: () => unknown): number {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

for (let r = 0; r <= runs; r++) {
  console.error(r === 0 ? "warm-up run (discarded)..." : `run ${r}/${runs}...`);
  for (const c of cases) {
    const row = rows.get(c.name)!;
    const t0 = performance.now();
    const compiled = compileUncached(c.schema, vocabulary, c.options, true);
    const compileMs = performance.now() - t0;
    const fresh = firstDocument(compiled, c)!;
    const bytes = compiled.serialize();
    const tables = compiled.serialize({ maxMasks: 0 });
    const path = join(scratch, `${r}.grammar`);
    writeFileSync(path, bytes);
    const loadMs = medianTime(LOADS_PER_RUN, () => loadCompiledGrammar(bytes, vocabulary));
    const fileLoadMs = medianTime(LOADS_PER_RUN, () => loadCompiledGrammar(readFileSync(path), vocabulary));
    const hot = firstDocument(loadCompiledGrammar(bytes, vocabulary), c)!;
    const tablesOnly = firstDocument(loadCompiledGrammar(tables, vocabulary), c)!;
    if (r === 0) continue;
    row.compileMs.push(compileMs);
    row.loadMs.push(loadMs);
    row.fileLoadMs.push(fileLoadMs);
    row.fresh.push(avg(fresh));
    row.tablesOnly.push(avg(tablesOnly));
    row.hot.push(avg(hot));
    row.bytes = bytes.length;
    row.tableBytes = tables.length;
    row.masks = compiled.tokens.stats().cachedMasks;
  }
}
rmSync(scratch, { recursive: true, force: true });

console.log(`\nbench:persist: medians of ${runs} runs, 64K vocabulary`);
console.log(
  formatTable(
    ["schema", "compile ms", "load ms", "compile/load", "file+load ms", "bytes (tables)", "masks"],
    cases.map((c) => {
      const row = rows.get(c.name)!;
      const compile = median(row.compileMs);
      const load = median(row.loadMs);
      return [c.name, fmt(compile), fmt(load, 3), ratio(compile, load), fmt(median(row.fileLoadMs), 3), `${row.bytes} (${row.tableBytes})`, String(row.masks)];
    }),
  ),
);
console.log("\nfirst-document per-token average, us (mask + check + accept):");
console.log(
  formatTable(
    ["schema", "fresh compile", "loaded, tables only", "loaded, hot masks", "fresh/hot"],
    cases.map((c) => {
      const row = rows.get(c.name)!;
      return [c.name, fmt(median(row.fresh)), fmt(median(row.tablesOnly)), fmt(median(row.hot)), ratio(median(row.fresh), median(row.hot))];
    }),
  ),
);
console.log("(tables only: the first mask computed checks transitions the file does not hold, which rebuilds the automaton, about one compile)");
console.log("\ntargets: load a typical extraction schema <= 1 ms, the corpus p99 schema <= 10 ms");
