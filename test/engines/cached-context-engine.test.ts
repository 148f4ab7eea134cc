// The engine wrapper's mirror of the native cache: a decode step sends only its new ids after the
// cached prefix; rollbacks, other sessions and failed batches fall back to the prefix comparison.
import { describe, expect, it } from "vitest";
import { PocketExtractError } from "../../src/errors.js";
import { CachedContextEngine, type NativeContext } from "../../src/engines/native-shared/cached-context-engine.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

/** A native context that records each evaluation and keeps a cache like a backend would. */
function recordingNative(): { native: NativeContext; calls: { keep: number; tokens: number[]; rows: number[] }[]; failNext: (held: number) => void } {
  let cache: number[] = [];
  let failure: number | undefined;
  const calls: { keep: number; tokens: number[]; rows: number[] }[] = [];
  const native: NativeContext = {
    evaluate: async (keep, tokens, rows) => {
      calls.push({ keep, tokens: Array.from(tokens), rows: Array.from(rows) });
      cache = [...cache.slice(0, keep), ...tokens];
      if (failure !== undefined) {
        cache.length = failure;
        failure = undefined;
        throw Object.assign(new Error("llama_decode failed"), { code: "DECODE" });
      }
    },
    cached: () => cache.length,
    sample: () => 7,
    seed: () => {},
    free: () => {},
  };
  return { native, calls, failNext: (held) => (failure = held) };
}

describe("CachedContextEngine cache mirror", async () => {
  const vocabulary = await fixtureVocabulary();
  const engineWith = (native: NativeContext): CachedContextEngine =>
    new CachedContextEngine(native, { name: "recording", vocabulary, contextLength: 64, multiRow: true });

  it("sends only the new ids of each step, and the prefix comparison after a rollback", async () => {
    const { native, calls } = recordingNative();
    const session = await engineWith(native).createSession();
    await session.feed([1, 2, 3]);
    await session.feed([await session.sample(new Uint32Array(vocabulary.width >>> 5).fill(~0))]);
    await session.feedRows!([8, 9, 10], [0, 1, 2]);
    await session.rollback!(2);
    await session.feed([11]);
    expect(calls).toEqual([
      { keep: 0, tokens: [1, 2, 3], rows: [2] },
      { keep: 3, tokens: [7], rows: [0] },
      { keep: 4, tokens: [8, 9, 10], rows: [0, 1, 2] },
      { keep: 5, tokens: [11], rows: [0] },
    ]);
  });

  it("keeps logits rows only at the indices asked for; after a rollback they are moved past the reused prefix", async () => {
    const { native, calls } = recordingNative();
    const engine = engineWith(native);
    const session = await engine.createSession();
    await session.feed([1, 2, 3]);
    await session.feedRows!([4, 5, 6, 7], [0, 3]);
    await session.rollback!(3);
    // The cache holds 1..7; the session 1..4: the prefix up to the first row's token is kept.
    await session.feedRows!([8, 9, 10], [1, 2]);
    await expect(session.feedRows!([11, 12], [1, 0])).rejects.toMatchObject({ code: "ENGINE_FAILED" });
    await expect(session.feedRows!([11, 12], [])).rejects.toMatchObject({ code: "ENGINE_FAILED" });
    await expect(session.feedRows!([11, 12], [2])).rejects.toMatchObject({ code: "ENGINE_FAILED" });
    expect(calls.slice(1)).toEqual([
      { keep: 3, tokens: [4, 5, 6, 7], rows: [0, 3] },
      { keep: 4, tokens: [8, 9, 10], rows: [1, 2] },
    ]);
  });

  it("a new session reuses the cached prefix; the old one's tokens are compared again", async () => {
    const { native, calls } = recordingNative();
    const engine = engineWith(native);
    const first = await engine.createSession();
    await first.feed([1, 2, 3, 4]);
    await first.close();
    const second = await engine.createSession();
    await second.feed([1, 2, 5]);
    await second.feed([6]);
    expect(calls.slice(1)).toEqual([
      { keep: 2, tokens: [5], rows: [0] },
      { keep: 3, tokens: [6], rows: [0] },
    ]);
  });

  it("mirrors what the backend kept after a failed batch, then compares prefixes again", async () => {
    const { native, calls, failNext } = recordingNative();
    const session = await engineWith(native).createSession();
    await session.feed([1, 2]);
    failNext(3);
    await expect(session.feed([3, 4])).rejects.toThrow(PocketExtractError);
    await session.feed([3, 4]);
    // The backend kept 1, 2, 3: only 4 is evaluated again.
    expect(calls.at(-1)).toEqual({ keep: 3, tokens: [4], rows: [0] });
  });

  it("checks only the new ids, and the context length against the whole cache", async () => {
    const { native } = recordingNative();
    const session = await engineWith(native).createSession();
    await session.feed(Array.from({ length: 60 }, (_, i) => i + 1));
    await expect(session.feed([vocabulary.width])).rejects.toMatchObject({ code: "TOKEN_UNKNOWN" });
    await expect(session.feed([1, 2, 3, 4, 5])).rejects.toMatchObject({ code: "CONTEXT_OVERFLOW" });
    await session.feed([1, 2, 3, 4]);
  });
});
