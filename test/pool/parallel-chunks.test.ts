/**
 * A long document on a pool of engines (issue #20): its chunks spread over the pool's idle
 * extractors, and the result is the one a single extractor gives, in document order whichever
 * engine finishes first; aborting stops every engine; a failing chunk fails the run with its typed
 * error after the others stopped; a request that arrives meanwhile is served between chunks.
 * Test engines (the deterministic per-chunk payments model) through the public API.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createExtractor, ExtractorPool, PocketExtractError, type ExtractResult } from "../../src/index.js";
import type { Engine } from "../../src/engines/engine.js";
import type { Vocabulary } from "../../src/tokens/index.js";
import { longDocument, paymentsEngine, PaymentsSchema } from "../../bench/support/long-document.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { timeless } from "../support/timeless-result.js";
import { mostOpenAtOnce, sessionsBy, timelineEngine, type TimelineEntry } from "../support/timeline-engine.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const doc = () => longDocument(8000);
const OPTIONS = { chunkSize: 1000, chunkOverlap: 200 } as const;

async function poolOf(engines: readonly Engine[]): Promise<ExtractorPool> {
  return new ExtractorPool(await Promise.all(engines.map((engine) => createExtractor({ engine }))));
}


describe("ExtractorPool.extract: a long document over several engines", () => {
  it("gives the single extractor's result, while both engines ran chunks at the same time", async () => {
    const { text, payments } = doc();
    const alone = await (await createExtractor({ engine: paymentsEngine(vocab) })).extract(PaymentsSchema, text, OPTIONS);
    const timeline: TimelineEntry[] = [];
    const pool = await poolOf([timelineEngine(paymentsEngine(vocab), "a", timeline), timelineEngine(paymentsEngine(vocab), "b", timeline)]);
    const spread = await pool.extract(PaymentsSchema, text, OPTIONS);
    expect(spread.ok).toBe(true);
    expect(spread.data?.payments.map((p) => p.id)).toEqual(payments.map((p) => p.id));
    expect(timeless(spread)).toEqual(timeless(alone));
    const sessions = sessionsBy(timeline);
    expect(sessions.a! + sessions.b!).toBe(spread.stats.chunks);
    expect(sessions.a).toBeGreaterThan(1);
    expect(sessions.b).toBeGreaterThan(1);
    expect(mostOpenAtOnce(timeline)).toBe(2);
    expect(pool.busy).toBe(0);
  });

  it("the same with a second pass and through stream(): the elements and result of one extractor, partials among its own", async () => {
    const { text } = doc();
    const options = { ...OPTIONS, chunkSize: 600, passes: 2, elements: "payments" } as const;
    const one = await createExtractor({ engine: paymentsEngine(vocab) });
    const events = async (run: (o: typeof options) => AsyncIterable<unknown>) => {
      const out: unknown[] = [];
      for await (const e of run(options)) out.push(e);
      return out.map((e) => (e as { type: string }).type === "result" ? { type: "result", result: timeless((e as { result: ExtractResult<unknown> }).result) } : e);
    };
    const alone = await events((o) => one.stream(PaymentsSchema, text, o));
    const timeline: TimelineEntry[] = [];
    const pool = await poolOf([timelineEngine(paymentsEngine(vocab), "a", timeline), timelineEngine(paymentsEngine(vocab), "b", timeline)]);
    const spread = await pool.use((extractor) => events((o) => extractor.stream(PaymentsSchema, text, o)));
    // Elements and the result are the same; partials are snapshots of the merge so far, so where
    // several chunks settled at once the pool shows fewer of them, each one a partial of the run
    // on one extractor, in the same order, ending with the same one.
    const only = (events: unknown[], type: string) => events.filter((e) => (e as { type: string }).type === type);
    expect(only(spread, "element")).toEqual(only(alone, "element"));
    expect(only(spread, "result")).toEqual(only(alone, "result"));
    const partials = only(alone, "partial").map((e) => JSON.stringify(e));
    const positions = only(spread, "partial").map((e) => partials.indexOf(JSON.stringify(e)));
    expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!))).toBe(true);
    expect(positions.at(-1)).toBe(partials.length - 1);
    expect(Object.keys(sessionsBy(timeline)).sort()).toEqual(["a", "b"]);
    expect(spread.filter((e) => (e as { type: string }).type === "element").length).toBeGreaterThan(5);
  });

  it("an aborted signal stops every engine: ABORTED, every session closed, none opened after", async () => {
    const { text } = doc();
    const timeline: TimelineEntry[] = [];
    const pool = await poolOf([timelineEngine(paymentsEngine(vocab), "a", timeline), timelineEngine(paymentsEngine(vocab), "b", timeline)]);
    const stop = new AbortController();
    const run = pool.extract(PaymentsSchema, text, { ...OPTIONS, signal: stop.signal });
    // Abort once both engines are at work.
    await waitFor(() => timeline.filter((e) => e.event === "feed").length >= 6 && Object.keys(sessionsBy(timeline)).length === 2);
    stop.abort();
    const at = timeline.length;
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    const after = timeline.slice(at);
    expect(after.filter((e) => e.event === "open")).toEqual([]);
    // At most the forward pass in flight on each engine finished.
    expect(after.filter((e) => e.event === "feed").length).toBeLessThanOrEqual(2);
    expect(mostOpenAtOnce(timeline)).toBe(2);
    expect(timeline.filter((e) => e.event === "open").length).toBe(timeline.filter((e) => e.event === "close").length);
    expect(pool.busy).toBe(0);
  });

  it("a chunk that fails fails the run with its typed error, after the other engine stopped", async () => {
    const { text } = doc();
    const timeline: TimelineEntry[] = [];
    const good = timelineEngine(paymentsEngine(vocab), "good", timeline);
    const inner = timelineEngine(paymentsEngine(vocab), "failing", timeline);
    let opened = 0;
    const failing: Engine = {
      ...inner,
      createSession: (o) => (++opened === 2 ? Promise.reject(new PocketExtractError("ENGINE_FAILED", "the engine broke")) : inner.createSession(o)),
    };
    const pool = await poolOf([good, failing]);
    await expect(pool.extract(PaymentsSchema, text, OPTIONS)).rejects.toMatchObject({ code: "ENGINE_FAILED", message: "the engine broke" });
    expect(timeline.filter((e) => e.event === "open").length).toBe(timeline.filter((e) => e.event === "close").length);
    expect(pool.busy).toBe(0);
    // The pool still works.
    expect((await pool.extract(PaymentsSchema, "On 2020-01-01, Alice Walker (ref P0001) paid $1,000 for the order.")).ok).toBe(true);
  });

  it("a request that arrives during a long document is served before the document ends", async () => {
    const { text } = doc();
    const timeline: TimelineEntry[] = [];
    const pool = await poolOf([timelineEngine(paymentsEngine(vocab), "a", timeline), timelineEngine(paymentsEngine(vocab), "b", timeline)]);
    const long = pool.extract(PaymentsSchema, text, OPTIONS);
    await waitFor(() => mostOpenAtOnce(timeline) === 2);
    const short = pool.extract(PaymentsSchema, "On 2020-01-01, Alice Walker (ref P0001) paid $1,000 for the order.").then(() => timeline.length);
    const [longResult, shortDoneAt] = await Promise.all([long, short]);
    const chunks = longResult.stats.chunks!;
    // The short request's session is not the last: chunks of the long document ran after it.
    const opensAfterShort = timeline.slice(shortDoneAt).filter((e) => e.event === "open").length;
    expect(opensAfterShort).toBeGreaterThan(0);
    expect(sessionsBy(timeline).a! + sessionsBy(timeline).b!).toBe(chunks + 1);
  });
});

describe("ExtractorPool.extractMany", () => {
  it("runs the documents on both engines, each result as one extractor gives it; a bad document is an error entry", async () => {
    const texts = [doc().text.slice(0, 900), doc().text.slice(900, 1800), "", doc().text.slice(1800, 2700)];
    const one = await createExtractor({ engine: paymentsEngine(vocab) });
    const timeline: TimelineEntry[] = [];
    const pool = await poolOf([timelineEngine(paymentsEngine(vocab), "a", timeline), timelineEngine(paymentsEngine(vocab), "b", timeline)]);
    const out = [];
    for await (const r of pool.extractMany(PaymentsSchema, texts)) out.push(r);
    expect(out.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    for (const r of out) {
      if (r.index === 2) expect(r.error?.code).toBe("TEXT_EMPTY");
      else expect(timeless(r.result!)).toEqual(timeless(await one.extract(PaymentsSchema, texts[r.index]!)));
    }
    expect(sessionsBy(timeline)).toEqual({ a: expect.any(Number), b: expect.any(Number) });
    expect(mostOpenAtOnce(timeline)).toBe(2);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
