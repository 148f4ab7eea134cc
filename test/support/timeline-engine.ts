/**
 * Engines that note on one shared timeline when each opens a session, feeds and closes it, so a
 * test of several engines can read which engine ran what and whether their sessions overlapped.
 * Each feed takes a macrotask (the test engines compute in microtasks: without it one engine would
 * run a whole chunk before another starts).
 */
import type { Engine, EngineSession } from "../../src/engines/engine.js";

export interface TimelineEntry {
  readonly engine: string;
  readonly event: "open" | "feed" | "close";
}

export function timelineEngine(inner: Engine, name: string, timeline: TimelineEntry[]): Engine {
  const note = (event: TimelineEntry["event"]): void => void timeline.push({ engine: name, event });
  return {
    name,
    vocabulary: inner.vocabulary,
    contextLength: inner.contextLength,
    chatTemplate: inner.chatTemplate,
    async createSession(options) {
      note("open");
      const session = await inner.createSession(options);
      const wrapped: EngineSession = {
        async feed(ids) {
          note("feed");
          await new Promise<void>((resolve) => setImmediate(resolve));
          await session.feed(ids);
        },
        sample: (mask) => session.sample(mask),
        async close() {
          note("close");
          await session.close();
        },
      };
      return wrapped;
    },
    dispose: () => inner.dispose(),
  };
}

/** Sessions each engine opened. */
export function sessionsBy(timeline: readonly TimelineEntry[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of timeline) if (e.event === "open") out[e.engine] = (out[e.engine] ?? 0) + 1;
  return out;
}

/** The most sessions open at once across all engines. */
export function mostOpenAtOnce(timeline: readonly TimelineEntry[]): number {
  let open = 0;
  let most = 0;
  for (const e of timeline) {
    open += e.event === "open" ? 1 : e.event === "close" ? -1 : 0;
    most = Math.max(most, open);
  }
  return most;
}
