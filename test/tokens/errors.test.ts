import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileError, PocketExtractError, type ErrorCode } from "../../src/errors.js";
import { loadTokenizerJson, vocabularyFromBytes, type TokenizerJsonOptions } from "../../src/tokens/index.js";
import { tinyTokenizerJson } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "pocket-tokens-"));
let counter = 0;
function writeTemp(content: string): string {
  const path = join(dir, `tokenizer-${counter++}.json`);
  writeFileSync(path, content);
  return path;
}

async function expectFileError(path: string, code: ErrorCode, message: RegExp, options?: TokenizerJsonOptions): Promise<void> {
  const err: unknown = await loadTokenizerJson(path, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileError);
  const fe = err as FileError;
  expect(fe.code).toBe(code);
  expect(fe.file).toBe(path);
  expect(fe.message).toContain(path);
  expect(fe.message).toMatch(message);
}

function tinyWith(edit: (json: ReturnType<typeof tinyTokenizerJson>) => void): string {
  const json = tinyTokenizerJson();
  edit(json);
  return writeTemp(JSON.stringify(json));
}

describe("loadTokenizerJson on a tiny valid tokenizer", () => {
  it("loads, with ids between the vocab and the added tokens having no bytes", async () => {
    const vocab = await loadTokenizerJson(tinyWith(() => {}));
    expect([vocab.width, vocab.size, vocab.padId]).toEqual([301, 301, 300]);
    expect(vocab.eosIds).toEqual([300]);
    expect(vocab.encode("hi")).toEqual([256]);
    expect(vocab.decode(vocab.encode("hi there<|endoftext|>"))).toBe("hi there<|endoftext|>");
    expect(vocab.bytes(280)).toHaveLength(0);
    expect(() => vocab.decode([280])).toThrow(expect.objectContaining({ code: "TOKEN_UNKNOWN" }));
    expect(() => vocab.bytes(301)).toThrow(expect.objectContaining({ code: "TOKEN_UNKNOWN" }));
    const wide = await loadTokenizerJson(tinyWith(() => {}), { width: 512, eosTokens: [], padToken: null });
    expect([wide.width, wide.size, wide.padId, wide.eosIds.length]).toEqual([512, 301, undefined, 0]);
    expect(wide.bytes(400)).toHaveLength(0);
  });
});

describe("loadTokenizerJson typed errors", () => {
  it("missing file", () => expectFileError(join(dir, "nope.json"), "TOKENIZER_NOT_FOUND", /not found/));
  it("a directory", () => expectFileError(dir, "TOKENIZER_NOT_FOUND", /directory/));
  it("corrupt JSON", () => expectFileError(writeTemp('{"model": {"type": "BPE", '), "TOKENIZER_INVALID", /not valid JSON/));
  it("JSON without a model", () => expectFileError(writeTemp("[1,2]"), "TOKENIZER_INVALID", /no model section/));
  it("unsupported model type", () =>
    expectFileError(tinyWith((j) => (j.model.type = "Unigram")), "TOKENIZER_UNSUPPORTED", /model type "Unigram"/));
  it("BPE that is not byte-level", () =>
    expectFileError(
      tinyWith((j) => {
        j.pre_tokenizer = { type: "Metaspace", replacement: "▁" };
        j.decoder = { type: "Metaspace", replacement: "▁" };
      }),
      "TOKENIZER_UNSUPPORTED",
      /not byte-level/,
    ));
  it("a vocab token outside the byte-level alphabet", () =>
    expectFileError(tinyWith((j) => ((j.model.vocab as Record<string, number>)["a b"] = 257)), "TOKENIZER_INVALID", /"a b".*byte-level alphabet/));
  it("a missing byte token", () =>
    expectFileError(tinyWith((j) => delete (j.model.vocab as Record<string, number>).A), "TOKENIZER_INVALID", /no token for byte 0x41/));
  it("duplicate ids", () => expectFileError(tinyWith((j) => ((j.model.vocab as Record<string, number>).hi = 5)), "TOKENIZER_INVALID", /id 5 is used by two tokens/));
  it("a merge of unknown tokens", () => expectFileError(tinyWith((j) => (j.model.merges = [["h", "i"], ["hi", "zz"]])), "TOKENIZER_INVALID", /merges\[1\]/));
  it("an added token reusing a vocab id", () =>
    expectFileError(tinyWith((j) => ((j.added_tokens as { id: number }[])[0]!.id = 256)), "TOKENIZER_INVALID", /reuses id 256/));
  it("a width below the tokenizer's ids", () => expectFileError(tinyWith(() => {}), "VOCABULARY_MISMATCH", /width 100/, { width: 100 }));
  it("an eos token that is not an added token", () =>
    expectFileError(tinyWith(() => {}), "OPTION_INVALID", /eosTokens: "<\|im_end\|>"/, { eosTokens: ["<|im_end|>"] }));
});

describe("vocabularyFromBytes", () => {
  const bytes = (id: number): Uint8Array | undefined => (id < 3 ? new TextEncoder().encode(["a", "b", "<eos>"][id]) : undefined);

  it("decodes from the bytes and refuses to encode without an encoder", () => {
    const vocab = vocabularyFromBytes({ width: 8, bytes, specialIds: [2], eosIds: [2] });
    expect([vocab.width, vocab.size, vocab.padId]).toEqual([8, 3, undefined]);
    expect(vocab.decode([0, 1, 2])).toBe("ab<eos>");
    expect(vocab.specialId("<eos>")).toBe(2);
    expect(vocab.isSpecial(2) && !vocab.isSpecial(0) && !vocab.isSpecial(7)).toBe(true);
    expect(() => vocab.encode("ab")).toThrow(PocketExtractError);
    expect(() => vocab.encode("ab")).toThrow(expect.objectContaining({ code: "ENCODE_UNAVAILABLE" }));
  });

  it("uses a given encoder", () => {
    const vocab = vocabularyFromBytes({ width: 8, bytes, specialIds: [2], eosIds: [2], encode: (t) => [...t].map((c) => (c === "a" ? 0 : 1)) });
    expect(vocab.encode("ab")).toEqual([0, 1]);
  });

  it("rejects ids without bytes as special/eos/pad", () => {
    expect(() => vocabularyFromBytes({ width: 8, bytes, specialIds: [5], eosIds: [] })).toThrow(expect.objectContaining({ code: "OPTION_INVALID" }));
    expect(() => vocabularyFromBytes({ width: 8, bytes, specialIds: [], eosIds: [9] })).toThrow(expect.objectContaining({ code: "OPTION_INVALID" }));
    expect(() => vocabularyFromBytes({ width: 0, bytes, specialIds: [], eosIds: [] })).toThrow(expect.objectContaining({ code: "OPTION_INVALID" }));
  });
});
