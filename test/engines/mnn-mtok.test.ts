/**
 * MNN's binary tokenizer (.mtok, written by MNN's llmexport.py): the added-token table is read
 * past every pipeline section MNN's reader knows, and a model directory with an .mtok tokenizer
 * counts every added token as special (MNN's header lists only tokenizer.json's `special: true`
 * ones). The files are built here in the layout of MNN's exporter (utils/tokenizer.py,
 * export_mtok); the real export is checked by mnn-export.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readMnnModelDir } from "../../src/engines/mnn/index.js";
import { type MtokAddedToken, readMtokAddedTokens } from "../../src/engines/mnn/mtok.js";
import { PocketExtractError } from "../../src/errors.js";

/** Little-endian byte builder for the binary body. */
class Bytes {
  private readonly parts: Buffer[] = [];
  u8(...values: number[]): this {
    this.parts.push(Buffer.from(values));
    return this;
  }
  u16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(value);
    this.parts.push(b);
    return this;
  }
  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.parts.push(b);
    return this;
  }
  f64(value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.parts.push(b);
    return this;
  }
  str(text: string): this {
    const b = Buffer.from(text, "utf8");
    return this.u16(b.length).raw(b);
  }
  raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const ADDED = [
  { id: 5, content: "<|im_start|>", special: true },
  { id: 6, content: "<|im_end|>", special: true },
  { id: 7, content: "<think>", special: false },
];
const VOCAB = ["a", "b", "ab", "Ġ", "Ġa"];

/** Each section variant MNN's reader accepts, as the exporter writes it. */
const NORMALIZERS: Record<string, (b: Bytes) => Bytes> = {
  none: (b) => b.u8(0),
  "NFC table": (b) => b.u8(6).u32(2).u32(0xc5).str("A\u030a").u32(0x212b).str("\u00c5"),
  prepend: (b) => b.u8(2).str("▁"),
  replace: (b) => b.u8(3).str(" ").str("▁"),
  "bert, accents kept": (b) => b.u8(5, 1, 1, 0, 1),
  "bert, NFD table": (b) => b.u8(7, 1, 1, 1, 1).u32(1).u32(0xe9).str("e\u0301"),
  strip: (b) => b.u8(8, 1, 1),
  sequence: (b) => b.u8(4).u32(3).u8(6).u32(0).u8(3).str("x").str("y").u8(8, 0, 1),
};
const PRE_TOKENIZERS: Record<string, (b: Bytes) => Bytes> = {
  none: (b) => b.u8(0),
  "byte level": (b) => b.u8(1, 0),
  digits: (b) => b.u8(2, 1),
  metaspace: (b) => b.u8(3).str("▁").u8(1),
  split: (b) => b.u8(4).str("\\s+").u8(0, 1),
  bert: (b) => b.u8(5),
  sequence: (b) => b.u8(6).u32(2).u8(4).str("(?i:'s)").u8(0, 0).u8(1, 0),
};
const MODELS: Record<string, (b: Bytes) => Bytes> = {
  bpe: (b) => {
    b.u8(0).u32(VOCAB.length).u8(0, 0).u32(2);
    VOCAB.forEach((piece, id) => b.str(piece).u32(id));
    return b.u32(0).u32(1).u32(0).u32(3).u32(0).u32(1);
  },
  wordpiece: (b) => {
    b.u8(1).u32(VOCAB.length).str("[UNK]").str("##").u32(100);
    VOCAB.forEach((piece, id) => b.str(piece).u32(id));
    return b;
  },
  unigram: (b) => {
    b.u8(2).u32(VOCAB.length).u32(0).u8(1);
    VOCAB.forEach((piece, id) => b.str(piece).u32(id).f64(-id));
    return b;
  },
};
const DECODERS: Record<string, (b: Bytes) => Bytes> = {
  "byte level": (b) => b.u8(0),
  metaspace: (b) => b.u8(2).str("▁").u8(1),
  wordpiece: (b) => b.u8(3).str("##").u8(1),
  sequence: (b) => b.u8(7).u32(4).u8(5).str("▁").str(" ").u8(1).u8(4).u8(6).str(" ").u32(1).u32(0),
};

function mtok(parts: { normalizer: (b: Bytes) => Bytes; preTokenizer: (b: Bytes) => Bytes; model: (b: Bytes) => Bytes; decoder: (b: Bytes) => Bytes }): Buffer {
  const header = `430 4\n${ADDED.filter((t) => t.special).length} 1 0\n${ADDED.filter((t) => t.special).map((t) => t.id).join(" ")} 6\n`;
  const b = new Bytes().raw(Buffer.from(header, "latin1"));
  parts.decoder(parts.model(parts.preTokenizer(parts.normalizer(b))));
  b.u32(ADDED.length);
  for (const t of ADDED) b.u32(t.id).u8(t.special ? 1 : 0, 0, 0).str(t.content);
  // Chat template, eos, flags, bos, post-processor program: after the table, not read by us.
  return b.u32(3).raw(Buffer.from("{{x")).u16(0).u8(0).u16(0).u16(0).done();
}

const asText = (tokens: readonly MtokAddedToken[]) => tokens.map((t) => ({ id: t.id, content: Buffer.from(t.content).toString("utf8"), special: t.special }));

describe("MNN binary tokenizer (.mtok)", () => {
  it("reads the added-token table past every normalizer, pre-tokenizer, model and decoder variant", () => {
    const first = <T>(r: Record<string, T>): T => Object.values(r)[0]!;
    const cases: [string, Parameters<typeof mtok>[0]][] = [
      ...Object.entries(NORMALIZERS).map(([n, normalizer]): [string, Parameters<typeof mtok>[0]] => [`normalizer ${n}`, { normalizer, preTokenizer: first(PRE_TOKENIZERS), model: first(MODELS), decoder: first(DECODERS) }]),
      ...Object.entries(PRE_TOKENIZERS).map(([n, preTokenizer]): [string, Parameters<typeof mtok>[0]] => [`pre-tokenizer ${n}`, { normalizer: first(NORMALIZERS), preTokenizer, model: first(MODELS), decoder: first(DECODERS) }]),
      ...Object.entries(MODELS).map(([n, model]): [string, Parameters<typeof mtok>[0]] => [`model ${n}`, { normalizer: first(NORMALIZERS), preTokenizer: first(PRE_TOKENIZERS), model, decoder: first(DECODERS) }]),
      ...Object.entries(DECODERS).map(([n, decoder]): [string, Parameters<typeof mtok>[0]] => [`decoder ${n}`, { normalizer: first(NORMALIZERS), preTokenizer: first(PRE_TOKENIZERS), model: first(MODELS), decoder }]),
    ];
    for (const [name, parts] of cases) expect(asText(readMtokAddedTokens(mtok(parts))), name).toEqual(ADDED);
  });

  it("says where a truncated file ends", () => {
    const whole = mtok({ normalizer: NORMALIZERS["NFC table"]!, preTokenizer: PRE_TOKENIZERS["byte level"]!, model: MODELS.bpe!, decoder: DECODERS["byte level"]! });
    expect(() => readMtokAddedTokens(whole.subarray(0, whole.length - 40))).toThrow(/truncated at byte \d+/);
    expect(() => readMtokAddedTokens(Buffer.from("430 4\n1 0 0\n"))).toThrow(/header lines/);
  });

  it("a model directory with an .mtok tokenizer counts every added token as special; a malformed one is MODEL_INVALID", () => {
    const dir = mkdtempSync(join(tmpdir(), "pocket-mtok-"));
    try {
      writeFileSync(join(dir, "config.json"), JSON.stringify({ llm_model: "llm.mnn", llm_weight: "llm.mnn.weight", tokenizer_file: "tokenizer.mtok" }));
      writeFileSync(join(dir, "llm_config.json"), JSON.stringify({ hidden_size: 4, tie_embeddings: [0, 0, 0, 4, 32] }));
      writeFileSync(join(dir, "llm.mnn"), "graph");
      writeFileSync(join(dir, "llm.mnn.weight"), "");
      const whole = mtok({ normalizer: NORMALIZERS.sequence!, preTokenizer: PRE_TOKENIZERS.sequence!, model: MODELS.bpe!, decoder: DECODERS.sequence! });
      writeFileSync(join(dir, "tokenizer.mtok"), whole);
      const model = readMnnModelDir(dir);
      expect([...model.specialIds].sort()).toEqual([5, 6, 7]);
      expect(model.stopIds).toEqual([6]);
      expect(asText(model.addedTokens)).toEqual(ADDED);

      writeFileSync(join(dir, "tokenizer.mtok"), whole.subarray(0, whole.length - 30));
      let caught: unknown;
      try {
        readMnnModelDir(dir);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(PocketExtractError);
      expect((caught as PocketExtractError).code).toBe("MODEL_INVALID");
      expect((caught as Error).message).toMatch(/binary tokenizer is malformed: truncated/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
