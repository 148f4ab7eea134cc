/**
 * Engines for the service and queue tests, built on the seeded RandomEngine (real vocabulary,
 * real masks): `observedEngine` counts the tokens it samples and the sessions that were aborted,
 * can slow each step (so a request stays in flight long enough to disconnect, overload or time
 * out) and can fail its first sessions with ENGINE_FAILED (an engine fault, for 5xx and retries).
 */
import type { Engine, EngineSession } from "../../../src/engines/engine.js";
import { RandomEngine } from "../../../src/engines/testing/random-engine.js";
import { PocketExtractError } from "../../../src/errors.js";
import { fixtureVocabulary } from "../../support/fixture-vocab.js";

export interface ObservedEngine extends Engine {
  /** Tokens sampled so far, over all sessions. */
  readonly sampled: number;
  /** Sessions closed with their signal aborted (the decode loop stops at the next token). */
  readonly aborted: number;
  /** Sessions opened so far. */
  readonly sessions: number;
  /** Resolves when the next session samples its first token. */
  nextSampling(): Promise<void>;
}

export async function observedEngine(options: { delayMs?: number; failSessions?: number; seed?: number } = {}): Promise<ObservedEngine> {
  const base = new RandomEngine({ vocabulary: await fixtureVocabulary(), seed: options.seed ?? 7, eosProbability: 0.9 });
  let sampled = 0;
  let aborted = 0;
  let sessions = 0;
  let waiting: (() => void)[] = [];
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    name: "observed-random",
    vocabulary: base.vocabulary,
    contextLength: base.contextLength,
    get sampled() {
      return sampled;
    },
    get aborted() {
      return aborted;
    },
    get sessions() {
      return sessions;
    },
    nextSampling: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async createSession(sessionOptions): Promise<EngineSession> {
      const number = ++sessions;
      if (number <= (options.failSessions ?? 0)) throw new PocketExtractError("ENGINE_FAILED", `session ${number} failed on purpose`);
      const session = await base.createSession(sessionOptions);
      let first = true;
      return {
        feed: (ids) => session.feed(ids),
        async sample(mask) {
          if (first) {
            first = false;
            const wake = waiting;
            waiting = [];
            wake.forEach((w) => w());
          }
          if (options.delayMs) await sleep(options.delayMs);
          const id = await session.sample(mask);
          sampled++;
          return id;
        },
        async close() {
          if (sessionOptions?.signal?.aborted) aborted++;
          await session.close();
        },
      };
    },
    dispose: () => base.dispose(),
  };
}
