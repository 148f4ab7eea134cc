/**
 * Worker side of the MaskBench harness: loads the fixture vocabulary once, warms the JIT on a
 * small schema (first calls in a fresh process are 10-50x slower and would otherwise land in the
 * first files' figures), then evaluates one file per message and posts its SchemaOutcome back
 * (timing arrays transferred, not copied).
 */
import { parentPort, workerData } from "node:worker_threads";
import { fixtureVocabulary } from "../../test/support/fixture-vocab.js";
import { loadMaskbench, type MaskbenchFile } from "./corpus.js";
import { bareOutcome, describe, evaluateFile, type SchemaOutcome } from "./evaluate.js";
import { parseJsonKeepingNumbers } from "./python-json.js";

export interface MaskbenchWorkerConfig {
  readonly dir: string;
  readonly timeoutMs: number;
  /** Clear the shared rule automata before each compile (see compileUncached). */
  readonly coldCompile: boolean;
  /** Compile with this `eagerStates` (undefined: the default). */
  readonly eagerStates: number | undefined;
}

const WARM_UP: MaskbenchFile = {
  name: "warm-up",
  schema: {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string", maxLength: 20 } } },
    required: ["name"],
  },
  tests: [
    { valid: true, description: "warm-up", text: '{"name": "Ann Lee", "age": 42, "tags": ["a", "b c"]}' },
    { valid: false, description: "warm-up", text: '{"age": -1}' },
  ].map((test) => ({ ...test, data: parseJsonKeepingNumbers(test.text) })),
};

const port = parentPort;
if (!port) throw new Error("maskbench-worker must run in a worker thread");
const config = workerData as MaskbenchWorkerConfig;
const vocabulary = await fixtureVocabulary();
for (let i = 0; i < 3; i++) evaluateFile(WARM_UP, vocabulary, Infinity);

port.on("message", (name: string) => {
  let outcome: SchemaOutcome;
  try {
    outcome = evaluateFile(loadMaskbench(config.dir, name), vocabulary, config.timeoutMs, { cold: config.coldCompile, eagerStates: config.eagerStates });
  } catch (err) {
    outcome = bareOutcome(name, "crash", describe(err, "load"));
  }
  port.postMessage(outcome, [outcome.coldTokenUs.buffer, outcome.warmTokenUs.buffer, outcome.coldMaskUs.buffer] as ArrayBuffer[]);
});
port.postMessage({ ready: true });
