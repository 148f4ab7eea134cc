/**
 * Cancelling a stream on the native llama.cpp engine (tiny random-weight GGUF): leaving the loop
 * stops decoding within one token and frees the engine's one context, so the next request starts
 * at once instead of queueing behind an abandoned decode. Counted in forward passes and read from
 * the order of engine calls (a logging wrapper around the real engine), never timed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, type Extractor } from "../../src/index.js";
import { createLlamaEngine } from "../../src/engines/llama/index.js";
import { expectStoppedWithinOneToken, LoggingEngine } from "../support/logging-engine.js";

// Eight items of two strings: a full decode on the tiny model's random weights is long.
const Minutes = z.object({ items: z.array(z.object({ who: z.string().max(30), what: z.string().max(60) })).min(8).max(8) });
const TEXT = "会议纪要：2026 年第一季度产品评审，参会者王小明、李雷，结论是下季度发布。";
const MAX_TOKENS = 200;

let engine: LoggingEngine;
let extractor: Extractor;
beforeAll(async () => {
  engine = new LoggingEngine(await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny") }));
  extractor = await createExtractor({ engine, maxTokens: MAX_TOKENS });
});
afterAll(async () => {
  await extractor?.dispose();
});

/** Reads a stream until its `n`th partial, then breaks; returns the log length at the break. */
async function breakAfter(n: number): Promise<number> {
  let seen = 0;
  for await (const e of extractor.stream(Minutes, TEXT)) {
    if (e.type === "partial" && ++seen === n) return engine.log.length;
  }
  throw new Error(`the stream ended before ${n} partials`);
}

/** The same through the views: after `n` partial values, or after `n` elements. */
async function breakViewAfter(view: "partialObjectStream" | "elementStream", n: number): Promise<number> {
  let seen = 0;
  for await (const _ of extractor.stream(Minutes, TEXT, { elements: "items" })[view]) {
    if (++seen === n) return engine.log.length;
  }
  throw new Error(`the ${view} ended before ${n} values`);
}

describe("stream() on llama.cpp: break frees the engine within one token", () => {
  it("after a break at most the forward pass in flight finishes, and the next request decodes at once", async () => {
    const full = await extractor.extract(Minutes, TEXT);
    expect(full.stats.forwardPasses).toBeGreaterThan(40);

    const start = engine.log.length;
    const atBreak = await breakAfter(3);
    const session = engine.log[atBreak - 1]!.session;
    // No pass or sample started after the break; the one in flight may finish; the session closed
    // before `break` returned.
    expect(engine.count("pass", atBreak)).toBe(0);
    expect(engine.count("sample", atBreak)).toBe(0);
    expect(engine.count("passDone", atBreak)).toBeLessThanOrEqual(1);
    expect(engine.log.at(-1)).toMatchObject({ session, call: "close" });
    expect(engine.count("passDone", start)).toBeLessThan(full.stats.forwardPasses / 4);

    // The next request gets the context right away and is the only one decoding.
    const before = engine.log.length;
    const next = await extractor.extract(Minutes, TEXT);
    expect(next.stats.forwardPasses).toBeGreaterThan(40); // a whole decode, as `full` had
    expect(engine.log.slice(before, before + 2).map((c) => c.call)).toEqual(["create", "ready"]);
    expect(new Set(engine.log.slice(before).map((c) => c.session)).size).toBe(1);
  });

  it("three abandoned streams cost at most one pass each after their break; the request after them starts at once", async () => {
    const starts: number[] = [];
    const breaks: number[] = [];
    for (const abandon of [() => breakAfter(4), () => breakViewAfter("partialObjectStream", 6), () => breakViewAfter("elementStream", 2)]) {
      starts.push(engine.log.length);
      breaks.push(await abandon());
    }
    for (const [i, atBreak] of breaks.entries()) {
      const end = starts[i + 1] ?? engine.log.length;
      expect(engine.log.slice(atBreak, end).filter((c) => c.call === "pass" || c.call === "sample")).toEqual([]);
      expect(engine.log.slice(atBreak, end).filter((c) => c.call === "passDone").length).toBeLessThanOrEqual(1);
    }
    const before = engine.log.length;
    const next = await extractor.extract(Minutes, TEXT);
    expect(next.stats.tokensSampled).toBeGreaterThan(40);
    expect(engine.log.slice(before, before + 3).map((c) => c.call)).toEqual(["create", "ready", "pass"]);
  });

  it("an aborted signal stops the decode the same way", async () => {
    const controller = new AbortController();
    let atAbort = 0;
    let seen = 0;
    const reading = (async () => {
      for await (const e of extractor.stream(Minutes, TEXT, { signal: controller.signal })) {
        if (e.type === "partial" && ++seen === 3) {
          atAbort = engine.log.length;
          controller.abort();
        }
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: "ABORTED" });
    expectStoppedWithinOneToken(engine, atAbort);
  });
});
