/**
 * The real CLI in a real process (files, signals, SIGKILL) with only the model swapped for the
 * seeded RandomEngine on the fixture vocabulary, so kill-and-resume tests run fast and without the
 * native addon. `POCKET_TEST_STEP_DELAY_MS` slows each decode step, to widen the window a kill can
 * land in.
 */
import { processIo } from "../../../src/cli/io.js";
import { runCli } from "../../../src/cli/main.js";
import type { Engine } from "../../../src/engines/engine.js";
import { RandomEngine } from "../../../src/engines/testing/random-engine.js";
import { fixtureVocabulary } from "../../support/fixture-vocab.js";

const vocabulary = await fixtureVocabulary();
const random = new RandomEngine({ vocabulary, seed: Number(process.env.POCKET_TEST_SEED ?? 1), eosProbability: 0.9 });
const delay = Number(process.env.POCKET_TEST_STEP_DELAY_MS ?? 0);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const engine: Engine =
  delay > 0
    ? {
        name: random.name,
        vocabulary: random.vocabulary,
        contextLength: random.contextLength,
        async createSession(options) {
          const session = await random.createSession(options);
          return {
            feed: (ids) => session.feed(ids),
            sample: async (mask) => {
              await sleep(delay);
              return session.sample(mask);
            },
            close: () => session.close(),
          };
        },
        dispose: () => random.dispose(),
      }
    : random;
process.exitCode = await runCli(process.argv.slice(2), { ...processIo(), engine });
