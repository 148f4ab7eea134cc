/**
 * RandomEngine: a seeded engine whose "model" draws each next token uniformly from the ids the
 * mask allows. It is the fuzzer of the constrained path: whatever it picks, the output must still
 * be complete and valid. Same seed, same vocabulary, same masks: same tokens.
 */
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import { nthSetBit, popcount } from "../../util/index.js";
import type { EngineSession, SessionOptions } from "../engine.js";
import { mulberry32 } from "./prng.js";
import { TestEngine, TestSession } from "./session-base.js";

/** RandomEngine's vocabulary, seed and logit shape. */
export interface RandomEngineOptions {
  readonly vocabulary: Vocabulary;
  /** Default seed for sessions that give none in their sampling options. */
  readonly seed?: number;
  /** Probability of picking an end-of-generation token whenever one is allowed (default 0.5). */
  readonly eosProbability?: number;
  readonly contextLength?: number;
  /** The chat template prompts are built in (Engine.chatTemplate); ChatML when absent. */
  readonly chatTemplate?: ChatTemplate;
}

/**
 * A pure-TypeScript engine whose logits are seeded noise: runs the real constrained path
 * deterministically, without a model.
 */
export class RandomEngine extends TestEngine {
  readonly name = "random";
  private sessions = 0;

  constructor(private readonly options: RandomEngineOptions) {
    super(options);
  }

  protected open(options: SessionOptions): EngineSession {
    // Each session gets its own stream: seed + session number, unless the caller fixes a seed.
    const seed = options.sampling?.seed ?? (this.options.seed ?? 0) + this.sessions++;
    return new RandomSession(options, mulberry32(seed), this.vocabulary.eosIds, this.options.eosProbability ?? 0.5);
  }
}

class RandomSession extends TestSession {
  constructor(
    options: SessionOptions,
    private readonly random: () => number,
    private readonly eosIds: readonly number[],
    private readonly eosProbability: number,
  ) {
    super(options);
  }

  protected choose(mask: Uint32Array): number {
    const eos = this.eosIds.find((id) => (mask[id >>> 5]! & (1 << (id & 31))) !== 0);
    if (eos !== undefined && this.random() < this.eosProbability) return eos;
    const allowed = popcount(mask);
    if (allowed === 0) return -1;
    return nthSetBit(mask, Math.floor(this.random() * allowed));
  }
}
