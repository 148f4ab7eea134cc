/**
 * `npm run bench:speculative`: what grammar-aware speculative decoding buys, in three parts.
 *
 * 1. MEASURED, forward passes per output token: the gold outputs of the grounding evaluation set
 *    (fixtures/grounding, zh and en) replayed by the scripted engine through the real prompt,
 *    grammar and decode loop, plain and speculative (prompt lookup + forced runs). Random-weight
 *    models never copy the document, so acceptance can only be measured on real outputs.
 * 2. MEASURED, the cost of verifying k + 1 tokens in one forward pass against one token, on the
 *    pocket-shaped GGUF (MNN-Pocket-0.3B's shape, Q8_0) at a ~300-token context, 1 and 2 threads.
 * 3. The speed-up: COMPOSED from 1 and 2 (passes per token x cost of the average verification
 *    batch), and MEASURED by replaying the exact batch sizes of part 1's runs (each plain step and
 *    each verification round, same token counts) through the pocket-shaped GGUF, for the first
 *    WALL_CASES (default 4) cases of each language.
 *
 * 4. MEASURED, the cost on random weights, where drafts are almost never confirmed: the tiny
 *    GGUF extracting the grounding cases, speculative vs plain, runs alternating, wall time.
 *
 * ROUNDS (default 3) repetitions of each batch timing, median reported; THREADS (default "1,2").
 */
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import type { EngineSession } from "../src/engines/engine.js";
import { createLlamaEngine } from "../src/engines/llama/index.js";
import { loadLlamaAddon, type NativeLlamaModel } from "../src/engines/llama/addon.js";
import { ScriptedEngine } from "../src/engines/testing/scripted-engine.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { replay, replayCases } from "./support/replay.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const rounds = Number(process.env.ROUNDS ?? 3);
const wallCases = Number(process.env.WALL_CASES ?? 4);
const threadCounts = (process.env.THREADS ?? "1,2").split(",").map(Number);
const vocabulary = await fixtureVocabulary();

/** A session wrapper that records the size of every batch fed to the engine. */
function recording(session: EngineSession, batches: number[]): EngineSession {
  return {
    feed: (ids) => (batches.push(ids.length), session.feed(ids)),
    sample: (mask) => session.sample(mask),
    rollback: (n) => session.rollback!(n),
    feedRows: (ids, rows) => (batches.push(ids.length), session.feedRows!(ids, rows)),
    sampleRow: (row, mask) => session.sampleRow!(row, mask),
    close: () => session.close(),
  };
}

// Part 1.
const cases = replayCases();
const totals = { plain: { passes: 0, batches: [] as number[] }, speculative: { passes: 0, batches: [] as number[] } };
/** Batch sizes of the cases whose wall time is measured in part 3, and their output tokens. */
const wall = { plain: [] as number[], speculative: [] as number[], tokens: 0 };
const seenPerLanguage = new Map<string, number>();
let outputTokens = 0;
let drafted = 0;
let accepted = 0;
let forced = 0;
for (const c of cases) {
  for (const mode of ["plain", "speculative"] as const) {
    const batches: number[] = [];
    const engine = new ScriptedEngine({ vocabulary, script: c.output, canonical: true });
    const wrapped = { ...engine, vocabulary, name: engine.name, contextLength: undefined, dispose: () => engine.dispose(), createSession: async () => recording(await engine.createSession(), batches) };
    const r = await replay(c, vocabulary, { maxTokens: 400, speculative: mode === "speculative" }, wrapped);
    if (JSON.stringify(JSON.parse(r.text)) !== c.output) throw new Error(`${c.id}: the replay did not reproduce the gold output: ${r.text}`);
    totals[mode].passes += r.stats.forwardPasses - 1; // the prompt's pass excluded
    totals[mode].batches.push(...batches.slice(1));
    const seen = seenPerLanguage.get(c.language) ?? 0;
    if (seen < wallCases) {
      wall[mode].push(...batches.slice(1));
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
const perToken = (mode: "plain" | "speculative"): number => totals[mode].passes / outputTokens;
console.log(`speculative bench: ${cases.length} grounding cases (zh + en), ${outputTokens} output tokens (${forced} forced by the grammar)`);
console.log("\n[measured] forward passes per output token, gold outputs replayed through the decode loop");
console.log(
  formatTable(
    ["decode loop", "passes", "per output token"],
    [
      ["one token per pass (forced runs batched)", String(totals.plain.passes), fmt(perToken("plain"), 3)],
      ["speculative (prompt lookup + forced runs)", String(totals.speculative.passes), fmt(perToken("speculative"), 3)],
    ],
  ),
);
console.log(`drafted ${drafted} tokens, ${accepted} confirmed (${fmt((100 * accepted) / Math.max(1, drafted), 1)}%)`);

// Part 2.
const { addon, backendsDir } = loadLlamaAddon();
const modelPath = await ensureGgufFixture("pocket");
const context = Int32Array.from({ length: 300 }, (_, i) => 100 + ((i * 7919) % 60000));
const batchCost = async (model: NativeLlamaModel, size: number): Promise<number> => {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    model.truncate(context.length);
    const batch = Int32Array.from({ length: size }, (_, i) => 200 + i * 31);
    const t0 = performance.now();
    await model.decode(batch, size);
    times.push(performance.now() - t0);
  }
  return median(times);
};
const verifyCost = new Map<number, number[]>();
const models = new Map<number, NativeLlamaModel>();
for (const threads of threadCounts) {
  const model = await addon.loadModel(modelPath, { backendsDir, contextLength: 1024, threads });
  models.set(threads, model);
  await model.decode(context);
  const costs: number[] = [];
  for (let size = 1; size <= 9; size++) costs.push(await batchCost(model, size));
  verifyCost.set(threads, costs);
}
console.log("\n[measured] pocket-shaped GGUF (Q8_0), one forward pass of k + 1 tokens at a 300-token context, ms (ratio to one token)");
console.log(
  formatTable(
    ["k", ...threadCounts.map((t) => `${t} thread${t > 1 ? "s" : ""}`)],
    Array.from({ length: 9 }, (_, k) => [String(k), ...threadCounts.map((t) => `${fmt(verifyCost.get(t)![k]!, 1)} (${fmt(verifyCost.get(t)![k]! / verifyCost.get(t)![0]!)}x)`)]),
  ),
);

// Part 3.
const meanBatch = totals.speculative.batches.reduce((s, b) => s + b, 0) / totals.speculative.batches.length;
const replayWall = async (model: NativeLlamaModel, batches: readonly number[]): Promise<number> => {
  model.truncate(context.length);
  const t0 = performance.now();
  for (const size of batches) {
    // Keep the context from growing past a realistic extraction: restart at the prompt.
    if (model.position() + size > 900) model.truncate(context.length);
    await model.decode(Int32Array.from({ length: size }, (_, i) => 300 + i), size);
  }
  return performance.now() - t0;
};
const rows: string[][] = [];
for (const threads of threadCounts) {
  const costs = verifyCost.get(threads)!;
  const interpolated = costs[Math.min(8, Math.floor(meanBatch) - 1)]! + (meanBatch % 1) * (costs[Math.min(8, Math.floor(meanBatch))]! - costs[Math.min(8, Math.floor(meanBatch) - 1)]!);
  const composed = perToken("plain") / perToken("speculative") / (interpolated / costs[0]!);
  const model = models.get(threads)!;
  const plainMs = await replayWall(model, wall.plain);
  const specMs = await replayWall(model, wall.speculative);
  rows.push([String(threads), `${fmt(composed)}x`, fmt(plainMs / wall.tokens, 2), fmt(specMs / wall.tokens, 2), `${fmt(plainMs / specMs)}x`]);
}
console.log(`\nspeed-up of the decode (output tokens only), mean speculative batch ${fmt(meanBatch, 2)} tokens; measured on ${wall.tokens} output tokens (${wallCases} cases per language)`);
console.log(formatTable(["threads", "composed (all cases)", "[measured] plain ms/token", "[measured] speculative ms/token", "[measured] speed-up"], rows));
console.log("composed = (plain passes / speculative passes) / (cost of the mean verification batch / cost of one token); measured = the replay's batch sizes through llama.cpp");
for (const model of models.values()) model.free();

// Part 4.
const tiny = await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny"), contextLength: 2048, threads: 1, vocabulary });
const ms = { plain: [] as number[], speculative: [] as number[] };
let verifiedTokens = 0;
let tinyTokens = 0;
for (let round = 0; round < 3; round++) {
  for (const c of cases) {
    for (const mode of round % 2 === 0 ? (["plain", "speculative"] as const) : (["speculative", "plain"] as const)) {
      const r = await replay(c, vocabulary, { maxTokens: 120, speculative: mode === "speculative" }, tiny);
      ms[mode].push(r.stats.totalMs);
      if (mode === "speculative" && round === 0) {
        verifiedTokens += r.stats.tokensDrafted;
        tinyTokens += r.tokens.length;
      }
    }
  }
}
await tiny.dispose();
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
console.log(`\n[measured] random weights (tiny GGUF, greedy, ${cases.length} cases x 3 rounds): drafted ${verifiedTokens} tokens over ${tinyTokens} output tokens`);
console.log(formatTable(["decode loop", "total ms", "vs plain"], [
  ["plain", fmt(sum(ms.plain), 0), "1.00x"],
  ["speculative", fmt(sum(ms.speculative), 0), `${fmt(sum(ms.speculative) / sum(ms.plain), 3)}x`],
]));
