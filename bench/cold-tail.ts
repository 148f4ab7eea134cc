/**
 * What the first-document tail is made of: runs MaskBench files like `npm run maskbench` does
 * (compile, then every test instance token by token on cold caches; in this process, not a
 * worker) and labels each token's time with what happened inside it:
 *
 *   npx tsx bench/cold-tail.ts [dir] [--sample N] [--seed S] [--compile-only]
 *
 * `--compile-only` skips the token loops: under `valgrind --tool=callgrind` (repeatable on a
 * loaded machine), a run's instruction count minus its compile-only run's is the token loops'.
 *
 *   gc      a garbage-collection pause overlapped the token (perf_hooks "gc" entries)
 *   rule    a rule automaton was built for the first time (states too)
 *   states  grammar-automaton states were built (no new rule)
 *   mask    a mask was computed over the trie without building states
 *   cached  the mask came from the cache
 *
 * Prints, for the tokens at or above p99, p99.9 and the slowest 20, how many fall in each class
 * and how much of their time, plus the share of the total (the average) by class.
 */
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { GrammarAutomaton } from "../src/automaton/index.js";
import { hasBit } from "../src/util/bitset.js";
import { DEFAULT_MASKBENCH_DIR, listMaskbench, loadMaskbench, sampleNames } from "./support/corpus.js";
import { compileUncached, MASKBENCH_OPTIONS, notEnforced } from "./support/evaluate.js";
import { fromRoot } from "./support/paths.js";
import { percentile, Samples, summarize } from "./support/stats.js";
import { fmt, formatTable, pct } from "./support/table.js";
import { warmUp } from "./support/warm-up.js";

/** perf_hooks constants.NODE_PERFORMANCE_GC_* by value. */
const GC_KINDS: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb" };
const CLASSES = ["gc", "rule", "states", "mask", "cached"] as const;
type TokenClass = (typeof CLASSES)[number];

const { values, positionals } = parseArgs({ allowPositionals: true, options: { sample: { type: "string", default: "300" }, seed: { type: "string", default: "1" }, "compile-only": { type: "boolean", default: false } } });
const dir = fromRoot(positionals[0] ?? DEFAULT_MASKBENCH_DIR);
const names = listMaskbench(dir);
if (!names) {
  console.log(`cold-tail: corpus directory not found: ${dir}`);
  process.exit(0);
}
const chosen = sampleNames(names, Number(values.sample), Number(values.seed));
const vocabulary = await fixtureVocabulary();
warmUp(vocabulary);

const gcPauses: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => gcPauses.push(...list.getEntries()));
observer.observe({ entryTypes: ["gc"] });

const starts = new Samples();
const durations = new Samples();
const labels: TokenClass[] = [];
const mask = new Uint32Array(Math.ceil(vocabulary.width / 32));
/** Process CPU time (all threads, GC helpers included) spent in the token loops: unlike wall time,
 *  not inflated when a loaded machine takes the CPU away. */
let cpuUs = 0;
for (const name of chosen) {
  const file = loadMaskbench(dir, name);
  let compiled;
  try {
    compiled = compileUncached(file.schema, vocabulary, MASKBENCH_OPTIONS);
  } catch {
    continue;
  }
  if (compiled.report !== undefined && notEnforced(compiled.report).length > 0) continue;
  const grammar = compiled.tokens;
  const automaton = grammar.automaton;
  // A freshly compiled grammar runs on a GrammarAutomaton (a loaded one would not build rules).
  const ruleCount = (): number => (automaton instanceof GrammarAutomaton ? automaton.ruleCount : 0);
  // States whose mask was filled before: the cache has them (it holds far more than a file needs).
  const masked = new Set<number>();
  const cpuBefore = process.cpuUsage();
  for (const test of values["compile-only"] ? [] : file.tests) {
    const matcher = grammar.matcher();
    for (const id of vocabulary.encode(test.text)) {
      const states = automaton.numStates;
      const cached = masked.has(matcher.state);
      masked.add(matcher.state);
      // Reading ruleCount allocates: only where a mask is computed (accept alone builds no rule).
      const rules = cached ? 0 : ruleCount();
      const t0 = performance.now();
      matcher.fillMask(mask);
      const ok = hasBit(mask, id) && matcher.accept(id);
      const t1 = performance.now();
      starts.push(t0);
      durations.push((t1 - t0) * 1000);
      labels.push(automaton.numStates === states ? (cached ? "cached" : "mask") : cached || ruleCount() === rules ? "states" : "rule");
      if (!ok) break;
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  cpuUs += cpu.user + cpu.system;
  // Let the observer deliver this file's GC entries.
  await new Promise((resolve) => setImmediate(resolve));
}
observer.disconnect();

// A token overlapped by a GC pause is labelled gc, whatever else it did.
const t0s = starts.values();
const us = durations.values();
for (const pause of gcPauses) {
  const from = pause.startTime;
  const to = pause.startTime + pause.duration;
  let lo = 0;
  let hi = t0s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t0s[mid]! + us[mid]! / 1000 < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < t0s.length && t0s[i]! <= to; i++) labels[i] = "gc";
}

const sorted = Float64Array.from(us).sort();
const total = us.reduce((a, b) => a + b, 0);
const summary = summarize(us);
console.log(`cold-tail: ${chosen.length} files, ${us.length} first-pass tokens, ${gcPauses.length} GC pauses (${fmt(gcPauses.reduce((n, p) => n + p.duration, 0))} ms)`);
const gcKinds = new Map<string, { count: number; ms: number; maxMs: number }>();
for (const pause of gcPauses) {
  const kind = GC_KINDS[(pause as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? "other";
  const k = gcKinds.get(kind) ?? { count: 0, ms: 0, maxMs: 0 };
  gcKinds.set(kind, { count: k.count + 1, ms: k.ms + pause.duration, maxMs: Math.max(k.maxMs, pause.duration) });
}
console.log(`GC by kind: ${[...gcKinds].map(([kind, k]) => `${kind} ${k.count} (${fmt(k.ms)} ms, max ${fmt(k.maxMs)} ms)`).join(", ")}`);
console.log(`token us: p50 ${fmt(summary.p50)}  p99 ${fmt(summary.p99)}  p99.9 ${fmt(summary.p999)}  max ${fmt(summary.max)}  avg ${fmt(summary.avg)}`);
const byClass = (minUs: number, topN?: number): string[][] => {
  const idx = [...us.keys()].filter((i) => us[i]! >= minUs).sort((a, b) => us[b]! - us[a]!).slice(0, topN);
  const time = idx.reduce((n, i) => n + us[i]!, 0);
  return CLASSES.map((c) => {
    const mine = idx.filter((i) => labels[i] === c);
    return [c, String(mine.length), pct(mine.reduce((n, i) => n + us[i]!, 0), time)];
  });
};
for (const [title, rows] of [
  [`tokens >= p99 (${fmt(percentile(sorted, 99))} us)`, byClass(percentile(sorted, 99))],
  [`tokens >= p99.9 (${fmt(percentile(sorted, 99.9))} us)`, byClass(percentile(sorted, 99.9))],
  ["slowest 20 tokens", byClass(0, 20)],
  ["all tokens (share of the average)", byClass(0)],
] as const) {
  console.log(`\n${formatTable([title, "tokens", "time"], rows)}`);
}
console.log(`\ntotal ${fmt(total / 1000)} ms wall, ${fmt(cpuUs / 1000)} ms CPU (process, all threads) in the token loops`);
