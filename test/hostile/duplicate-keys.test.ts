/**
 * Issue 15, item 7: repeated keys are never silent. The grammar cannot exclude them under
 * records, additionalProperties or propertyNames (the keys written so far are an unbounded set),
 * so they are detected on the raw text after decoding: one issue per occurrence at the key's
 * path, `ok: false`, `data: null`. Before (main): `{"alice":100,"alice":5}` gave ok: true,
 * data {"alice":5} and one field report.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor } from "../../src/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { duplicateKeyIssues } from "../../src/validate/duplicate-keys.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { withinBounds } from "./bounds.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const Scores = z.record(z.string().max(8), z.number().int());
/** Open keys from a set of three under propertyNames: a random writer repeats them often. */
const KeysABC = { type: "object", propertyNames: { enum: ["a", "b", "c"] }, additionalProperties: { type: "integer", maximum: 9, minimum: 0 } };

describe("repeated keys after decoding", () => {
  it("a record with a repeated key: ok false, data null, every occurrence an issue", async () => {
    const ex = await createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: '{"alice":100,"bob":1,"alice":5,"alice":7}' }) });
    const { value: r } = await withinBounds({ ms: 5_000, rssMB: 200 }, () => ex.extract(Scores, "alice 100 bob 1 alice 5 alice 7"));
    expect(r!.raw).toBe('{"alice":100,"bob":1,"alice":5,"alice":7}');
    expect(r!.ok).toBe(false);
    expect(r!.data).toBeNull();
    const dup = r!.issues.filter((i) => i.source === "json");
    expect(dup.map((i) => i.pointer)).toEqual(["/alice", "/alice", "/alice"]);
    expect(dup.map((i) => i.message)).toEqual([1, 2, 3].map((n) => expect.stringContaining(`occurrence ${n} of 3`)));
    expect(r!.fields.find((f) => f.pointer === "/alice")?.status).toBe("invalid");
    expect(r!.fields.find((f) => f.pointer === "/bob")?.status).toBe("found");
  });

  it("nested: repeated keys inside an array of records point at their own object", () => {
    const raw = '{"teams":[{"a":1},{"b":2,"b":3}],"x":{"y":{"k":1,"k":2}}}';
    expect(duplicateKeyIssues(raw).map((i) => i.pointer)).toEqual(["/teams/1/b", "/teams/1/b", "/x/y/k", "/x/y/k"]);
    expect(duplicateKeyIssues('{"a":"{\\"a\\":1,\\"a\\":2}","b":["a","a"]}')).toEqual([]); // keys inside strings are text
  });

  it("random engine: every output with a repeated key is not ok, with one issue per occurrence", async () => {
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 7, eosProbability: 0.3 }), maxTokens: 48 });
    let repeated = 0;
    for (let i = 0; i < 100; i++) {
      const r = await ex.extract(KeysABC, "a 1 b 2 c 3", { sampling: { seed: i } });
      const keys = [...r.raw.matchAll(/"([abc])":/g)].map((m) => m[1]!);
      const counts = new Map<string, number>();
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
      const expected = [...counts.values()].filter((c) => c > 1).reduce((n, c) => n + c, 0);
      expect(r.issues.filter((x) => x.source === "json"), r.raw).toHaveLength(expected);
      if (expected > 0) {
        repeated++;
        expect(r.ok, r.raw).toBe(false);
        expect(r.data).toBeNull();
      }
    }
    expect(repeated).toBeGreaterThan(0); // the random engine does repeat keys: the check is exercised
  });
});
