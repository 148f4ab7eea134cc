/**
 * A small schema run a few times before measuring: the first calls in a fresh process are 10-50x
 * slower until the JIT has compiled them, and would otherwise land in the first files' figures.
 */
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import type { MaskbenchFile } from "./corpus.js";
import { evaluateFile } from "./evaluate.js";
import { parseJsonKeepingNumbers } from "./python-json.js";

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

/** Evaluates the warm-up schema three times (results discarded). */
export function warmUp(vocabulary: Vocabulary): void {
  for (let i = 0; i < 3; i++) evaluateFile(WARM_UP, vocabulary, Infinity);
}
