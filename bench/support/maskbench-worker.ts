/**
 * Worker side of the MaskBench harness: loads the fixture vocabulary once, warms the JIT on a
 * small schema (warm-up.ts), then evaluates one file per message and posts its SchemaOutcome back
 * (timing arrays transferred, not copied).
 */
import { parentPort, workerData } from "node:worker_threads";
import { fixtureVocabulary } from "../../test/support/fixture-vocab.js";
import { loadMaskbench } from "./corpus.js";
import { bareOutcome, describe, evaluateFile, type SchemaOutcome } from "./evaluate.js";
import { warmUp } from "./warm-up.js";

export interface MaskbenchWorkerConfig {
  readonly dir: string;
  readonly timeoutMs: number;
  /** Clear the shared rule automata before each compile (see compileUncached). */
  readonly coldCompile: boolean;
  /** Compile with this `eagerStates` (undefined: the default). */
  readonly eagerStates: number | undefined;
  /** Compile with this `propertyOrder` (undefined: the default). */
  readonly propertyOrder: "any" | "declared" | undefined;
}

const port = parentPort;
if (!port) throw new Error("maskbench-worker must run in a worker thread");
const config = workerData as MaskbenchWorkerConfig;
const vocabulary = await fixtureVocabulary();
warmUp(vocabulary);

port.on("message", (name: string) => {
  let outcome: SchemaOutcome;
  try {
    outcome = evaluateFile(loadMaskbench(config.dir, name), vocabulary, config.timeoutMs, { cold: config.coldCompile, eagerStates: config.eagerStates, propertyOrder: config.propertyOrder });
  } catch (err) {
    outcome = bareOutcome(name, "crash", describe(err, "load"));
  }
  port.postMessage(outcome, [outcome.coldTokenUs.buffer, outcome.warmTokenUs.buffer, outcome.coldMaskUs.buffer] as ArrayBuffer[]);
});
port.postMessage({ ready: true });
