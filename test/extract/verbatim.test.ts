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

  it("random engine: every verbatim value is reported found, with a span that reads the value", async () => {
    let checked = 0;
    const texts = [TEXT, "Emily Carter met Em Li and Emilia in Room 4B, 杭州西湖区文三路90号。", "王小明，李雷 and Han Meimei: 3 x A4 paper"];
    for (const [k, text] of texts.entries()) {
      const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 11 + k, eosProbability: 0.9 }), maxTokens: 80 });
      for (let i = 0; i < 12; i++) {
        const r = await ex.extract(Contact, text);
        for (const f of r.fields.filter((f) => f.pointer !== "/vip" && typeof f.value === "string")) {
          expect(f.status, `${JSON.stringify(f.value)} in ${JSON.stringify(text)}`).toBe("found");
          expect(text.slice(f.best!.start, f.best!.end)).toBe(f.value);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("does not stop inside a word: a scripted part word (Em of Emily) is carried on to a whole word", async () => {
    const text = "Call Emily Chen.";
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"name":"Em","vip":false}' }) });
    const r = await ex.extract(Contact, text);
    const name = r.fields.find((f) => f.pointer === "/name")!;
    expect(name.value).not.toBe("Em");
    expect(String(name.value).startsWith("Em")).toBe(true);
    expect(name.status).toBe("found");
    expect(text.slice(name.best!.start, name.best!.end)).toBe(name.value);
  });

  it("compiles per document and reports the verbatim keyword as enforced", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: "{}" }) });
    const compiled = ex.compile(Contact, {}, TEXT);
    expect(compiled.report?.enforced.some((u) => u.keyword === "x-pocket" && u.pointer.endsWith("/name"))).toBe(true);
    expect(ex.compile(Contact, {}, "另一段文字").tokens).not.toBe(compiled.tokens);
  });
});
