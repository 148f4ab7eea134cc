/**
 * The SDK's own cost per sampled token (= per forward pass) in bench:decode, split into parts
 * without timers in production code:
 *   - mask: generate's own maskMs (fillMask);
 *   - crossing: a native sample call of the same shape whose sampler has almost nothing to do (a
 *     mask allowing one id: JS engine wrapper + N-API + a scan of the mask words), made right after
 *     each forward pass in breakdown runs (the first native call after a decode pays for the JS
 *     thread waking up: far more than the same call back to back, which is reported beside it);
 *   - sampler work: the sample call that follows that probe, minus the back-to-back crossing;
 *   - bookkeeping: the recorded run replayed through the same JS over native calls that do
 *     nothing, minus its mask time. The decode loop (generate over a bare session) and the engine
 *     wrapper (CachedContextEngine's session and cache mirror over a no-op native context) are
 *     replayed separately so each shows its share.
 */
import { generate, type GenerateOptions } from "../../src/decode/generate.js";
import type { EngineSession } from "../../src/engines/engine.js";
import { CachedContextEngine, type NativeContext } from "../../src/engines/native-shared/cached-context-engine.js";
import type { TokenGrammar } from "../../src/mask/index.js";
import { median, percentile } from "./stats.js";

/** One forward pass of MNN-Pocket on a phone (466 tokens/s), the budget the overhead is shared of. */
export const STEP_MS = 2.1;

/** A native sample call with a mask allowing only id 0: the crossing with almost no sampler work. */
export function crossingProbe(engine: CachedContextEngine, maskWords: number): () => void {
  const mask = new Uint32Array(maskWords);
  mask[0] = 1;
  return () => void engine.sample(mask, {});
}

/** Median µs of the crossing probe called back to back (warm caches, thread awake). */
export function steadyCrossingMicros(probe: () => void, calls = 400, rounds = 15): number {
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) probe();
    perRound.push(((performance.now() - t) * 1000) / calls);
  }
  return median(perRound);
}

/** A session whose engine answers at once with the recorded choices (the decode loop alone). */
function bareSession(sampled: readonly number[]): EngineSession {
  let next = 0;
  return {
    feed: async () => {},
    sample: async () => sampled[next++]!,
    close: async () => {},
  };
}

/** A CachedContextEngine over a native context that does nothing (the engine wrapper's own JS). */
function hollowEngine(grammar: TokenGrammar, sampled: readonly number[]): CachedContextEngine {
  let next = 0;
  const native: NativeContext = {
    evaluate: async () => {},
    cached: () => 0,
    sample: () => sampled[next++]!,
    seed: () => {},
    free: () => {},
  };
  return new CachedContextEngine(native, { name: "hollow", vocabulary: grammar.vocabulary, contextLength: undefined, multiRow: true });
}

/** Replays run first unmeasured, so the JIT has compiled the loop (fewer left it noisy). */
const WARM_UP = 20;

export interface ReplayCost {
  /** µs per sampled token of generate's loop alone (its mask time excluded). */
  readonly loopMicros: number;
  /** µs per sampled token the engine wrapper adds. */
  readonly wrapperMicros: number;
  /** µs per sampled token of fillMask in the replays (should match the real runs'). */
  readonly maskMicros: number;
}

/** Replays a constrained generation that sampled `sampled` (in order); medians over `runs`. */
export async function replayConstrained(
  grammar: TokenGrammar,
  promptIds: readonly number[],
  sampled: readonly number[],
  options: GenerateOptions,
  runs = 200,
): Promise<ReplayCost> {
  const bare: number[] = [];
  const wrapped: number[] = [];
  const masks: number[] = [];
  const perToken = (ms: number): number => (ms * 1000) / sampled.length;
  const timed = async (session: EngineSession): Promise<{ ms: number; maskMs: number }> => {
    const t = performance.now();
    const { stats } = await generate(session, grammar, promptIds, options);
    return { ms: performance.now() - t, maskMs: stats.maskMs };
  };
  for (let i = -WARM_UP; i < runs; i++) {
    const loop = await timed(bareSession(sampled));
    const engine = hollowEngine(grammar, sampled);
    const full = await timed(await engine.createSession());
    if (i < 0) continue; // JIT warm-up
    bare.push(perToken(loop.ms - loop.maskMs));
    wrapped.push(perToken(full.ms - full.maskMs));
    masks.push(perToken(loop.maskMs));
  }
  const loopMicros = median(bare);
  return { loopMicros, wrapperMicros: median(wrapped) - loopMicros, maskMicros: median(masks) };
}

/** Single-token steps under one constant mask, as bench:decode's unconstrained run takes them. */
export async function unconstrainedSteps(session: EngineSession, promptIds: readonly number[], mask: Uint32Array, steps: number): Promise<void> {
  await session.feed(promptIds);
  for (let i = 0; i < steps; i++) await session.feed([await session.sample(mask)]);
}

/** µs per step the engine wrapper adds to `unconstrainedSteps` (native calls that do nothing). */
export async function replayUnconstrained(grammar: TokenGrammar, promptIds: readonly number[], mask: Uint32Array, steps: number, runs = 200): Promise<number> {
  const perStep: number[] = [];
  const sampled = new Array<number>(steps).fill(0);
  for (let i = -WARM_UP; i < runs; i++) {
    const session = await hollowEngine(grammar, sampled).createSession();
    const t = performance.now();
    await unconstrainedSteps(session, promptIds, mask, steps);
    if (i >= 0) perStep.push(((performance.now() - t) * 1000) / steps);
  }
  return median(perStep);
}

export interface OneCallCost {
  /** µs per step of feed + sample in two engine calls, over feed-only steps: wall time and process CPU time. */
  readonly separate: { readonly wall: number; readonly cpu: number };
  /** The same with feed and sample in one engine call (feedAndSample). */
  readonly oneCall: { readonly wall: number; readonly cpu: number };
  /** µs per feed-only step (the step itself: the forward pass and its return to JS), wall. */
  readonly feedOnlyMicros: number;
  readonly rounds: number;
  readonly steps: number;
}

/**
 * Single-token steps under one constant mask taken three ways, alternating within each round:
 * feed then sample (two engine calls), feedAndSample (one call: drawn on the worker right after
 * the forward pass) and feed alone (the step itself, no mask and no sampling). The SDK's cost per
 * step is each way's time minus feed alone's in the same round; medians over `rounds`, in wall
 * time (what a user waits) and in process CPU time (all threads: the forward pass's work cancels out).
 */
export async function oneCallVersusTwo(
  engine: { createSession(): Promise<EngineSession> },
  promptIds: readonly number[],
  mask: Uint32Array,
  steps = 64,
  rounds = 31,
): Promise<OneCallCost> {
  const ways = ["separate", "oneCall", "feedOnly"] as const;
  const cost = { separate: { wall: [] as number[], cpu: [] as number[] }, oneCall: { wall: [] as number[], cpu: [] as number[] } };
  const feedOnly: number[] = [];
  const scratch = new Uint32Array(mask.length);
  for (let round = -2; round < rounds; round++) {
    const times = new Map<(typeof ways)[number], { wall: number; cpu: number }>();
    for (const way of ways) {
      const session = await engine.createSession();
      if (way === "oneCall" && !session.feedAndSample) throw new Error("the engine's sessions have no feedAndSample");
      await session.feed(promptIds);
      let id = promptIds[promptIds.length - 1]!;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < steps; i++) {
        if (way === "oneCall") id = await session.feedAndSample!([id], scratch, () => scratch.set(mask));
        else if (way === "separate") {
          await session.feed([id]);
          scratch.set(mask);
          id = await session.sample(scratch);
        } else {
          await session.feed([id]);
          id = (id * 7919 + 13) % 60000; // any tokens: a forward pass costs the same
        }
      }
      const used = process.cpuUsage(c0);
      times.set(way, { wall: ((performance.now() - t0) * 1000) / steps, cpu: (used.user + used.system) / steps });
      await session.close();
    }
    if (round < 0) continue; // warm-up
    const base = times.get("feedOnly")!;
    for (const way of ["separate", "oneCall"] as const) {
      cost[way].wall.push(times.get(way)!.wall - base.wall);
      cost[way].cpu.push(times.get(way)!.cpu - base.cpu);
    }
    feedOnly.push(base.wall);
  }
  const med = (d: { wall: number[]; cpu: number[] }) => ({ wall: median(d.wall), cpu: median(d.cpu) });
  return { separate: med(cost.separate), oneCall: med(cost.oneCall), feedOnlyMicros: median(feedOnly), rounds, steps };
}

/** `inner` recording every batch it is fed; feedAndSample passed through only when `oneCall`. */
function recordingSession(inner: EngineSession, oneCall: boolean): { session: EngineSession; batches: number[][] } {
  const batches: number[][] = [];
  const session: EngineSession = {
    feed: (ids) => {
      batches.push([...ids]);
      return inner.feed(ids);
    },
    sample: (mask) => inner.sample(mask),
    close: () => inner.close(),
  };
  if (oneCall && inner.feedAndSample) {
    const feedAndSample = inner.feedAndSample.bind(inner);
    session.feedAndSample = (ids, mask, fillMask) => {
      batches.push([...ids]);
      return feedAndSample(ids, mask, fillMask);
    };
  }
  return { session, batches };
}

/** Medians over rounds, with the wall time's quartiles (the spread under load). */
export interface SdkCostFigures {
  readonly wall: number;
  readonly wallQuartiles: readonly [number, number];
  readonly cpu: number;
}

export interface ConstrainedSdkCost {
  /** µs per sampled token generate adds over its forward passes alone, feed and sample as two calls: wall and process CPU. */
  readonly twoCalls: SdkCostFigures;
  /** The same through feedAndSample (one call per token), where the engine has it. */
  readonly oneCall: SdkCostFigures | undefined;
  /** µs per sampled token of the forward passes alone (the recorded batches fed back to back), wall. */
  readonly feedsMicros: number;
  readonly sampled: number;
  readonly rounds: number;
}

/**
 * The SDK's whole cost per sampled token on the real constrained path (mask, sampling, crossings,
 * bookkeeping together): a greedy generate run against the same forward passes, the batches it
 * fed (recorded), fed back to back with nothing else; (run - feeds) / sampled tokens. Both run on
 * the same cached prompt; the ways alternate within each round and the figures are medians over
 * `rounds`, in wall time and in process CPU time (all threads). Throws if the two ways do not
 * feed the same batches (greedy decoding must not depend on the calls).
 */
export async function constrainedSdkCost(
  engine: { createSession(): Promise<EngineSession> },
  grammar: TokenGrammar,
  promptIds: readonly number[],
  options: GenerateOptions,
  rounds = 15,
): Promise<ConstrainedSdkCost> {
  const probe = await engine.createSession();
  const hasOneCall = probe.feedAndSample !== undefined;
  await probe.close();
  const ways = hasOneCall ? (["twoCalls", "oneCall"] as const) : (["twoCalls"] as const);
  const costs = { twoCalls: { wall: [] as number[], cpu: [] as number[] }, oneCall: { wall: [] as number[], cpu: [] as number[] } };
  const feeds: number[] = [];
  let sampled = 0;
  const timed = async (run: () => Promise<void>): Promise<{ wall: number; cpu: number }> => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    const used = process.cpuUsage(c0);
    return { wall: (performance.now() - t0) * 1000, cpu: used.user + used.system };
  };
  for (let round = -2; round < rounds; round++) {
    let batches: number[][] | undefined;
    const runs = new Map<(typeof ways)[number], { wall: number; cpu: number }>();
    for (const way of ways) {
      const recorder = recordingSession(await engine.createSession(), way === "oneCall");
      runs.set(
        way,
        await timed(async () => {
          sampled = (await generate(recorder.session, grammar, promptIds, options)).stats.tokensSampled;
        }),
      );
      await recorder.session.close();
      if (batches && JSON.stringify(batches) !== JSON.stringify(recorder.batches)) throw new Error("one call and two calls fed different batches");
      batches = recorder.batches;
    }
    const session = await engine.createSession();
    const base = await timed(async () => {
      for (const batch of batches!) await session.feed(batch);
    });
    await session.close();
    if (round < 0) continue; // warm-up
    for (const way of ways) {
      costs[way].wall.push((runs.get(way)!.wall - base.wall) / sampled);
      costs[way].cpu.push((runs.get(way)!.cpu - base.cpu) / sampled);
    }
    feeds.push(base.wall / sampled);
  }
  const figures = (d: { wall: number[]; cpu: number[] }): SdkCostFigures => {
    const sorted = Float64Array.from(d.wall).sort();
    return { wall: median(d.wall), wallQuartiles: [percentile(sorted, 25), percentile(sorted, 75)], cpu: median(d.cpu) };
  };
  return { twoCalls: figures(costs.twoCalls), oneCall: hasOneCall ? figures(costs.oneCall) : undefined, feedsMicros: median(feeds), sampled, rounds };
}
