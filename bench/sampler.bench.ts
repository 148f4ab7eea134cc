/**
 * `npm run bench:sampler`: per-token cost of the native masked sampler (native/src/masked_sampler.cpp)
 * through the llama.cpp addon, for each sampling mode at mask densities of 1, 10, 100, 1,000,
 * 60,000 (scattered exclusions, as in a JSON string's mask) and all 65,536 allowed ids, side by side with the sampler of an earlier revision. One prompt is
 * decoded once on the tiny GGUF fixture (the 65,536-id vocabulary; the sampler's cost does not
 * depend on the model), then `sample()` is called repeatedly on its logits: the figures are one
 * sync JS -> C++ crossing plus the sampler. Configurations and addons alternate within each round
 * and the median round is reported, so load from other processes biases none of them. Both wall
 * time and CPU time (process.cpuUsage: on a shared machine, the part that load does not inflate)
 * are reported.
 *
 * SAMPLER_BASELINE_REV (default cb2545d, the sampler before mostly open masks were weighed in
 * place, the AVX-512 bracket split and vector reads of partly allowed words; 4b8d8d2 is the one
 * before the AVX-512 and sampled top-p bracket change of #21, e9c114d the one before the first
 * memory-speed rewrite) is built
 * into a temporary folder by bench/support/baseline-addon.ts; SAMPLER_BASELINE_REV=none skips it.
 * ROUNDS (default 15) rounds of BATCH (default 40) calls per configuration, mask and addon.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { loadLlamaAddon, type NativeLlamaAddon, type NativeLlamaModel } from "../src/engines/llama/addon.js";
import { mulberry32 } from "../src/engines/testing/prng.js";
import { baselineAddon } from "./support/baseline-addon.js";
import { resultPath, stamp } from "./support/paths.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const rounds = Number(process.env.ROUNDS ?? 15);
const batch = Number(process.env.BATCH ?? 40);
const baselineRev = process.env.SAMPLER_BASELINE_REV ?? "cb2545d";

interface Config {
  readonly name: string;
  readonly temperature: number;
  readonly topK: number;
  readonly topP: number;
  readonly minP: number;
}
const CONFIGS: readonly Config[] = [
  { name: "greedy", temperature: 0, topK: 0, topP: 1, minP: 0 },
  { name: "temperature 0.8", temperature: 0.8, topK: 0, topP: 1, minP: 0 },
  { name: "top-k 40, T 0.8", temperature: 0.8, topK: 40, topP: 1, minP: 0 },
  { name: "top-p 0.9, T 0.8", temperature: 0.8, topK: 0, topP: 0.9, minP: 0 },
  { name: "top-p 0.95, T 1.5", temperature: 1.5, topK: 0, topP: 0.95, minP: 0 },
  { name: "min-p 0.05, T 0.8", temperature: 0.8, topK: 0, topP: 1, minP: 0.05 },
];

const { addon, backendsDir } = loadLlamaAddon();
const modelPath = await ensureGgufFixture("tiny");
async function loadSubject(native: NativeLlamaAddon): Promise<NativeLlamaModel> {
  const model = await native.loadModel(modelPath, { backendsDir, contextLength: 256, threads: 1 });
  await model.decode(Int32Array.from([9707, 11, 1879, 0, 576, 374, 264, 1273])); // any ids: only the logits row matters
  return model;
}
const subjects = [{ name: "this build", model: await loadSubject(addon), minP: true }];
if (baselineRev !== "none") {
  const path = baselineAddon(baselineRev);
  subjects.push({ name: `baseline ${baselineRev}`, model: await loadSubject(createRequire(import.meta.url)(path) as NativeLlamaAddon), minP: false });
}
const width = subjects[0]!.model.width();
const words = Math.ceil(width / 32);

/** A mask of `count` ids spread at random over the vocabulary (seeded). */
function maskOf(count: number): Uint32Array {
  const mask = new Uint32Array(words);
  if (count >= width) return mask.fill(0xffffffff);
  const random = mulberry32(count);
  for (let set = 0; set < count; ) {
    const id = Math.floor(random() * width);
    if ((mask[id >>> 5]! & (1 << (id & 31))) === 0) {
      mask[id >>> 5]! |= 1 << (id & 31);
      set++;
    }
  }
  return mask;
}
const DENSITIES = [1, 10, 100, 1000, 60000, width];

console.log(`sampler bench: ${rounds} rounds x ${batch} calls per configuration, mask and addon (medians of per-call cost, us)`);
const results: { allowed: number; addon: string; config: string; wallMicros: number; cpuMicros: number }[] = [];
for (const allowed of DENSITIES) {
  const mask = maskOf(allowed);
  const wall = subjects.map(() => CONFIGS.map(() => [] as number[]));
  const cpu = subjects.map(() => CONFIGS.map(() => [] as number[]));
  for (const { model } of subjects) model.seed(1);
  for (let round = -1; round < rounds; round++) {
    CONFIGS.forEach(({ temperature, topK, topP, minP }, c) => {
      subjects.forEach(({ model, minP: hasMinP }, s) => {
        if (minP > 0 && !hasMinP) return;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) model.sample(mask, temperature, topK, topP, minP);
        const elapsed = performance.now() - t0;
        const used = process.cpuUsage(c0);
        if (round < 0) return; // round -1 warms up
        wall[s]![c]!.push((elapsed * 1000) / batch);
        cpu[s]![c]!.push((used.user + used.system) / batch);
      });
    });
  }
  const wallMed = wall.map((byConfig) => byConfig.map((xs) => (xs.length > 0 ? median(xs) : NaN)));
  const cpuMed = cpu.map((byConfig) => byConfig.map((xs) => (xs.length > 0 ? median(xs) : NaN)));
  subjects.forEach((s, i) =>
    CONFIGS.forEach((c, j) => results.push({ allowed, addon: s.name, config: c.name, wallMicros: wallMed[i]![j]!, cpuMicros: cpuMed[i]![j]! })),
  );
  const base = subjects.length > 1;
  const headers = ["configuration", "wall", "cpu", ...(base ? ["baseline wall", "baseline cpu", "speed-up (cpu)"] : [])];
  const rows = CONFIGS.map((c, j) => {
    const row = [c.name, fmt(wallMed[0]![j]!, 1), fmt(cpuMed[0]![j]!, 1)];
    return base ? [...row, fmt(wallMed[1]![j]!, 1), fmt(cpuMed[1]![j]!, 1), Number.isFinite(cpuMed[1]![j]) ? `${fmt(cpuMed[1]![j]! / cpuMed[0]![j]!)}x` : "-"] : row;
  });
  console.log(`\nmask: ${allowed} allowed ids`);
  console.log(formatTable(headers, rows));
}
for (const { model } of subjects) model.free();
writeFileSync(resultPath(`sampler-${stamp()}.json`), `${JSON.stringify({ rounds, batch, baseline: baselineRev, results }, null, 2)}\n`);
