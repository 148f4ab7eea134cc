/**
 * Telling a speculative greedy divergence on llama.cpp from a bug. llama.cpp's CPU kernels are not
 * batch-invariant: evaluating tokens in one batch (as a verification does) and one at a time (as the
 * plain loop does) can give logits that differ in their last bits. Measured on the fixtures, 200
 * random contexts with their last 5-14 tokens evaluated both ways: the tiny GGUF (F16 matrices)
 * agreed bit for bit in 144 and differed by up to 7.1e-3 in one logit; the pocket-shaped GGUF
 * (Q8_0) agreed in all 20 tried. So greedy speculative output can take the other of two tokens
 * whose logits are that close. A divergence is accepted only where the reference gap between the
 * two chosen tokens is within NEAR_TIE; a wrong row or mask gives gaps of the logits' spread (~2).
 */
import { loadLlamaAddon, type NativeLlamaModel } from "../../src/engines/llama/addon.js";

/** Largest reference logit gap at which a greedy divergence is put down to batch rounding (about 3x the 7.1e-3 measured). */
export const NEAR_TIE = 0.02;

/** Two greedy outputs of the same prompt, as token lists. */
export interface GreedyPair {
  readonly promptIds: readonly number[];
  readonly plain: readonly number[];
  readonly speculative: readonly number[];
}

/** Logits recomputed the plain loop's way on a model of its own: the prompt in one batch, then one token at a time. */
export class ReferenceLogits {
  private constructor(private readonly model: NativeLlamaModel) {}

  static async load(ggufPath: string): Promise<ReferenceLogits> {
    const { addon, backendsDir } = loadLlamaAddon();
    return new ReferenceLogits(await addon.loadModel(ggufPath, { backendsDir, contextLength: 1024, threads: 1 }));
  }

  /**
   * The gap between the logits of the two outputs' tokens where they first differ, or undefined
   * when one output is a prefix of the other (they differ in how they stopped, not in a choice).
   */
  async gapAtDivergence({ promptIds, plain, speculative }: GreedyPair): Promise<number | undefined> {
    let at = 0;
    while (at < plain.length && at < speculative.length && plain[at] === speculative[at]) at++;
    if (at === plain.length || at === speculative.length) return undefined;
    this.model.truncate(0);
    await this.model.decode(Int32Array.from(promptIds));
    for (const id of plain.slice(0, at)) await this.model.decode(Int32Array.of(id));
    const logits = this.model.logits();
    return Math.abs(logits[plain[at]!]! - logits[speculative[at]!]!);
  }

  dispose(): void {
    this.model.free();
  }
}
