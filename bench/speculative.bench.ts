/**
 * `npm run bench:speculative`: what grammar-aware speculative decoding buys, in three parts.
 *
 * 1. MEASURED, forward passes per output token: the gold outputs of the grounding evaluation set
 *    (fixtures/grounding, zh and en) replayed by the scripted engine through the real prompt,
 *    grammar and decode loop, plain and speculative (prompt lookup + forced runs), the latter with
 *    a fresh draft record per case and with one record across the cases (as an Extractor keeps it:
 *    gates paused on one case stay paused on the next), records of the pocket-shaped model (its
 *    gates require the confirmed share its shape gives, as the llama.cpp engine's would).
 *    Random-weight models never copy the document, so acceptance can only be measured on real outputs.
 * 2. MEASURED, the cost of verifying k + 1 tokens in one forward pass against one token, on the
 *    pocket-shaped GGUF (MNN-Pocket-0.3B's shape) as Q8_0 and as Q4_0 (an INT4-class
 *    quantization) at a ~300-token context, for each thread count, k = 0..8.
 * 3. The speed-up: COMPOSED from 1 and 2 (passes per token x cost of the average verification
 *    batch), and MEASURED by replaying the exact batches of part 1's runs (each plain step and
 *    each verification round, same token counts, logits kept at the same rows) through the pocket-shaped GGUF, for the first
 *    WALL_CASES (default 4) cases of each language.
 *
 * 4. MEASURED, the cost on random weights, where few drafts are confirmed: the tiny GGUF
 *    extracting the grounding cases, speculative vs plain, each round's speculative runs sharing
 *    one acceptance record as an extractor's documents do (the break-even of the tiny model's
 *    shape, Engine.verifyRowCost). Each case runs both ways back to back
 *    (the order alternating from case to case and round to round); each of RW_ROUNDS (default 7)
 *    rounds gives a ratio speculative / plain of wall time and of process CPU time (the engine's
 *    threads included; load inflates it less), and the medians of those ratios are reported, with
 *    the engine rows evaluated and forward passes per output token, which no load changes.
 *
 *    RW_THREADS (default 1) threads; VERIFY_COST=measure takes the verification cost timed at load
 *    (LlamaEngineOptions.verifyCost) instead of the shape's.
 *
 * ROUNDS (default 5) repetitions of each batch timing, median reported; THREADS (default "1,2");
 * PARTS (default "1,2,3,4") the parts to run (3 needs 1 and 2).
 */
import { loadavg } from "node:os";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import type { EngineSession } from "../src/engines/engine.js";
import { DraftRecord } from "../src/decode/index.js";
import { breakEvenShare } from "../src/decode/speculative.js";
import { createLlamaEngine } from "../src/engines/llama/index.js";
import { loadLlamaAddon, type NativeLlamaModel } from "../src/engines/llama/addon.js";
import { ScriptedEngine } from "../src/engines/testing/scripted-engine.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { pocketDraftRecord, replay, replayCases } from "./support/replay.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const rounds = Number(process.env.ROUNDS ?? 5);
const wallCases = Number(process.env.WALL_CASES ?? 4);
const threadCounts = (process.env.THREADS ?? "1,2").split(",").map(Number);
const parts = new Set((process.env.PARTS ?? "1,2,3,4").split(",").map(Number));
const rwRounds = Number(process.env.RW_ROUNDS ?? 7);
const rwThreads = Number(process.env.RW_THREADS ?? 1);
const verifyCost = process.env.VERIFY_COST === "measure" ? "measure" : "shape";
/** The pocket-shaped GGUFs whose verification cost part 2 measures. */
const QUANTIZATIONS = [
  { preset: "pocket", name: "Q8_0" },
  { preset: "pocket-q4_0", name: "Q4_0" },
] as const;
const vocabulary = await fixtureVocabulary();

/** A batch fed to the engine: its size and the indices of the tokens whose logits it kept. */
interface Batch {
  readonly size: number;
  readonly rows: readonly number[];
}
/** What a recording session saw: every batch fed to the engine, the prompt's first. */
type BatchLog = Batch[];

/** A session wrapper that records every batch fed to the engine (BatchLog). */
function recording(session: EngineSession, log: BatchLog): EngineSession {
  return {
    feed: (ids) => (log.push({ size: ids.length, rows: [ids.length - 1] }), session.feed(ids)),
    sample: (mask) => session.sample(mask),
    rollback: (n) => session.rollback!(n),
    feedRows: (ids, rows) => (log.push({ size: ids.length, rows }), session.feedRows!(ids, rows)),
    sampleRow: (row, mask) => session.sampleRow!(row, mask),
    close: () => session.close(),
  };
}
const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
/** Tokens evaluated and logits rows kept by the batches of a log after the prompt's. */
const outputBatches = (log: BatchLog) => ({ tokens: sum(log.slice(1).map((b) => b.size)), rows: sum(log.slice(1).map((b) => b.rows.length)) });

// Part 1.
const cases = replayCases();
/** "kept": speculative with one draft record across the cases, as an extractor keeps it (Extractor). */
const totals = {
  plain: { passes: 0, batches: [] as Batch[], rows: 0, masks: { masks: 0 } },
  speculative: { passes: 0, batches: [] as Batch[], rows: 0, masks: { masks: 0 } },
  kept: { passes: 0, batches: [] as Batch[], rows: 0, masks: { masks: 0 } },
};
const keptRecord = pocketDraftRecord(vocabulary);
/** Batches of the cases whose wall time is measured in part 3, and their output tokens. */
const wall = { plain: [] as Batch[], speculative: [] as Batch[], tokens: 0 };
const seenPerLanguage = new Map<string, number>();
let outputTokens = 0;
let drafted = 0;
let accepted = 0;
let forced = 0;
if (parts.has(1) || parts.has(3)) {
  for (const c of cases) {
    for (const mode of ["plain", "speculative", "kept"] as const) {
      const log: BatchLog = [];
      const engine = new ScriptedEngine({ vocabulary, script: c.output, canonical: true });
      const wrapped = { ...engine, vocabulary, name: engine.name, contextLength: undefined, dispose: () => engine.dispose(), createSession: async () => recording(await engine.createSession(), log) };
      const options = { maxTokens: 400, speculative: mode !== "plain", draftRecord: mode === "kept" ? keptRecord : pocketDraftRecord(vocabulary) };
      const r = await replay(c, vocabulary, options, wrapped, totals[mode].masks);
      if (JSON.stringify(JSON.parse(r.text)) !== c.output) throw new Error(`${c.id}: the replay did not reproduce the gold output: ${r.text}`);
      totals[mode].passes += r.stats.forwardPasses - 1; // the prompt's pass excluded
      totals[mode].batches.push(...log.slice(1));
      totals[mode].rows += outputBatches(log).rows;
      if (mode === "kept") continue;
      const seen = seenPerLanguage.get(c.language) ?? 0;
      if (seen < wallCases) {
        wall[mode].push(...log.slice(1));
        if (mode === "speculative") {
          wall.tokens += r.tokens.length;
          seenPerLanguage.set(c.language, seen + 1);
        }
      }
      if (mode === "speculative") {
        outputTokens += r.tokens.length;
        drafted += r.stats.tokensDrafted;
        accepted += r.stats.tokensAccepted;
        forced += r.stats.tokensForced;
      }
    }
  }
  console.log(`speculative bench: ${cases.length} grounding cases (zh + en), ${outputTokens} output tokens (${forced} forced by the grammar)`);
  console.log("\n[measured] forward passes per output token, gold outputs replayed through the decode loop");
  console.log(
    formatTable(
      ["decode loop", "passes", "per output token", "logits rows / output token", "masks / output token"],
      [
        ["one token per pass (forced runs batched)", ...part1Row("plain")],
        ["speculative (prompt lookup + forced runs)", ...part1Row("speculative")],
        ["speculative, one draft record across the cases (as an extractor)", ...part1Row("kept")],
      ],
    ),
  );
  console.log(`drafted ${drafted} tokens, ${accepted} confirmed (${fmt((100 * accepted) / Math.max(1, drafted), 1)}%); draft records of the pocket-shaped model (gates require its break-even share)`);
}
function perToken(mode: keyof typeof totals): number {
  return totals[mode].passes / outputTokens;
}
function part1Row(mode: keyof typeof totals): string[] {
  return [String(totals[mode].passes), fmt(perToken(mode), 3), fmt(totals[mode].rows / outputTokens, 3), fmt(totals[mode].masks.masks / outputTokens, 3)];
}

// Part 2.
const { addon, backendsDir } = loadLlamaAddon();
const context = Int32Array.from({ length: 300 }, (_, i) => 100 + ((i * 7919) % 60000));
/**
 * Median wall and process CPU time (the engine's threads included: llama.cpp's idle threads spin,
 * so with 2 threads it overstates) of one pass of 1..9 tokens, ms. Every size is run once unmeasured
 * first (ggml sizes its compute buffers for a batch shape on first use), then the sizes take turns
 * round by round, in reverse order every other round, so a slow spell of a shared machine falls on
 * all sizes alike instead of on the one measured at that moment.
 */
const batchCosts = async (model: NativeLlamaModel): Promise<{ wall: number[]; cpu: number[] }> => {
  const sizes = Array.from({ length: 9 }, (_, i) => i + 1);
  const times = sizes.map(() => [] as number[]);
  const cpus = sizes.map(() => [] as number[]);
  const pass = async (size: number): Promise<{ wall: number; cpu: number }> => {
    model.truncate(context.length);
    const batch = Int32Array.from({ length: size }, (_, i) => 200 + i * 31);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await model.decode(batch, size);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { wall, cpu: (cpu.user + cpu.system) / 1000 };
  };
  for (const size of sizes) await pass(size);
  for (let r = 0; r < rounds; r++) {
    for (const size of r % 2 === 0 ? sizes : [...sizes].reverse()) {
      const { wall, cpu } = await pass(size);
      times[size - 1]!.push(wall);
      cpus[size - 1]!.push(cpu);
    }
  }
  return { wall: times.map(median), cpu: cpus.map(median) };
};
/** Per quantization and thread count: the loaded model and the wall and CPU cost of a pass of 1..9 tokens. */
const measured = new Map<string, { model: NativeLlamaModel; costs: number[]; cpuCosts: number[] }>();
const key = (quantization: string, threads: number): string => `${quantization}/${threads}`;
if (parts.has(2) || parts.has(3)) {
  for (const { preset, name } of QUANTIZATIONS) {
    const modelPath = await ensureGgufFixture(preset);
    for (const threads of threadCounts) {
      const model = await addon.loadModel(modelPath, { backendsDir, contextLength: 1024, threads });
      await model.decode(context);
      const { wall: costs, cpu: cpuCosts } = await batchCosts(model);
      measured.set(key(name, threads), { model, costs, cpuCosts });
    }
  }
  console.log(`\n[measured] pocket-shaped GGUF, one forward pass of k + 1 tokens at a 300-token context: wall ms and process CPU ms (ratio to one token; medians of ${rounds}; load average ${loadavg()[0]!.toFixed(1)})`);
  const columns = QUANTIZATIONS.flatMap(({ name }) => threadCounts.map((t) => ({ name, t })));
  console.log(
    formatTable(
      ["k", ...columns.map(({ name, t }) => `${name}, ${t} thread${t > 1 ? "s" : ""}`)],
      Array.from({ length: 9 }, (_, k) => [
        String(k),
        ...columns.map(({ name, t }) => {
          const { costs, cpuCosts } = measured.get(key(name, t))!;
          return `${fmt(costs[k]!, 1)} (${fmt(costs[k]! / costs[0]!)}x), CPU ${fmt(cpuCosts[k]!, 1)} (${fmt(cpuCosts[k]! / cpuCosts[0]!)}x)`;
        }),
      ]),
    ),
  );
}

// Part 3.
if (parts.has(3)) {
  const meanBatch = sum(totals.speculative.batches.map((b) => b.size)) / totals.speculative.batches.length;
  const replayWall = async (model: NativeLlamaModel, batches: readonly Batch[]): Promise<number> => {
    model.truncate(context.length);
    const t0 = performance.now();
    for (const { size, rows } of batches) {
      // Keep the context from growing past a realistic extraction: restart at the prompt.
      if (model.position() + size > 900) model.truncate(context.length);
      await model.decode(Int32Array.from({ length: size }, (_, i) => 300 + i), Int32Array.from(rows));
    }
    return performance.now() - t0;
  };
  const rows: string[][] = [];
  for (const { name } of QUANTIZATIONS) {
    for (const threads of threadCounts) {
      const { model, costs } = measured.get(key(name, threads))!;
      const interpolated = costs[Math.min(8, Math.floor(meanBatch) - 1)]! + (meanBatch % 1) * (costs[Math.min(8, Math.floor(meanBatch))]! - costs[Math.min(8, Math.floor(meanBatch) - 1)]!);
      const composed = perToken("plain") / perToken("speculative") / (interpolated / costs[0]!);
      const plainMs = await replayWall(model, wall.plain);
      const specMs = await replayWall(model, wall.speculative);
      rows.push([name, String(threads), `${fmt(composed)}x`, fmt(plainMs / wall.tokens, 2), fmt(specMs / wall.tokens, 2), `${fmt(plainMs / specMs)}x`]);
    }
  }
  console.log(`\nspeed-up of the decode (output tokens only), mean speculative batch ${fmt(meanBatch, 2)} tokens; measured on ${wall.tokens} output tokens (${wallCases} cases per language)`);
  console.log(formatTable(["GGUF", "threads", "composed (all cases)", "[measured] plain ms/token", "[measured] speculative ms/token", "[measured] speed-up"], rows));
  console.log("composed = (plain passes / speculative passes) / (cost of the mean verification batch / cost of one token); measured = the replay's batches (sizes and kept rows) through llama.cpp");
}
for (const { model } of measured.values()) model.free();

// Part 4.
if (parts.has(4)) {
  const tiny = await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny"), contextLength: 2048, threads: rwThreads, vocabulary, verifyCost });
  const modes = ["plain", "speculative"] as const;
  const perRound = { wall: [] as number[], cpu: [] as number[] };
  const counts = {
    plain: { rows: 0, logits: 0, masks: { masks: 0 }, passes: 0, tokens: 0 },
    speculative: { rows: 0, logits: 0, masks: { masks: 0 }, passes: 0, tokens: 0, drafted: 0, accepted: 0 },
  };
  for (let round = 0; round < rwRounds; round++) {
    const spent = { plain: { wall: 0, cpu: 0 }, speculative: { wall: 0, cpu: 0 } };
    const draftRecord = new DraftRecord(tiny.verifyRowCost);
    for (const [i, c] of cases.entries()) {
      for (const mode of (round + i) % 2 === 0 ? modes : ([...modes].reverse() as typeof modes[number][])) {
        const log: BatchLog = [];
        const engine = { ...tiny, vocabulary, name: tiny.name, dispose: () => tiny.dispose(), createSession: async () => recording(await tiny.createSession(), log) };
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const r = await replay(c, vocabulary, { maxTokens: 120, speculative: mode === "speculative", draftRecord }, engine, round === 0 ? counts[mode].masks : undefined);
        spent[mode].wall += performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        spent[mode].cpu += (cpu.user + cpu.system) / 1000;
        if (round > 0) continue; // rows and passes are the same every round
        counts[mode].rows += outputBatches(log).tokens;
        counts[mode].logits += outputBatches(log).rows;
        counts[mode].passes += r.stats.forwardPasses - 1;
        counts[mode].tokens += r.tokens.length;
        if (mode === "speculative") {
          counts.speculative.drafted += r.stats.tokensDrafted;
          counts.speculative.accepted += r.stats.tokensAccepted;
        }
      }
    }
    perRound.wall.push(spent.speculative.wall / spent.plain.wall);
    perRound.cpu.push(spent.speculative.cpu / spent.plain.cpu);
  }
  await tiny.dispose();
  const perOutput = (mode: "plain" | "speculative", what: "rows" | "logits" | "passes"): string => fmt(counts[mode][what] / counts[mode].tokens, 3);
  const masksPerOutput = (mode: "plain" | "speculative"): string => fmt(counts[mode].masks.masks / counts[mode].tokens, 3);
  console.log(
    `\n[measured] random weights (tiny GGUF, ${rwThreads} thread${rwThreads > 1 ? "s" : ""}, greedy, ${cases.length} cases x ${rwRounds} rounds, load average ${loadavg()[0]!.toFixed(1)}): ` +
      `drafted ${counts.speculative.drafted} tokens, ${counts.speculative.accepted} confirmed, over ${counts.speculative.tokens} output tokens; ` +
      `a verified row costs ${fmt(tiny.verifyRowCost ?? Number.NaN, 3)} passes (${verifyCost === "measure" ? "timed at load" : "by the model's shape"}), gates require ${fmt(breakEvenShare(tiny.verifyRowCost), 2)} confirmed`,
  );
  console.log(
    formatTable(
      ["decode loop", "engine rows / output token", "logits rows / output token", "masks / output token", "passes / output token", "wall vs plain (median of rounds)", "CPU vs plain (median of rounds)"],
      [
        ["plain", perOutput("plain", "rows"), perOutput("plain", "logits"), masksPerOutput("plain"), perOutput("plain", "passes"), "1.000x", "1.000x"],
        ["speculative", perOutput("speculative", "rows"), perOutput("speculative", "logits"), masksPerOutput("speculative"), perOutput("speculative", "passes"), `${fmt(median(perRound.wall), 3)}x`, `${fmt(median(perRound.cpu), 3)}x`],
      ],
    ),
  );
  console.log(`per-round ratios, wall: ${perRound.wall.map((x) => fmt(x, 3)).join(" ")}; CPU: ${perRound.cpu.map((x) => fmt(x, 3)).join(" ")}`);
}
