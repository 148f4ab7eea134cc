/**
 * `npm run bench:decode [-- --tiny]`: constrained decoding on the pocket-shaped GGUF (MNN-Pocket's
 * exact shape, random weights; `--tiny` for a quick run, `--model <file.gguf>` or
 * POCKET_MODEL=<file.gguf> for another model) through our llama.cpp engine, or with
 * `--engine mnn --model <MNN export dir>` (or `--engine mnn --toy`: the toy MNN model of
 * fixtures/mnn, whose forward pass is nearly free, so what remains is the SDK's cost; needs
 * MNN_DIR) through our MNN engine, side by side in one process on the same prompt and schema:
 *   - load time, resident memory (RSS) right after the load, prefill time, and the first
 *     single-token decode step after them against the second (a warm-up at load shows here);
 *   - constrained (our grammar + jump-forward) vs unconstrained (all ids but eos) tokens/s;
 *   - share of forced tokens, and mask + native sampling time per token as a share of the step;
 *   - the SDK's own cost per sampled token, split into mask, JS<->native crossing, sampler work and
 *     bookkeeping (decode loop, engine wrapper), as µs and as a share of a 2.1 ms step (support/decode-overhead.ts);
 *   - the same cost as a whole on the constrained path, with feed and sample as two engine calls
 *     and as one (feedAndSample), against the run's forward passes alone (SDK_ROUNDS rounds, default 15);
 *   - llama.cpp's own JSON-schema grammar through node-llama-cpp, the anchor (GGUF only; its output may be cut).
 * Same threads for both engines (THREADS, default 1). Results also go to bench/results/.
 */
import { writeFileSync } from "node:fs";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { ensureMnnToyModel } from "../fixtures/mnn/index.js";
import { compileGrammar } from "../src/mask/index.js";
import { generate } from "../src/decode/generate.js";
import type { Engine, EngineSession } from "../src/engines/engine.js";
import { createLlamaEngine } from "../src/engines/llama/index.js";
import { createMnnEngine } from "../src/engines/mnn/index.js";
import { CachedContextEngine } from "../src/engines/native-shared/cached-context-engine.js";
import { constrainedSdkCost, crossingProbe, type SdkCostFigures, oneCallVersusTwo, replayConstrained, replayUnconstrained, STEP_MS, steadyCrossingMicros, unconstrainedSteps } from "./support/decode-overhead.js";
import { median } from "./support/stats.js";
import { fmt, formatTable, pct } from "./support/table.js";
import { resultPath, stamp } from "./support/paths.js";

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const engineKind = argValue("--engine") ?? "llama";
if (engineKind !== "llama" && engineKind !== "mnn") {
  console.error(`--engine must be llama or mnn, got ${engineKind}`);
  process.exit(2);
}
const preset = process.argv.includes("--tiny") ? "tiny" : "pocket";
const toy = engineKind === "mnn" && process.argv.includes("--toy");
const modelArg = argValue("--model") ?? process.env.POCKET_MODEL;
if (engineKind === "mnn" && !modelArg && !toy) {
  console.error("--engine mnn needs --model <MNN model directory> (README, MNN section: exporting the fixture with llmexport.py) or --toy (the toy MNN model; needs MNN_DIR)");
  process.exit(2);
}
const modelPath = modelArg ?? (toy ? await ensureMnnToyModel() : await ensureGgufFixture(preset));
const threads = Number(process.env.THREADS ?? 1);
const maxTokens = Number(process.env.MAX_TOKENS ?? 96);
const repeats = Number(process.env.REPEATS ?? 3);
/** A document-sized prompt for the engine wrapper's replay (its per-step cost must not grow with the context). */
const LONG_PROMPT = 4000;

const schema = {
  type: "object",
  properties: {
    name: { type: "string", maxLength: 40 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    city: { type: "string", maxLength: 30 },
    role: { enum: ["engineer", "scientist", "artist", "other"] },
    languages: { type: "array", items: { type: "string", maxLength: 20 }, maxItems: 3 },
  },
  required: ["name", "age", "city", "role", "languages"],
  additionalProperties: false,
} as const;
const promptText =
  "<|im_start|>system\nExtract the person as JSON.<|im_end|>\n<|im_start|>user\n" +
  "Ada Lovelace, 36, a scientist from London, wrote in English and French.<|im_end|>\n<|im_start|>assistant\n";

/** Splits engine time into feed (llama_decode) and sample (mask + sampling in C++). */
class TimedSession implements EngineSession {
  feedMs = 0;
  sampleMs = 0;
  samples = 0;
  /** The sampled ids in order, for the bookkeeping replay. */
  readonly sampled: number[] = [];
  /** Time of the `probe` calls, made after each feed (breakdown runs only). */
  probeMs = 0;
  probes = 0;
  constructor(
    private readonly inner: EngineSession,
    private readonly probe?: () => void,
  ) {}
  async feed(ids: readonly number[]): Promise<void> {
    let t = performance.now();
    await this.inner.feed(ids);
    this.feedMs += performance.now() - t;
    if (!this.probe) return;
    t = performance.now();
    this.probe();
    this.probeMs += performance.now() - t;
    this.probes++;
  }
  async sample(mask: Uint32Array): Promise<number> {
    const t = performance.now();
    const id = await this.inner.sample(mask);
    this.sampleMs += performance.now() - t;
    this.samples++;
    this.sampled.push(id);
    return id;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

console.log(`engine ${engineKind}, model ${modelPath}\nthreads ${threads}, maxTokens ${maxTokens}`);
let t = performance.now();
const engine: Engine =
  engineKind === "mnn"
    ? await createMnnEngine({ modelDir: modelPath, contextLength: 2048, threads })
    : await createLlamaEngine({ modelPath, contextLength: 2048, threads });
const loadMs = performance.now() - t;
const rssAfterLoadMb = process.memoryUsage().rss / 2 ** 20;
console.log(`load ${fmt(loadMs)} ms, RSS after load ${fmt(rssAfterLoadMb)} MB`);
const compiled = compileGrammar(schema, engine.vocabulary);
const promptIds = engine.vocabulary.encode(promptText);

// Prefill once: both runs then reuse the cached prompt and decode only its last token again.
const warm = await engine.createSession();
t = performance.now();
await warm.feed(promptIds);
const prefillMs = performance.now() - t;
// The first two single-token decode steps after the load (any ids: a step costs the same).
const firstStepsMs: number[] = [];
for (const id of [promptIds[0]!, promptIds[1]!]) {
  t = performance.now();
  await warm.feed([id]);
  firstStepsMs.push(performance.now() - t);
}
await warm.close();
console.log(`prefill ${promptIds.length} tokens ${fmt(prefillMs)} ms (${fmt((promptIds.length * 1000) / prefillMs)} tokens/s)`);
console.log(`first decode step after load ${fmt(firstStepsMs[0]!)} ms, second ${fmt(firstStepsMs[1]!)} ms`);

/** One constrained generation (greedy, so every run yields the same tokens). */
async function constrainedRun(probe?: () => void): Promise<{ session: TimedSession; result: Awaited<ReturnType<typeof generate>> }> {
  const session = new TimedSession(await engine.createSession(), probe);
  const result = await generate(session, compiled.tokens, promptIds, { maxTokens });
  await session.close();
  return { session, result };
}
const cold = await constrainedRun();
const outTokens = cold.result.tokens.length;

// Unconstrained: as many single-token steps as the constrained output had tokens, eos excluded.
const open = new Uint32Array(compiled.tokens.maskWords).fill(0xffffffff);
for (const id of engine.vocabulary.eosIds) open[id >>> 5]! &= ~(1 << (id & 31));
async function unconstrainedRun(probe?: () => void): Promise<{ session: TimedSession; ms: number }> {
  const session = new TimedSession(await engine.createSession(), probe);
  const started = performance.now();
  await unconstrainedSteps(session, promptIds, open, outTokens);
  const ms = performance.now() - started;
  await session.close();
  return { session, ms };
}

// The cold run filled the grammar's mask caches (a schema's first document); the warm runs show a
// schema used again. Warm constrained and unconstrained runs alternate and the fastest of each is
// kept, so load from other processes biases neither side.
const warmRuns: Awaited<ReturnType<typeof constrainedRun>>[] = [];
const freeRuns: Awaited<ReturnType<typeof unconstrainedRun>>[] = [];
for (let i = 0; i < repeats; i++) {
  freeRuns.push(await unconstrainedRun());
  warmRuns.push(await constrainedRun());
}
const warmBest = warmRuns.reduce((a, b) => (b.result.stats.totalMs < a.result.stats.totalMs ? b : a));
// Breakdown runs: a native call of the sample's shape right after each forward pass takes the
// first-call-after-a-decode cost (the crossing as the loop meets it), so the sample after it is the sampler's work.
const probeRuns: { constrained: TimedSession; unconstrained: TimedSession }[] = [];
if (engine instanceof CachedContextEngine) {
  const probe = crossingProbe(engine, compiled.tokens.maskWords);
  for (let i = 0; i < repeats; i++) probeRuns.push({ unconstrained: (await unconstrainedRun(probe)).session, constrained: (await constrainedRun(probe)).session });
}
const overhead = await overheadBreakdown();
// Feed + sample as two engine calls (as the runs above take them) against one (feedAndSample), where the engine has it.
const oneCall = engine instanceof CachedContextEngine && engine.samplesAfterEvaluating ? await oneCallVersusTwo(engine, promptIds, open) : undefined;
// The whole SDK cost per sampled token on the constrained path, both ways, against the same forward passes alone.
const sdkCost = await constrainedSdkCost(engine, compiled.tokens, promptIds, { maxTokens }, Number(process.env.SDK_ROUNDS ?? 15));
await engine.dispose();
const free = freeRuns.reduce((a, b) => (b.ms < a.ms ? b : a));
const unconstrainedRate = (outTokens * 1000) / free.ms;

/**
 * Mask, crossing, sampler work and bookkeeping per sampled token, constrained (warm runs) and
 * unconstrained, from the measured runs plus a crossing probe and replays (support/decode-overhead.ts).
 */
async function overheadBreakdown(): Promise<{ rows: string[][]; notes: string; micros: Record<string, [number, number]> }> {
  const perSample = (ms: number, s: TimedSession): number => (ms * 1000) / s.samples;
  const both = (of: (s: TimedSession) => number): [number, number] => [
    median(probeRuns.map((r) => of(r.constrained))),
    median(probeRuns.map((r) => of(r.unconstrained))),
  ];
  const steadyUs = engine instanceof CachedContextEngine ? steadyCrossingMicros(crossingProbe(engine, compiled.tokens.maskWords)) : NaN;
  const [crossingC, crossingU] = both((s) => (s.probeMs * 1000) / s.probes);
  const [afterProbeC, afterProbeU] = both((s) => perSample(s.sampleMs, s));
  const replay = await replayConstrained(compiled.tokens, promptIds, warmBest.session.sampled, { maxTokens });
  const freeWrapperUs = await replayUnconstrained(compiled.tokens, promptIds, open, outTokens);
  const longPrompt = Array.from({ length: LONG_PROMPT }, (_, i) => promptIds[i % promptIds.length]!);
  const longWrapperUs = await replayUnconstrained(compiled.tokens, longPrompt, open, outTokens);
  const micros: Record<string, [number, number]> = {
    mask: [median(warmRuns.map((r) => perSample(r.result.stats.maskMs, r.session))), 0],
    crossing: [crossingC, crossingU],
    samplerWork: [afterProbeC - steadyUs, afterProbeU - steadyUs],
    loopBookkeeping: [replay.loopMicros, 0],
    engineWrapperBookkeeping: [replay.wrapperMicros, freeWrapperUs],
  };
  const total = Object.values(micros).reduce<[number, number]>((sum, [c, u]) => [sum[0] + c, sum[1] + u], [0, 0]);
  const cells = ([c, u]: [number, number]): string[] => [`${fmt(c)} us`, pct(c / 1000, STEP_MS), `${fmt(u)} us`, pct(u / 1000, STEP_MS)];
  const sampleCall = [median(warmRuns.map((r) => perSample(r.session.sampleMs, r.session))), median(freeRuns.map((r) => perSample(r.session.sampleMs, r.session)))];
  const rows = [
    ["mask (fillMask, during the forward pass)", ...cells(micros.mask!)],
    ["JS<->native crossing (1st call after a decode)", ...cells(micros.crossing!)],
    [`sampler work (sample call - ${fmt(steadyUs)} us crossing)`, ...cells(micros.samplerWork!)],
    ["bookkeeping: decode loop (generate)", ...cells(micros.loopBookkeeping!)],
    ["bookkeeping: engine wrapper (session, cache)", ...cells(micros.engineWrapperBookkeeping!)],
    ["total SDK", ...cells(total)],
  ];
  const notes = [
    `medians of ${probeRuns.length} breakdown runs (crossing, sampler) and ${warmRuns.length} warm runs (mask); bookkeeping from replays of the recorded tokens over no-op native calls`,
    `crossing back to back: ${fmt(steadyUs)} us; sample call without the probe before it (the plain runs): ${fmt(sampleCall[0]!)} us constrained, ${fmt(sampleCall[1]!)} us unconstrained`,
    `unconstrained: one constant mask and the bench's own loop, so no mask or loop cost; replayed mask ${fmt(replay.maskMicros)} us (no forward pass beside it)`,
    `engine wrapper at a ${LONG_PROMPT}-token prompt (a document's size; replayed, unconstrained): ${fmt(longWrapperUs)} us per step`,
    "not included: the forward pass and the worker hop that returns it (the step itself)",
  ].join("\n");
  return { rows, notes, micros: { ...micros, total, longPromptEngineWrapper: [NaN, longWrapperUs] } };
}

interface Anchor {
  tokens: number;
  ms: number;
  validJson: boolean;
}
async function nodeLlamaCppAnchor(): Promise<Anchor | string> {
  try {
    const { getLlama, LlamaCompletion, LlamaLogLevel } = await import("node-llama-cpp");
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath });
    const context = await model.createContext({ contextSize: 2048, threads });
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    // Its const-generic signature cannot take a schema declared elsewhere; the value is a plain JSON Schema.
    const grammar = await llama.createGrammarForJsonSchema(schema as never);
    await completion.generateCompletion(promptText, { maxTokens: 1 }); // prefill, like ours
    let tokens = 0;
    const started = performance.now();
    const text = await completion.generateCompletion(promptText, { grammar, maxTokens, onToken: (ids) => (tokens += ids.length) });
    const ms = performance.now() - started;
    let validJson = true;
    try {
      JSON.parse(text);
    } catch {
      validJson = false;
    }
    await context.dispose();
    await model.dispose();
    return { tokens, ms, validJson };
  } catch (err) {
    return `unavailable: ${(err as Error).message}`;
  }
}
const anchor = engineKind === "llama" ? await nodeLlamaCppAnchor() : "not run (needs a GGUF)";

const perToken = (ms: number, n: number): string => (n === 0 ? "-" : `${fmt((ms / n) * 1000)} us`);
const constrainedRow = (label: string, run: typeof cold): string[] => {
  const { stats } = run.result;
  return [
    label,
    String(outTokens),
    fmt(stats.totalMs),
    fmt((outTokens * 1000) / stats.totalMs),
    pct(stats.tokensForced, outTokens),
    perToken(stats.maskMs, run.session.samples),
    perToken(run.session.sampleMs, run.session.samples),
    pct(stats.maskMs + run.session.sampleMs, stats.totalMs),
  ];
};
console.log(`\noutput (${cold.result.stats.stopReason}): ${cold.result.text}\n`);
console.log(
  formatTable(
    ["run", "tokens", "ms", "tokens/s", "forced", "mask/token (TS)", "sample/token (C++)", "mask+sample share"],
    [
      constrainedRow("ours, constrained (cold)", cold),
      constrainedRow(`ours, constrained (best of ${repeats})`, warmBest),
      [
        `ours, unconstrained (best of ${repeats})`,
        String(outTokens),
        fmt(free.ms),
        fmt(unconstrainedRate),
        "-",
        "-",
        perToken(free.session.sampleMs, free.session.samples),
        pct(free.session.sampleMs, free.ms),
      ],
      typeof anchor === "string"
        ? ["node-llama-cpp JSON grammar", anchor, "", "", "", "", "", ""]
        : ["node-llama-cpp JSON grammar", String(anchor.tokens), fmt(anchor.ms), fmt((anchor.tokens * 1000) / anchor.ms), "-", "-", "-", anchor.validJson ? "valid JSON" : "INVALID JSON"],
    ],
  ),
);
const steady = (outTokens * 1000) / warmBest.result.stats.totalMs;
console.log(`\nconstrained / unconstrained tokens/s (warm, best runs): ${fmt(steady / unconstrainedRate)}x`);

console.log(`\nSDK cost per sampled token (= per forward pass), medians; share of a ${STEP_MS} ms step`);
console.log(formatTable(["part", "constrained", "share", "unconstrained", "share"], overhead.rows));
console.log(overhead.notes);
if (oneCall) {
  console.log(
    `\nSDK cost per step, single-token steps under the all-but-eos mask (greedy), over steps with feed alone (${fmt(oneCall.feedOnlyMicros)} us per step); medians of ${oneCall.rounds} alternating rounds of ${oneCall.steps} steps`,
  );
  const cells = ({ wall, cpu }: { wall: number; cpu: number }): string[] => [`${fmt(wall)} us`, pct(wall / 1000, STEP_MS), `${fmt(cpu)} us`, pct(cpu / 1000, STEP_MS)];
  console.log(
    formatTable(
      ["step", "wall", `of ${STEP_MS} ms`, "CPU (all threads)", `of ${STEP_MS} ms`],
      [
        ["feed, then sample (two engine calls)", ...cells(oneCall.separate)],
        ["feedAndSample (one call: drawn on the worker after the pass)", ...cells(oneCall.oneCall)],
      ],
    ),
  );
  console.log("the runs and breakdown above take feed and sample as two calls (the bench's timing session has no feedAndSample); generate takes them as one where the engine can");
}
console.log(
  `\nSDK cost per sampled token, constrained (greedy generate minus the same forward passes fed alone, ${fmt(sdkCost.feedsMicros)} us per sampled token; ${sdkCost.sampled} sampled tokens per run; medians of ${sdkCost.rounds} alternating rounds)`,
);
{
  const cells = ({ wall, wallQuartiles: [q1, q3], cpu }: SdkCostFigures): string[] => [
    `${fmt(wall)} us`,
    `${fmt(q1)} .. ${fmt(q3)} us`,
    pct(wall / 1000, STEP_MS),
    `${fmt(cpu)} us`,
    pct(cpu / 1000, STEP_MS),
  ];
  console.log(
    formatTable(
      ["calls per token", "wall", "wall p25 .. p75", `of ${STEP_MS} ms`, "CPU (all threads)", `of ${STEP_MS} ms`],
      [["feed, then sample (two engine calls)", ...cells(sdkCost.twoCalls)], ...(sdkCost.oneCall ? [["feedAndSample (one call)", ...cells(sdkCost.oneCall)]] : [])],
    ),
  );
}
const file = resultPath(`decode-${engineKind}-${modelArg ? "model" : toy ? "toy" : preset}-t${threads}-${stamp()}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ engine: engineKind, modelPath, threads, maxTokens, loadMs, rssAfterLoadMb, prefillMs, firstStepsMs, constrained: [cold, ...warmRuns].map(({ session, result: r }) => ({ ...r.stats, tokens: outTokens, sampleMs: session.sampleMs, feedMs: session.feedMs, text: r.text })), unconstrained: freeRuns.map(({ session, ms }) => ({ tokens: outTokens, ms, sampleMs: session.sampleMs, feedMs: session.feedMs })), anchor, overheadMicros: overhead.micros, oneCall, sdkCost }, null, 2)}\n`,
);
console.log(`results: ${file}`);
