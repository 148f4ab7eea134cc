/**
 * `npm run bench:sampler`: per-token cost of the native masked sampler (native/src/masked_sampler.cpp)
 * through the llama.cpp addon, greedy vs temperature, top-k and top-p, side by side. One prompt is
 * decoded once on the tiny GGUF fixture (the 65,536-id vocabulary; the sampler's cost does not
 * depend on the model), then `sample()` is called repeatedly on its logits: the figures are one
 * sync JS -> C++ crossing plus the sampler. Configurations alternate within each round and the
 * median round is reported, so load from other processes biases none of them.
 *
 * SAMPLER_BASELINE=<another pocket_llama.node> (say, built from an older masked_sampler.cpp) is
 * measured in the same rounds, for a before/after comparison under the same load.
 * ROUNDS (default 15) rounds of BATCH (default 40) calls per configuration, mask and addon.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { loadLlamaAddon, type NativeLlamaAddon, type NativeLlamaModel } from "../src/engines/llama/addon.js";
import { mulberry32 } from "../src/engines/testing/prng.js";
import { resultPath, stamp } from "./support/paths.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const rounds = Number(process.env.ROUNDS ?? 15);
const batch = Number(process.env.BATCH ?? 40);
const baselinePath = process.env.SAMPLER_BASELINE;

interface Config {
  readonly name: string;
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
}
const CONFIGS: readonly Config[] = [
  { name: "greedy", temperature: 0, topK: 0, topP: 1 },
  { name: "temperature 0.8", temperature: 0.8, topK: 0, topP: 1 },
  { name: "top-p 0.9, T 0.8", temperature: 0.8, topK: 0, topP: 0.9 },
  { name: "top-p 0.5, T 0.8", temperature: 0.8, topK: 0, topP: 0.5 },
  { name: "top-p 0.95, T 1.5", temperature: 1.5, topK: 0, topP: 0.95 },
  { name: "top-k 40, T 0.8", temperature: 0.8, topK: 40, topP: 1 },
  { name: "top-k 40 + top-p 0.9", temperature: 0.8, topK: 40, topP: 0.9 },
];

const { addon, backendsDir } = loadLlamaAddon();
const modelPath = await ensureGgufFixture("tiny");
async function loadSubject(native: NativeLlamaAddon): Promise<NativeLlamaModel> {
  const model = await native.loadModel(modelPath, { backendsDir, contextLength: 256, threads: 1 });
  await model.decode(Int32Array.from([9707, 11, 1879, 0, 576, 374, 264, 1273])); // any ids: only the logits row matters
  return model;
}
const subjects = [{ name: "this build", model: await loadSubject(addon) }];
if (baselinePath) subjects.push({ name: "baseline", model: await loadSubject(createRequire(import.meta.url)(baselinePath) as NativeLlamaAddon) });
const width = subjects[0].model.width();
const words = Math.ceil(width / 32);

const random = mulberry32(5);
const sparse = new Uint32Array(words);
for (let w = 0; w < words; w++) if (random() < 0.05) sparse[w] = (random() * 2 ** 32) >>> 0;
const popcount = (mask: Uint32Array): number => mask.reduce((n, word) => n + word.toString(2).replace(/0/g, "").length, 0);
const MASKS = [
  { name: `all ${width} ids`, mask: new Uint32Array(words).fill(0xffffffff) },
  { name: `sparse (${popcount(sparse)} ids)`, mask: sparse },
];

console.log(`sampler bench: ${rounds} rounds x ${batch} calls per configuration, mask and addon (medians of per-call cost)`);
if (baselinePath) console.log(`baseline: ${baselinePath}`);
const results: { mask: string; addon: string; config: string; micros: number; vsGreedy: number }[] = [];
for (const { name: maskName, mask } of MASKS) {
  const perRound = subjects.map(() => CONFIGS.map(() => [] as number[]));
  for (const { model } of subjects) model.seed(1);
  for (let round = -1; round < rounds; round++) {
    CONFIGS.forEach(({ temperature, topK, topP }, c) => {
      subjects.forEach(({ model }, s) => {
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) model.sample(mask, temperature, topK, topP);
        if (round >= 0) perRound[s][c].push(((performance.now() - t0) * 1000) / batch); // round -1 warms up
      });
    });
  }
  const micros = perRound.map((byConfig) => byConfig.map(median));
  subjects.forEach((s, i) => CONFIGS.forEach((c, j) => results.push({ mask: maskName, addon: s.name, config: c.name, micros: micros[i][j], vsGreedy: micros[i][j] / micros[i][0] })));
  const headers = ["configuration", "us/token", "vs greedy", ...(baselinePath ? ["baseline us/token", "vs greedy", "speed-up"] : [])];
  const rows = CONFIGS.map((c, j) => {
    const [ours, base] = micros;
    const row = [c.name, fmt(ours[j], 1), `${fmt(ours[j] / ours[0])}x`];
    return base ? [...row, fmt(base[j], 1), `${fmt(base[j] / base[0])}x`, `${fmt(base[j] / ours[j])}x`] : row;
  });
  console.log(`\nmask: ${maskName}`);
  console.log(formatTable(headers, rows));
}
for (const { model } of subjects) model.free();
writeFileSync(resultPath(`sampler-${stamp()}.json`), `${JSON.stringify({ rounds, batch, baseline: baselinePath ?? null, results }, null, 2)}\n`);
