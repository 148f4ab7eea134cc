/**
 * What one more verified draft token costs a loaded GGUF model on this machine, timed at load
 * (LlamaEngineOptions.verifyCost "measure"): a one-token step (its pass and its masked draw)
 * against a step of 1 + k tokens that keeps and draws every row, as a verification does. Unlike
 * the shape figure (verify-cost.ts), it includes the drafted token's pass through the blocks,
 * which costs about nothing where a pass is bound by reading the weights (several threads, 4-bit
 * weights, phones) and about half a pass on one CPU thread with Q8_0 weights (compute-bound). The
 * figure depends on the machine and on its load while timed, so decisions made with it do too.
 */
import type { NativeLlamaModel } from "./addon.js";

/** Guessed tokens per timed verification. */
const GUESSES = 4;
/**
 * Timed pairs (one-token step, verification), alternating which goes first. The fastest of each
 * kind is compared: other work on the machine only ever adds time, and medians of 5 varied from
 * 0.29 to 0.93 for the tiny GGUF on a loaded 2-core machine.
 */
const ROUNDS = 7;
/** Context the steps follow (ids spread over the vocabulary). */
const CONTEXT = 32;

/** Extra cost of one verified guess in one-token steps, >= 0; the context is emptied afterwards. */
export async function measureVerifyRowCost(model: NativeLlamaModel): Promise<number> {
  const width = model.width();
  const allowAll = new Uint32Array(Math.ceil(width / 32)).fill(0xffffffff);
  const ids = (n: number, offset: number): Int32Array => Int32Array.from({ length: n }, (_, i) => (offset + i * 7919) % width);
  model.truncate(0);
  await model.decode(ids(CONTEXT, 100));
  const step = async (tokens: number): Promise<number> => {
    model.truncate(CONTEXT);
    const start = performance.now();
    await model.decode(ids(tokens, 5000), tokens);
    for (let row = 0; row < tokens; row++) model.sample(allowAll, 0, 0, 1, 0, row);
    return performance.now() - start;
  };
  // Unmeasured first: ggml sizes its buffers for a batch shape on first use.
  await step(1);
  await step(1 + GUESSES);
  const one: number[] = [];
  const verification: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      one.push(await step(1));
      verification.push(await step(1 + GUESSES));
    } else {
      verification.push(await step(1 + GUESSES));
      one.push(await step(1));
    }
  }
  model.truncate(0);
  const single = Math.min(...one);
  return Math.max(0, (Math.min(...verification) - single) / (GUESSES * single));
}
