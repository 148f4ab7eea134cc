import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, verbatim } from "../../src/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const Contact = z.object({
  name: verbatim(z.string()).describe("the person's name, copied from the text"),
  city: verbatim(z.string()).optional(),
  vip: z.boolean(),
});

const TEXT = "联系人：王小明（\"老王\"），住在杭州。Call Emily Chen at +1 415-555-0132.";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

describe("verbatim fields", () => {
  it("random engine: every verbatim value is a non-empty substring of the text, always", async () => {
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 7, eosProbability: 0.9 }), maxTokens: 80 });
    for (let i = 0; i < 30; i++) {
      const r = await ex.extract(Contact, TEXT);
      const value = JSON.parse(r.raw) as { name: string | null; city?: string | null };
      for (const v of [value.name, value.city]) {
        if (typeof v === "string") {
          expect(v.length).toBeGreaterThan(0);
          expect(TEXT.includes(v), `${JSON.stringify(v)} is not in the text`).toBe(true);
        }
      }
    }
  });

  it("bends a value that is not in the text into one that is, and grounds it exactly", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"王小明","city":"上海","vip":false}' }) });
    const r = await ex.extract(Contact, TEXT);
    const value = JSON.parse(r.raw) as { name: string; city?: string | null };
    expect(value.name).toBe("王小明");
    expect(value.city === undefined || value.city === null || TEXT.includes(value.city)).toBe(true);
    const name = r.fields.find((f) => f.pointer === "/name")!;
    expect(name.status).toBe("found");
    expect(name.best?.match).toBe("exact");
  });

  it("compiles per document and reports the verbatim keyword as enforced", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: "{}" }) });
    const compiled = ex.compile(Contact, {}, TEXT);
    expect(compiled.report?.enforced.some((u) => u.keyword === "x-pocket" && u.pointer.endsWith("/name"))).toBe(true);
    expect(ex.compile(Contact, {}, "另一段文字").tokens).not.toBe(compiled.tokens);
  });
});
