/**
 * Compile coverage over JSONSchemaBench (`npm run coverage:schemas`): every schema in
 * ../shared/corpora/jsonschemabench/<category>/*.json goes through compileSchema (JSON Schema
 * mode, flexible format) and buildAutomaton (every rule built). Prints, per category and in total, how many
 * compiled, how many were rejected (by error code and keyword), how many crashed (an exception
 * that is not a typed PocketExtractError: must be 0), and compile / automaton time percentiles.
 * Writes per-schema results to bench/results/schema-coverage/<format>/<category>.json as each
 * category finishes. The `maskbench` folder holds the same schemas wrapped with test instances
 * and is skipped.
 * Options: --format compact|flexible (default flexible); --categories A,B (default all);
 * --limit N (per category); --summary (no compiling: summarize the per-category files on disk,
 * e.g. after running categories in parallel processes); --compile-only (skip buildAutomaton:
 * the schema compiler's own coverage, in seconds rather than minutes).
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildAutomaton } from "../src/automaton/index.js";
import { PocketExtractError, SchemaError } from "../src/errors.js";
import { compileSchema } from "../src/schema-compiler/index.js";

const root = join(import.meta.dirname, "../../shared/corpora/jsonschemabench");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const format = arg("format") === "compact" ? "compact" : "flexible";
const limit = Number(arg("limit") ?? Infinity);

interface Result {
  category: string;
  file: string;
  outcome: "compiled" | "rejected" | "crashed";
  stage?: "compile" | "automaton";
  reason?: string;
  compileMs: number;
  automatonMs?: number;
  states?: number;
  message?: string;
}

if (!existsSync(root)) {
  console.error(`corpus not found: ${root}`);
  process.exit(1);
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (xs: number[]): string =>
  `p50 ${pct(xs, 50).toFixed(2)} ms, p90 ${pct(xs, 90).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms, max ${Math.max(...xs).toFixed(2)} ms`;

const categories = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "maskbench" && (arg("categories") === undefined || arg("categories")!.split(",").includes(d.name)))
  .map((d) => d.name)
  .sort();
const compileOnly = process.argv.includes("--compile-only");
const outDir = join(import.meta.dirname, "results", compileOnly ? "schema-coverage-compile-only" : "schema-coverage", format);
mkdirSync(outDir, { recursive: true });
const results: Result[] = [];
for (const category of process.argv.includes("--summary") ? [] : categories) {
  const files = readdirSync(join(root, category)).filter((f) => f.endsWith(".json")).sort().slice(0, limit);
  for (const file of files) {
    const text = readFileSync(join(root, category, file), "utf8");
    const t0 = performance.now();
    let r: Result;
    let stage: "compile" | "automaton" = "compile";
    let compileMs = 0;
    try {
      const compiled = compileSchema(JSON.parse(text), { mode: "jsonschema", format });
      compileMs = performance.now() - t0;
      stage = "automaton";
      const t1 = performance.now();
      // Every rule now (by default a big schema's far rules wait for a document to reach them),
      // so that "compiled" means every rule builds.
      const dfa = compileOnly ? undefined : buildAutomaton(compiled.grammar, { eagerStates: Infinity });
      r = { category, file, outcome: "compiled", compileMs, automatonMs: dfa && performance.now() - t1, states: dfa?.ruleStates };
    } catch (err) {
      if (stage === "compile") compileMs = performance.now() - t0;
      if (err instanceof PocketExtractError) {
        const kw = err instanceof SchemaError && err.keyword ? `:${err.keyword}` : "";
        r = { category, file, outcome: "rejected", stage, reason: `${err.code}${kw}`, compileMs, message: err.message.slice(0, 300) };
      } else {
        r = { category, file, outcome: "crashed", stage, compileMs, message: String((err as Error)?.stack ?? err).slice(0, 600) };
      }
    }
    results.push(r);
  }
  const mine = results.filter((r) => r.category === category);
  writeFileSync(join(outDir, `${category}.json`), JSON.stringify(mine, null, 1));
  const count = (o: Result["outcome"]): number => mine.filter((r) => r.outcome === o).length;
  console.log(`${category.padEnd(16)} ${mine.length} schemas: ${count("compiled")} compiled, ${count("rejected")} rejected, ${count("crashed")} crashed`);
}

if (process.argv.includes("--summary")) {
  for (const category of categories) {
    const file = join(outDir, `${category}.json`);
    if (existsSync(file)) results.push(...(JSON.parse(readFileSync(file, "utf8")) as Result[]));
    else console.log(`${category}: no results on disk`);
  }
}
const by = new Map<string, number>();
for (const r of results) if (r.outcome === "rejected") by.set(`${r.stage}: ${r.reason}`, (by.get(`${r.stage}: ${r.reason}`) ?? 0) + 1);
const compiled = results.filter((r) => r.outcome === "compiled");
const crashed = results.filter((r) => r.outcome === "crashed");
console.log(`\nTOTAL (${format}) ${results.length} schemas: ${compiled.length} compiled, ${results.length - compiled.length - crashed.length} rejected, ${crashed.length} crashed`);
console.log("rejected by reason:");
for (const [k, n] of [...by].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${k}`);
console.log(`compileSchema time (all non-crashed): ${fmt(results.filter((r) => r.outcome !== "crashed").map((r) => r.compileMs))}`);
if (!compileOnly) console.log(`buildAutomaton time (compiled): ${fmt(compiled.map((r) => r.automatonMs!))}`);
for (const c of crashed) console.log(`CRASH ${c.category}/${c.file}: ${c.message}`);
console.log(`results: ${outDir}/<category>.json`);
