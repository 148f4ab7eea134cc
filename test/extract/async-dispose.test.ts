/**
 * `await using` on an extractor: the engine is disposed when the scope ends, also when the scope
 * throws, and a second dispose is harmless. The fallback key for runtimes without
 * Symbol.asyncDispose is checked on a symbol table that lacks it.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createExtractor, PocketExtractError } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { asyncDisposeSymbol } from "../../src/util/async-dispose.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const Person = z.object({ name: z.string() });
const TEXT = "Alice called.";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const engine = (): ScriptedEngine => new ScriptedEngine({ vocabulary: vocab, script: '{"name":"Alice"}' });

async function expectDisposed(e: ScriptedEngine): Promise<void> {
  await expect(e.createSession({})).rejects.toMatchObject({ code: "ENGINE_DISPOSED" });
}

describe("Symbol.asyncDispose on the extractor", () => {
  it("runs on this Node (the well-known symbol exists from Node 20.4)", () => {
    expect(typeof Symbol.asyncDispose).toBe("symbol");
  });

  it("disposes the engine at the end of an `await using` scope", async () => {
    const e = engine();
    {
      await using ex = await createExtractor({ engine: e });
      expectTypeOf(ex).toMatchTypeOf<AsyncDisposable>();
      const r = await ex.extract(Person, TEXT);
      expect(r.ok && r.data.name).toBe("Alice");
      await expect(e.createSession({}).then((s) => s.close())).resolves.toBeUndefined(); // still alive inside
    }
    await expectDisposed(e);
  });

  it("disposes when the scope throws, and later calls fail with ENGINE_DISPOSED", async () => {
    const e = engine();
    let kept: { extract: (s: typeof Person, t: string) => Promise<unknown> } | undefined;
    await expect(
      (async () => {
        await using ex = await createExtractor({ engine: e });
        kept = ex;
        throw new Error("caller's failure");
      })(),
    ).rejects.toThrow("caller's failure");
    await expectDisposed(e);
    const err = await kept!.extract(Person, TEXT).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(PocketExtractError);
    expect((err as PocketExtractError).code).toBe("ENGINE_DISPOSED");
  });

  it("is the same as dispose(): calling both is harmless", async () => {
    const ex = await createExtractor({ engine: engine() });
    await ex[Symbol.asyncDispose]();
    await expect(ex.dispose()).resolves.toBeUndefined();
  });

  it("falls back to Symbol.for(\"Symbol.asyncDispose\") where the runtime lacks the symbol", () => {
    expect(asyncDisposeSymbol({})).toBe(Symbol.for("Symbol.asyncDispose"));
    expect(asyncDisposeSymbol()).toBe(Symbol.asyncDispose);
  });
});
