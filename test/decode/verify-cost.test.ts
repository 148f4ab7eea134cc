/**
 * What a verified draft row costs a GGUF model, by its shape (src/engines/llama/verify-cost.ts),
 * and the confirmed share a draft gate then requires (breakEvenShare): figures worked out by hand
 * from the fixture presets' shapes, so a changed formula or tensor choice fails.
 */
import { describe, expect, it } from "vitest";
import { PRESETS } from "../../fixtures/gguf/index.js";
import { qwen3Tensors } from "../../fixtures/gguf/model.js";
import { breakEvenShare } from "../../src/decode/speculative.js";
import { verifyRowCost } from "../../src/engines/llama/verify-cost.js";

const VOCABULARY = 65_536;

describe("a verified row's cost from the model's shape", () => {
  it("tiny preset: the output matrix (64 x 65,536) dwarfs its 2 blocks, a row costs nearly a pass", () => {
    // Per block: q and o 64x64, k and v 64x32, gate, up and down 64x128.
    const block = 2 * 64 * 64 + 2 * 64 * 32 + 3 * 64 * 128;
    expect(verifyRowCost(qwen3Tensors(PRESETS.tiny, VOCABULARY, 1))).toBeCloseTo((64 * VOCABULARY) / (64 * VOCABULARY + 2 * block), 12);
    expect(verifyRowCost(qwen3Tensors(PRESETS.tiny, VOCABULARY, 1))).toBeGreaterThan(0.98);
  });

  it("pocket preset (MNN-Pocket-0.3B's shape): a row costs about a fifth of a pass", () => {
    // Per block: q and o 896x896, k and v 896x128, gate, up and down 896x2560; 28 blocks.
    const block = 2 * 896 * 896 + 2 * 896 * 128 + 3 * 896 * 2560;
    const cost = verifyRowCost(qwen3Tensors(PRESETS.pocket, VOCABULARY, 1))!;
    expect(cost).toBeCloseTo((896 * VOCABULARY) / (896 * VOCABULARY + 28 * block), 12);
    expect(cost).toBeGreaterThan(0.19);
    expect(cost).toBeLessThan(0.2);
  });

  it("an untied output matrix counts instead of the embedding; norms and other 1-D tensors do not count", () => {
    const tensors = [
      { name: "token_embd.weight", dims: [8, 1000] },
      { name: "output.weight", dims: [8, 100] },
      { name: "output_norm.weight", dims: [8] },
      { name: "blk.0.attn_norm.weight", dims: [8] },
      { name: "blk.0.ffn_up.weight", dims: [8, 300] },
    ];
    expect(verifyRowCost(tensors)).toBeCloseTo(800 / (800 + 2400), 12);
  });

  it("no output matrix, or no blocks: no figure", () => {
    expect(verifyRowCost([{ name: "blk.0.ffn_up.weight", dims: [8, 300] }])).toBeUndefined();
    expect(verifyRowCost([{ name: "token_embd.weight", dims: [8, 1000] }])).toBeUndefined();
  });
});

describe("the confirmed share a gate requires (break-even)", () => {
  it("is the engine's verified-row cost, clamped to [0.3, 0.95]; a half when the engine gives none", () => {
    expect(breakEvenShare(undefined)).toBe(0.5);
    expect(breakEvenShare(0.7)).toBe(0.7);
    expect(breakEvenShare(0.19)).toBe(0.3);
    expect(breakEvenShare(0.98)).toBe(0.95);
    expect(breakEvenShare(Number.NaN)).toBe(0.5);
  });
});
