/**
 * Compile time of this tree against another checkout of the project, side by side in one process:
 * each chosen MaskBench schema is compiled by both trees in alternating order (the order flips per
 * schema and per round), so a loaded machine slows both alike, and each schema's figure is its
 * median over the rounds. The compile is split as compileGrammar chains it: the schema phase
 * (JSON Schema -> grammar IR, compileSchema) and the automaton phase (IR -> grammar automaton ->
 * token grammar, with the eager rules built).
 *
 *   npx tsx bench/compile-ab.ts --baseline DIR [--sample N] [--seed S] [--rounds R] [--cold]
 *                               [--slowest N [--from maskbench.json]] [dir]
 *
 * `--slowest N` measures the N schemas slowest to compile: by compileMs in a `npm run maskbench
 * -- --json FILE` result (`--from`), or else by a first pass timing this tree once over the
 * candidates (the whole corpus, or the `--sample`). Warm by default (the rule automata shared
 * across schemas stay built, as in a long-running process); `--cold` clears both trees' shared
 * automata before every compile (a first compile). Schemas either tree refuses are left out.
 *
 * Reported per tree, in wall time and in process CPU time (which a loaded machine does not
 * inflate by giving the CPU to other processes; it includes the garbage collector's threads):
 * percentiles and total of the per-schema medians for the whole compile and each phase, with
 * ratios baseline/this, the geometric mean of the per-schema ratios, and the schemas slowest on
 * the baseline. (A forced full collection before each compile was tried to even out garbage
 * collection between the trees: its sweeping then slowed every compile several-fold.)
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { abInputs, treeLoader, type TreeLoader } from "./support/tree-loader.js";
import { loadMaskbench, sampleNames } from "./support/corpus.js";
import { fromRoot } from "./support/paths.js";
import { median, summarize, type Summary } from "./support/stats.js";
import { fmt, formatTable, ratio } from "./support/table.js";
import type { warmUp } from "./support/warm-up.js";
import type * as automaton from "../src/automaton/index.js";
import type * as buildAutomaton from "../src/mask/build-automaton.js";
import type * as tokenGrammar from "../src/mask/token-grammar.js";
import type * as schemaCompiler from "../src/schema-compiler/index.js";
import { MASKBENCH_OPTIONS } from "./support/evaluate.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    baseline: { type: "string" },
    sample: { type: "string" },
    seed: { type: "string", default: "1" },
    rounds: { type: "string", default: "5" },
    slowest: { type: "string" },
    from: { type: "string" },
    cold: { type: "boolean", default: false },
  },
});
const { baseline, dir, names } = abInputs("compile-ab", values.baseline, positionals[0]);

/** The compile pipeline of one tree, each stage from that tree's own modules. */
interface Tree {
  readonly name: string;
  readonly compileSchema: typeof schemaCompiler.compileSchema;
  readonly buildGrammarAutomaton: typeof buildAutomaton.buildGrammarAutomaton;
  readonly TokenGrammar: typeof tokenGrammar.TokenGrammar;
  readonly clearSharedAutomata: typeof automaton.clearSharedAutomata;
  readonly vocabulary: Awaited<ReturnType<typeof fixtureVocabulary>>;
}

/** One compile's phases in milliseconds: wall time, and process CPU time (all threads, so the
 *  garbage collector's helpers count, but not the time a loaded machine gives to other processes). */
interface Timing {
  readonly schemaMs: number;
  readonly automatonMs: number;
  readonly schemaCpuMs: number;
  readonly automatonCpuMs: number;
}

async function loadTree(name: string, load: TreeLoader): Promise<Tree> {
  const vocab = await load<{ fixtureVocabulary: typeof fixtureVocabulary }>("test/support/fixture-vocab.ts");
  const vocabulary = await vocab.fixtureVocabulary();
  (await load<{ warmUp: typeof warmUp }>("bench/support/warm-up.ts")).warmUp(vocabulary);
  return {
    name,
    compileSchema: (await load<typeof schemaCompiler>("src/schema-compiler/index.ts")).compileSchema,
    buildGrammarAutomaton: (await load<typeof buildAutomaton>("src/mask/build-automaton.ts")).buildGrammarAutomaton,
    TokenGrammar: (await load<typeof tokenGrammar>("src/mask/token-grammar.ts")).TokenGrammar,
    clearSharedAutomata: (await load<typeof automaton>("src/automaton/index.ts")).clearSharedAutomata,
    vocabulary,
  };
}

// This tree is loaded the same way as the baseline (its modules are the ones already imported).
const trees: [Tree, Tree] = [await loadTree("baseline", treeLoader(baseline)), await loadTree("this tree", treeLoader(fromRoot(".")))];
const options = MASKBENCH_OPTIONS;

/** Compiles `schema` as compileGrammar does (compile-grammar.ts), timing each phase; undefined
 *  when the tree refuses the schema. */
function compile(tree: Tree, schema: unknown): Timing | undefined {
  if (values.cold) tree.clearSharedAutomata();
  try {
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    const { grammar } = tree.compileSchema(schema, options);
    const [t1, c1] = [performance.now(), process.cpuUsage()];
    new tree.TokenGrammar(tree.buildGrammarAutomaton(grammar, options), tree.vocabulary, options);
    const [t2, c2] = [performance.now(), process.cpuUsage()];
    const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage): number => (to.user + to.system - from.user - from.system) / 1000;
    return { schemaMs: t1 - t0, automatonMs: t2 - t1, schemaCpuMs: cpuMs(c0, c1), automatonCpuMs: cpuMs(c1, c2) };
  } catch {
    return undefined;
  }
}

/** The candidates, then (with --slowest) the slowest of them to compile. */
function choose(): string[] {
  const candidates = values.sample === undefined && values.slowest !== undefined ? names! : sampleNames(names!, Number(values.sample ?? "300"), Number(values.seed));
  if (values.slowest === undefined) return candidates;
  const count = Number(values.slowest);
  if (values.from !== undefined) {
    const result = JSON.parse(readFileSync(fromRoot(values.from), "utf8")) as { schemas: { file: string; compileMs?: number }[] };
    const known = new Set(candidates);
    return result.schemas
      .filter((row) => row.compileMs !== undefined && known.has(row.file))
      .sort((a, b) => b.compileMs! - a.compileMs!)
      .slice(0, count)
      .map((row) => row.file);
  }
  const timed = candidates.flatMap((name) => {
    const t = compile(trees[1], loadMaskbench(dir, name).schema);
    return t === undefined ? [] : [{ name, ms: t.schemaMs + t.automatonMs }];
  });
  return timed
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((t) => t.name);
}

const chosen = choose();
const rounds = Number(values.rounds);
// A pass not timed over the chosen schemas on both trees: the JIT has then seen every schema's
// code paths on both (the first pass of --slowest warmed only this tree), and, warm, the shared
// rule automata the schemas need are built, as in a long-running process that compiled them before.
for (const name of chosen) for (const tree of trees) compile(tree, loadMaskbench(dir, name).schema);
/** Per schema both trees compiled: its median phases on each tree. */
const measured: { name: string; medians: [Timing, Timing] }[] = [];
for (const [i, name] of chosen.entries()) {
  const schema = loadMaskbench(dir, name).schema;
  const runs: [Timing[], Timing[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const k of (i + r) % 2 === 0 ? [0, 1] : [1, 0]) {
      const t = compile(trees[k]!, schema);
      if (t !== undefined) runs[k]!.push(t);
    }
  }
  if (runs.some((list) => list.length < rounds)) continue;
  const middle = (list: Timing[]): Timing => ({
    schemaMs: median(list.map((t) => t.schemaMs)),
    automatonMs: median(list.map((t) => t.automatonMs)),
    schemaCpuMs: median(list.map((t) => t.schemaCpuMs)),
    automatonCpuMs: median(list.map((t) => t.automatonCpuMs)),
  });
  measured.push({ name, medians: [middle(runs[0]), middle(runs[1])] });
}

type Phase = "total" | "schema" | "automaton";
type Clock = "wall" | "cpu";
function phaseMs(t: Timing, phase: Phase, clock: Clock = "wall"): number {
  const [schemaMs, automatonMs] = clock === "wall" ? [t.schemaMs, t.automatonMs] : [t.schemaCpuMs, t.automatonCpuMs];
  return phase === "schema" ? schemaMs : phase === "automaton" ? automatonMs : schemaMs + automatonMs;
}
const summaries = (k: 0 | 1, phase: Phase, clock: Clock): Summary & { total: number } => {
  const list = measured.map((m) => phaseMs(m.medians[k], phase, clock));
  return { ...summarize(list), total: list.reduce((a, b) => a + b, 0) };
};
/** Geometric mean of the per-schema ratios baseline/this: every schema weighs alike. */
const geomean = (phase: Phase, clock: Clock): number =>
  Math.exp(measured.reduce((sum, m) => sum + Math.log(phaseMs(m.medians[0], phase, clock) / phaseMs(m.medians[1], phase, clock)), 0) / measured.length);

console.log(
  `compile-ab: ${measured.length} schemas both trees compiled (of ${chosen.length} chosen${values.slowest === undefined ? "" : `, the ${values.slowest} slowest`}), ${values.cold ? "cold" : "warm"}, median of ${rounds} rounds`,
);
const rows: string[][] = [];
for (const phase of ["total", "schema", "automaton"] as const) {
  const [bw, ow, bc, oc] = [summaries(0, phase, "wall"), summaries(1, phase, "wall"), summaries(0, phase, "cpu"), summaries(1, phase, "cpu")];
  for (const key of ["p50", "p90", "p99", "max", "total"] as const) rows.push([`${phase} ms ${key}`, fmt(bw[key]), fmt(ow[key]), ratio(bw[key], ow[key]), fmt(bc[key]), fmt(oc[key]), ratio(bc[key], oc[key])]);
  rows.push([`${phase} per-schema geomean`, "", "", `${fmt(geomean(phase, "wall"))}x`, "", "", `${fmt(geomean(phase, "cpu"))}x`]);
}
console.log(formatTable(["", "wall: baseline", "this tree", "baseline/this", "CPU: baseline", "this tree", "baseline/this"], rows));

const slowest = [...measured].sort((a, b) => phaseMs(b.medians[0], "total", "cpu") - phaseMs(a.medians[0], "total", "cpu")).slice(0, 10);
console.log("\nslowest on the baseline (CPU ms, median):");
console.log(
  formatTable(
    ["schema", "base schema", "this schema", "base automaton", "this automaton", "total ratio"],
    slowest.map(({ name, medians: [b, o] }) => [name, fmt(b.schemaCpuMs), fmt(o.schemaCpuMs), fmt(b.automatonCpuMs), fmt(o.automatonCpuMs), ratio(phaseMs(b, "total", "cpu"), phaseMs(o, "total", "cpu"))]),
  ),
);
