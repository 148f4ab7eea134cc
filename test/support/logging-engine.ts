/**
 * An Engine that delegates to another and logs what the decode loop asks of it, in order:
 * sessions opened (asked for, then ready), forward passes (started, finished), samples, closes.
 * Cancellation tests count the forward passes after a `break` or an abort with it, and read the
 * order of the next request's session against the previous one's close, instead of timing.
 *
 * `yieldPerPass` makes every forward pass take a macrotask: the test engines compute in
 * microtasks, so without it the decode runs to its end before a reader sees its first event.
 */
import { expect } from "vitest";
import type { Engine, EngineSession, SessionOptions } from "../../src/engines/engine.js";

export type EngineCall = "create" | "ready" | "pass" | "passDone" | "sample" | "close";
export interface LoggedCall {
  readonly session: number;
  readonly call: EngineCall;
  /** The ids fed ("pass") or sampled ("sample"). */
  readonly ids?: readonly number[];
}

export class LoggingEngine implements Engine {
  readonly log: LoggedCall[] = [];
  private sessions = 0;

  constructor(
    private readonly inner: Engine,
    private readonly options: { readonly yieldPerPass?: boolean } = {},
  ) {}

  get vocabulary(): Engine["vocabulary"] {
    return this.inner.vocabulary;
  }
  get name(): string {
    return `logged ${this.inner.name}`;
  }
  get contextLength(): number | undefined {
    return this.inner.contextLength;
  }
  get chatTemplate(): Engine["chatTemplate"] {
    return this.inner.chatTemplate;
  }

  /** Calls of `call` (all sessions, or one), from the log entry `from` on. */
  count(call: EngineCall, from = 0, session?: number): number {
    return this.log.slice(from).filter((c) => c.call === call && (session === undefined || c.session === session)).length;
  }

  async createSession(options?: SessionOptions): Promise<EngineSession> {
    const session = ++this.sessions;
    const note = (call: EngineCall, ids?: readonly number[]): void => void this.log.push({ session, call, ids });
    note("create");
    const inner = await this.inner.createSession(options);
    note("ready");
    const yieldPerPass = this.options.yieldPerPass ?? false;
    return {
      async feed(ids) {
        note("pass", [...ids]);
        if (yieldPerPass) await new Promise<void>((resolve) => setImmediate(resolve));
        await inner.feed(ids);
        note("passDone");
      },
      async sample(mask) {
        const id = await inner.sample(mask);
        note("sample", [id]);
        return id;
      },
      async rollback(n) {
        await inner.rollback?.(n);
      },
      async close() {
        note("close");
        await inner.close();
      },
    };
  }

  async dispose(): Promise<void> {
    await this.inner.dispose();
  }
}

/**
 * What a cancellation logged at `from` (the log's length then) may still cost: no forward pass
 * started after it, at most the one already running finished, and the session closed last.
 */
export function expectStoppedWithinOneToken(engine: LoggingEngine, from: number): void {
  expect(engine.count("pass", from)).toBe(0);
  expect(engine.count("passDone", from)).toBeLessThanOrEqual(1);
  expect(engine.log.at(-1)!.call).toBe("close");
}
