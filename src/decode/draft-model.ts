/**
 * Draft model drafting: a second, smaller model with the same vocabulary guesses the next token
 * greedily under the grammar's mask at the drafted position. Its session follows the decode's
 * context (prompt, confirmed output, tokens drafted this round), rolling back what the target
 * model rejected, so its KV cache is reused from round to round. A greedy draft is a point mass,
 * so verifying it by sampling the target's row keeps the target's distribution (generate.ts).
 */
import type { Engine, EngineSession } from "../engines/index.js";
import type { DraftGate, Drafter, Proposal } from "./speculative.js";

export class DraftModel implements Drafter {
  private session: EngineSession | undefined;
  /** Tokens after the prompt that the draft session holds. */
  private readonly fed: number[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly promptIds: readonly number[],
    private readonly gate: DraftGate,
  ) {}

  async propose(context: readonly number[], _limit: number, mask: () => Uint32Array): Promise<Proposal | undefined> {
    // Asked before the draft pass: a paused gate costs the draft model nothing.
    if (!this.gate.open()) return undefined;
    const session = await this.open();
    let common = 0;
    while (common < this.fed.length && common < context.length && this.fed[common] === context[common]) common++;
    if (this.fed.length > common) {
      await session.rollback?.(this.fed.length - common);
      this.fed.length = common;
    }
    if (context.length > common) {
      const fresh = context.slice(common);
      await session.feed(fresh);
      this.fed.push(...fresh);
    }
    return { ids: [await session.sample(mask())], gate: this.gate };
  }

  async close(): Promise<void> {
    await this.session?.close();
  }

  private async open(): Promise<EngineSession> {
    if (!this.session) {
      this.session = await this.engine.createSession({ sampling: {} });
      await this.session.feed(this.promptIds);
    }
    return this.session;
  }
}
