/**
 * A long document on a pool of two llama.cpp engines (the tiny random-weight GGUF through the
 * native addon): the chunks run on both engines at once and the result is exactly the one a
 * single engine of the same model gives (greedy decoding is deterministic, and the merge sees the
 * chunks in document order whichever engine finished first); aborting stops both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, ExtractorPool, loadEngine, type Engine, type Extractor } from "../../src/index.js";
import { longDocument } from "../../bench/support/long-document.js";
import { timeless } from "../support/timeless-result.js";
import { mostOpenAtOnce, sessionsBy, timelineEngine, type TimelineEntry } from "../support/timeline-engine.js";

const Schema = z.object({ names: z.array(z.string().max(12)).max(3), total: z.number().nullable() });
const OPTIONS = { chunkSize: 600, chunkOverlap: 100, maxTokens: 40 } as const;
const { text } = longDocument(3600);

let alone: Extractor;
let engines: Engine[];
const timeline: TimelineEntry[] = [];
let pool: ExtractorPool;

beforeAll(async () => {
  const model = await ensureGgufFixture("tiny");
  alone = await createExtractor({ model, threads: 1 });
  engines = await Promise.all([1, 2].map(() => loadEngine(model, { threads: 1 })));
  pool = new ExtractorPool(await Promise.all(engines.map((engine, i) => createExtractor({ engine: timelineEngine(engine, `llama${i}`, timeline) }))));
}, 120_000);
afterAll(async () => {
  await alone?.dispose();
  await Promise.all((engines ?? []).map((e) => e.dispose()));
});


describe("a long document on two llama.cpp engines", () => {
  it("runs chunks on both engines at once and gives the single engine's result", async () => {
    const one = await alone.extract(Schema, text, OPTIONS);
    expect(one.stats.chunks).toBeGreaterThanOrEqual(6);
    timeline.length = 0;
    const two = await pool.extract(Schema, text, OPTIONS);
    expect(timeless(two)).toEqual(timeless(one));
    const sessions = sessionsBy(timeline);
    expect(sessions.llama0).toBeGreaterThan(0);
    expect(sessions.llama1).toBeGreaterThan(0);
    expect(sessions.llama0! + sessions.llama1!).toBe(one.stats.chunks);
    expect(mostOpenAtOnce(timeline)).toBe(2);
  }, 120_000);

  it("an aborted signal stops both engines", async () => {
    timeline.length = 0;
    const stop = new AbortController();
    const run = pool.extract(Schema, text, { ...OPTIONS, signal: stop.signal });
    while (mostOpenAtOnce(timeline) < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    stop.abort();
    const at = timeline.length;
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    expect(timeline.slice(at).filter((e) => e.event === "open")).toEqual([]);
    expect(timeline.slice(at).filter((e) => e.event === "feed").length).toBeLessThanOrEqual(2);
    expect(timeline.filter((e) => e.event === "open").length).toBe(timeline.filter((e) => e.event === "close").length);
    expect(pool.busy).toBe(0);
  }, 120_000);
});
