/**
 * First-document cost of this tree against another checkout of the project, side by side in one
 * process: each MaskBench file is compiled and its test instances run token by token on cold
 * caches (as `npm run maskbench` and bench/cold-tail.ts do) by both trees, in alternating order,
 * so a loaded machine slows both alike. The baseline is a directory holding another revision's
 * sources, e.g. `git archive main | tar -x -C /tmp/base` with node_modules and
 * fixtures/generated linked from this tree:
 *
 *   npx tsx bench/cold-ab.ts --baseline /tmp/base [--sample N] [--seed S] [--rounds R] [dir]
 *
 * With `--rounds R` (default 1) each file is compiled and run R times per tree, and each token,
 * compile and file CPU time keeps its least value over the rounds: on a machine shared with other
 * jobs, the least of a few runs is the work itself, without the time other processes took (it
 * also drops garbage-collection pauses that do not recur at the same token). Each tree's
 * process-wide shared automata are cleared before each of its rounds, so every round of every file
 * is a first compile, as in a fresh process (maskbench --cold-compile), with one round or many:
 * left warm, rounds after the first found the first round's rule builds done, and the
 * least of 3 rounds hid them (max token 14.2 ms against 70.5 ms with one round).
 *
 * Reported per tree: per-token wall time percentiles and average, process CPU time in the token
 * loops (not inflated by waiting for a CPU, but shared with the other tree's garbage), and
 * compile time percentiles; with ratios baseline/this.
 */
import { parseArgs } from "node:util";
import { clearSharedAutomata } from "../src/automaton/index.js";
import { hasBit } from "../src/util/bitset.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { abInputs, treeLoader } from "./support/tree-loader.js";
import { loadMaskbench, sampleNames } from "./support/corpus.js";
import * as evaluate from "./support/evaluate.js";
import { Samples, summarize } from "./support/stats.js";
import { fmt, formatTable, ratio } from "./support/table.js";
import { warmUp } from "./support/warm-up.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { baseline: { type: "string" }, sample: { type: "string", default: "300" }, seed: { type: "string", default: "1" }, rounds: { type: "string", default: "1" } },
});
const { baseline, dir, names } = abInputs("cold-ab", values.baseline, positionals[0]);

/** What this bench needs of a tree: its compile entry point and vocabulary (each tree's own
 *  module instances, so neither shares the other's vocabulary index or shared automata). */
interface Tree {
  readonly name: string;
  readonly evaluate: typeof evaluate;
  readonly vocabulary: Awaited<ReturnType<typeof fixtureVocabulary>>;
  /** Clears the tree's process-wide shared automata (rule and string caches). */
  readonly reset: () => void;
  readonly tokens: Samples;
  readonly compileMs: Samples;
  cpuUs: number;
}

const load = treeLoader(baseline);
const baseVocab = await load<{ fixtureVocabulary: typeof fixtureVocabulary }>("test/support/fixture-vocab.ts");
const baseWarmUp = await load<{ warmUp: typeof warmUp }>("bench/support/warm-up.ts");
const baseAutomaton = await load<{ clearSharedAutomata: typeof clearSharedAutomata }>("src/automaton/index.ts");
const trees: Tree[] = [
  { name: "baseline", evaluate: await load<typeof evaluate>("bench/support/evaluate.ts"), vocabulary: await baseVocab.fixtureVocabulary(), reset: baseAutomaton.clearSharedAutomata, tokens: new Samples(), compileMs: new Samples(), cpuUs: 0 },
  { name: "this tree", evaluate, vocabulary: await fixtureVocabulary(), reset: clearSharedAutomata, tokens: new Samples(), compileMs: new Samples(), cpuUs: 0 },
];
baseWarmUp.warmUp(trees[0]!.vocabulary);
warmUp(trees[1]!.vocabulary);

/** One file's figures on one tree. */
interface FileRun {
  readonly compileMs: number;
  readonly tokenUs: number[];
  readonly cpuUs: number;
}

/** Compiles `name` with `tree` and runs its instances; undefined when the file is not measured
 *  (compile error, or a format the grammar does not enforce). */
function runFile(tree: Tree, name: string): FileRun | undefined {
  const file = loadMaskbench(dir, name);
  const { compileUncached, MASKBENCH_OPTIONS, notEnforced } = tree.evaluate;
  const started = performance.now();
  let compiled;
  try {
    compiled = compileUncached(file.schema, tree.vocabulary, MASKBENCH_OPTIONS);
  } catch {
    return undefined;
  }
  const compileMs = performance.now() - started;
  if (compiled.report !== undefined && notEnforced(compiled.report).length > 0) return undefined;
  const grammar = compiled.tokens;
  const mask = new Uint32Array(grammar.maskWords);
  const encoded = file.tests.map((test) => tree.vocabulary.encode(test.text));
  const tokenUs: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (const ids of encoded) {
    const matcher = grammar.matcher();
    for (const id of ids) {
      const t0 = performance.now();
      matcher.fillMask(mask);
      const ok = hasBit(mask, id) && matcher.accept(id);
      tokenUs.push((performance.now() - t0) * 1000);
      if (!ok) break;
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { compileMs, tokenUs, cpuUs: cpu.user + cpu.system };
}

/** The least of each figure over the rounds (the same tokens run in each round). */
function leastOf(runs: FileRun[]): FileRun {
  return {
    compileMs: Math.min(...runs.map((run) => run.compileMs)),
    tokenUs: runs[0]!.tokenUs.map((_, t) => Math.min(...runs.map((run) => run.tokenUs[t]!))),
    cpuUs: Math.min(...runs.map((run) => run.cpuUs)),
  };
}

const chosen = sampleNames(names, Number(values.sample), Number(values.seed));
const rounds = Number(values.rounds);
let measured = 0;
for (const [i, name] of chosen.entries()) {
  const order = i % 2 === 0 ? [0, 1] : [1, 0];
  const perTree: FileRun[][] = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const k of order) {
      trees[k]!.reset();
      const run = runFile(trees[k]!, name);
      if (run !== undefined) perTree[k]!.push(run);
    }
  }
  // A file counts only when both trees run it, so both sides measure the same tokens.
  if (perTree.some((runs) => runs.length < rounds)) continue;
  const runs = perTree.map(leastOf);
  measured++;
  trees.forEach((tree, k) => {
    const run = runs[k]!;
    tree.compileMs.push(run.compileMs);
    for (const us of run.tokenUs) tree.tokens.push(us);
    tree.cpuUs += run.cpuUs;
  });
}

const [base, ours] = trees.map((t) => ({ tokens: t.tokens.summary(), compile: summarize(t.compileMs.values()), cpuMs: t.cpuUs / 1000 })) as [
  { tokens: ReturnType<Samples["summary"]>; compile: ReturnType<typeof summarize>; cpuMs: number },
  { tokens: ReturnType<Samples["summary"]>; compile: ReturnType<typeof summarize>; cpuMs: number },
];
const line = (label: string, b: number, o: number): string[] => [label, fmt(b), fmt(o), ratio(b, o)];
console.log(`cold-ab: ${measured} files both trees ran (of ${chosen.length} sampled), ${ours.tokens.n} first-document tokens each${rounds > 1 ? `, least of ${rounds} rounds` : ""}`);
console.log(
  formatTable(
    ["", "baseline", "this tree", "baseline/this"],
    [
      line("token us p50", base.tokens.p50, ours.tokens.p50),
      line("token us p99", base.tokens.p99, ours.tokens.p99),
      line("token us p99.9", base.tokens.p999, ours.tokens.p999),
      line("token us max", base.tokens.max, ours.tokens.max),
      line("token us avg", base.tokens.avg, ours.tokens.avg),
      line("token loops CPU ms", base.cpuMs, ours.cpuMs),
      line("compile ms p50", base.compile.p50, ours.compile.p50),
      line("compile ms p99", base.compile.p99, ours.compile.p99),
      line("compile ms max", base.compile.max, ours.compile.max),
    ],
  ),
);
