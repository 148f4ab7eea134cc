/**
 * Shared plumbing of the pure-TypeScript engines: the engine shell (vocabulary, dispose), abort
 * and dispose checks, and the record of what was fed (prompt first, then generated tokens) that
 * a test engine bases its choices on.
 */
import { PocketExtractError } from "../../errors.js";
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import type { Engine, EngineSession, SessionOptions } from "../engine.js";
import { checkRows } from "../feed-rows.js";

export abstract class TestEngine implements Engine {
  abstract readonly name: string;
  readonly vocabulary: Vocabulary;
  readonly contextLength: number | undefined;
  readonly chatTemplate: ChatTemplate | undefined;
  private disposed = false;

  constructor(options: { readonly vocabulary: Vocabulary; readonly contextLength?: number; readonly chatTemplate?: ChatTemplate }) {
    this.vocabulary = options.vocabulary;
    this.contextLength = options.contextLength;
    this.chatTemplate = options.chatTemplate;
  }

  async createSession(options: SessionOptions = {}): Promise<EngineSession> {
    if (this.disposed) throw new PocketExtractError("ENGINE_DISPOSED", `${this.name} engine was disposed`);
    return this.open(options);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  /** A new session of this engine. */
  protected abstract open(options: SessionOptions): EngineSession;
}

export abstract class TestSession implements EngineSession {
  protected prompt: number[] | undefined;
  protected readonly generated: number[] = [];
  /** How many generated tokens each row's choice follows: the last feedRows' rows (the last position after a plain feed). */
  private rowEnds = [0];
  private closed = false;

  constructor(protected readonly options: SessionOptions) {}

  async feed(ids: readonly number[]): Promise<void> {
    this.check();
    if (this.prompt === undefined) this.prompt = [...ids];
    else this.generated.push(...ids);
    this.rowEnds = [this.generated.length];
  }

  async sample(mask: Uint32Array): Promise<number> {
    this.check();
    return this.chooseAfter(this.generated, mask);
  }

  async feedRows(ids: readonly number[], rows: readonly number[]): Promise<void> {
    checkRows(rows, ids.length);
    await this.feed(ids);
    const start = this.generated.length - ids.length;
    this.rowEnds = rows.map((r) => Math.max(0, start + r + 1));
  }

  /** As the model would choose after the generated tokens up to the row's id. */
  async sampleRow(row: number, mask: Uint32Array): Promise<number> {
    this.check();
    const end = this.rowEnds[row];
    if (end === undefined) throw new PocketExtractError("ENGINE_FAILED", `sampleRow(${row}): the last feedRows kept ${this.rowEnds.length} rows`);
    return this.chooseAfter(this.generated.slice(0, end), mask);
  }

  async rollback(n: number): Promise<void> {
    this.check();
    this.generated.length = Math.max(0, this.generated.length - n);
    this.rowEnds = [this.generated.length];
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Pick an allowed id after the `generated` tokens (the output so far), or -1 if none is allowed. */
  protected abstract choose(mask: Uint32Array, generated: readonly number[]): number;

  private chooseAfter(generated: readonly number[], mask: Uint32Array): number {
    const id = this.choose(mask, generated);
    if (id < 0) throw new PocketExtractError("ENGINE_FAILED", "the mask allows no token");
    return id;
  }

  private check(): void {
    if (this.closed) throw new PocketExtractError("ENGINE_DISPOSED", "session is closed");
    if (this.options.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted");
  }
}
