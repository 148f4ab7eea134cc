/**
 * Shared plumbing of the pure-TypeScript engines: abort and dispose checks, and the record of
 * what was fed (prompt first, then generated tokens) that a test engine bases its choices on.
 */
import { PocketExtractError } from "../../errors.js";
import type { EngineSession, SessionOptions } from "../engine.js";

export abstract class TestSession implements EngineSession {
  protected prompt: number[] | undefined;
  protected readonly generated: number[] = [];
  private closed = false;

  constructor(protected readonly options: SessionOptions) {}

  async feed(ids: readonly number[]): Promise<void> {
    this.check();
    if (this.prompt === undefined) this.prompt = [...ids];
    else this.generated.push(...ids);
  }

  async sample(mask: Uint32Array): Promise<number> {
    this.check();
    const id = this.choose(mask);
    if (id < 0) throw new PocketExtractError("ENGINE_FAILED", "the mask allows no token");
    return id;
  }

  async rollback(n: number): Promise<void> {
    this.check();
    this.generated.length = Math.max(0, this.generated.length - n);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Pick an allowed id, or -1 if none is allowed. */
  protected abstract choose(mask: Uint32Array): number;

  private check(): void {
    if (this.closed) throw new PocketExtractError("ENGINE_DISPOSED", "session is closed");
    if (this.options.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted");
  }
}
