/**
 * The result types narrow: `ok` is the discriminant of ExtractResult (`data: T` after
 * `if (r.ok)`, `null` otherwise), `grounded` is a separate flag, and a batch error carries a
 * `code`. The type assertions are checked by `npm run typecheck` (tsc over test/), the runtime
 * assertions by vitest on results of the scripted engine through the public API.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createExtractor, PocketExtractError, type BatchResult, type ExtractResult } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const Person = z.object({ name: z.string(), age: z.number().int().nullable() });
type Person = z.infer<typeof Person>;
const TEXT = "Alice is 31 years old.";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

async function extractScripted(answer: string): Promise<ExtractResult<Person>> {
  const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: answer }) });
  return ex.extract(Person, TEXT);
}

describe("ExtractResult narrows on ok", () => {
  it("gives data: T after if (r.ok) and data: null otherwise", async () => {
    const r = await extractScripted('{"name":"Alice","age":31}');
    expectTypeOf(r.data).toEqualTypeOf<Person | null>();
    // @ts-expect-error: before narrowing, data may be null
    expect(r.data.name).toBe("Alice");
    if (r.ok) {
      expectTypeOf(r.data).toEqualTypeOf<Person>();
      expect(r.data.name).toBe("Alice"); // no `!`, no cast
    } else {
      expectTypeOf(r.data).toEqualTypeOf<null>();
      expect.unreachable("a valid answer must give ok: true");
    }
    expectTypeOf(r.grounded).toEqualTypeOf<boolean>();
    expect(r.grounded).toBe(true);
  });

  it("keeps ok (valid) and grounded (no fabricated field) apart", async () => {
    const fabricated = await extractScripted('{"name":"Zed","age":31}');
    expect(fabricated.ok).toBe(true);
    expect(fabricated.grounded).toBe(false);
    expect(fabricated.fields.find((f) => f.pointer === "/name")!.status).toBe("fabricated");
    const invalid = await extractScripted('{"name":null,"age":31}');
    expect(invalid.ok).toBe(false);
    expect(invalid.grounded).toBe(true);
    if (!invalid.ok) expectTypeOf(invalid.data).toEqualTypeOf<null>();
    expect(invalid.data).toBeNull();
  });

  it("gives one meaning to a required field answered null: invalid in the field, an issue at its path, not ok", async () => {
    const r = await extractScripted('{"name":null,"age":null}');
    expect(r.ok).toBe(false);
    const byPointer = new Map(r.fields.map((f) => [f.pointer, f]));
    expect(byPointer.get("/name")).toMatchObject({ status: "invalid", required: true, value: null });
    expect(byPointer.get("/age")).toMatchObject({ status: "missing", required: false, value: null });
    expect(r.issues.map((i) => i.pointer)).toEqual(["/name"]);
  });

  it("cannot build a result that says ok without data", () => {
    const base = { grounded: true, partial: null, fields: [], issues: [], raw: "null", stats: {} as ExtractResult<Person>["stats"] };
    // @ts-expect-error: ok: true requires data of type T
    const wrong: ExtractResult<Person> = { ...base, ok: true, data: null };
    const right: ExtractResult<Person> = { ...base, ok: false, data: null };
    expect([wrong.ok, right.ok]).toEqual([true, false]);
  });
});

describe("BatchResult.error is a PocketExtractError", () => {
  it("has a typed code without a cast, also for a failure that was not ours", async () => {
    const ex = await createExtractor({
      engine: new ScriptedEngine({
        vocabulary: vocab,
        script: (prompt) => {
          if (prompt.includes("explode")) throw new TypeError("the engine's own bug");
          return '{"name":"Alice","age":31}';
        },
      }),
    });
    const out: BatchResult<Person>[] = [];
    for await (const r of ex.extractMany(Person, [TEXT, "", "explode now"])) out.push(r);
    out.sort((a, b) => a.index - b.index);
    expect(out[0]!.result?.ok).toBe(true);
    const empty = out[1]!;
    const foreign = out[2]!;
    if (!empty.error || !foreign.error) throw new Error("expected two errors");
    expectTypeOf(empty.error).toEqualTypeOf<PocketExtractError>();
    expectTypeOf(empty.error.code).toEqualTypeOf<PocketExtractError["code"]>();
    expect(empty.error.code).toBe("TEXT_EMPTY");
    expect(foreign.error).toBeInstanceOf(PocketExtractError);
    expect(foreign.error.code).toBe("INTERNAL");
    expect(foreign.error.message).toBe("the engine's own bug");
    expect(foreign.error.cause).toBeInstanceOf(TypeError);
  });
});
