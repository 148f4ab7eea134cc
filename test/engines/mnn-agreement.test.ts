/**
 * MNN and llama.cpp agree on the same weights: POCKET_MNN_MODEL names an MNN export of the
 * Hugging Face twin (fixtures/hf) of a GGUF fixture, which is picked by the export's hidden size
 * (64 tiny, 896 pocket) and, among the pocket GGUFs, by POCKET_MNN_QUANT_BIT (pocket-f16 for 16,
 * pocket-q4_0 for 4: the twin's numbers at the export's precision). Logits of every position of a ChatML prompt are compared (max |Δ| and
 * cosine per position, printed), then greedy constrained extractions token for token.
 * Asserted only when both sides hold the same numbers at 16 bits: an FP16 export
 * (POCKET_MNN_QUANT_BIT=16) against a GGUF whose matrices are F16 (tiny, pocket-f16). Otherwise
 * (INT4 export against Q4_0: two different 4-bit schemes) the figures are reported, not asserted.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGgufFixture, type GgufPreset, PRESETS } from "../../fixtures/gguf/index.js";
import { createExtractor } from "../../src/index.js";
import type { Engine } from "../../src/engines/engine.js";
import { GgmlType } from "../../src/engines/llama/gguf-format.js";
import { createLlamaEngine } from "../../src/engines/llama/index.js";
import { loadMnnAddon, type NativeMnnModel } from "../../src/engines/mnn/addon.js";
import { createMnnEngine } from "../../src/engines/mnn/index.js";
import { chatPrompt, SCHEMAS } from "../support/extraction-cases.js";
import { compareRows, formatAgreement, llamaLogitsPerPosition, summarizeAgreement } from "../support/logit-agreement.js";

const MODEL = process.env.POCKET_MNN_MODEL ? resolve(process.env.POCKET_MNN_MODEL) : undefined;
const QUANT_BIT = Number(process.env.POCKET_MNN_QUANT_BIT ?? 4);
if (!MODEL) {
  console.warn("test/engines/mnn-agreement.test.ts: SKIPPED, POCKET_MNN_MODEL is not set. To run it: POCKET_MNN_MODEL=<export dir> POCKET_MNN_QUANT_BIT=16 npx vitest run test/engines/mnn-agreement.test.ts (README, MNN section)");
}

/** The GGUF at the export's precision where the fixtures have one: F16 for FP16, Q4_0 for INT4. */
const MATRIX_TYPE_FOR_BITS: Readonly<Record<number, GgmlType>> = { 16: GgmlType.F16, 4: GgmlType.Q4_0 };

function presetOf(modelDir: string): GgufPreset {
  const { hidden_size: hidden } = JSON.parse(readFileSync(join(modelDir, "llm_config.json"), "utf8")) as { hidden_size: number };
  const sameShape = (Object.keys(PRESETS) as GgufPreset[]).filter((p) => PRESETS[p].embedding === hidden);
  const preset = sameShape.find((p) => PRESETS[p].matrixType === MATRIX_TYPE_FOR_BITS[QUANT_BIT]) ?? sameShape[0];
  if (!preset) throw new Error(`${modelDir}: hidden size ${hidden} is no fixture preset's`);
  return preset;
}

describe.skipIf(!MODEL)("MNN vs llama.cpp on the same weights", () => {
  const modelDir = MODEL!;
  let preset: GgufPreset;
  let asserted: boolean;
  let gguf: string;
  let native: NativeMnnModel;

  beforeAll(async () => {
    preset = presetOf(modelDir);
    asserted = QUANT_BIT === 16 && PRESETS[preset].matrixType === GgmlType.F16;
    gguf = await ensureGgufFixture(preset);
    native = await loadMnnAddon().loadModel(join(modelDir, "config.json"), { threads: 1 });
    console.log(`agreement: MNN ${QUANT_BIT}-bit export (${modelDir}) vs ${gguf}; ${asserted ? "asserted" : "reported only"}`);
  }, 300_000);
  afterAll(() => native?.free());

  it("logits of every prompt position: max |Δ| and cosine per position", async () => {
    const prompt = chatPrompt("Extract the order as JSON.", SCHEMAS[0].text);
    const llama = await llamaLogitsPerPosition(gguf, prompt);
    const mnnRows: Float32Array[] = [];
    for (let i = 0; i < llama.ids.length; i++) {
      await native.evaluate(i, Int32Array.of(llama.ids[i]!));
      mnnRows.push(native.logits());
    }
    const rows = mnnRows.map((row, i) => compareRows(i, llama.rows[i]!, row));
    console.log(formatAgreement(`${preset}: llama.cpp vs MNN ${QUANT_BIT}-bit`, rows));
    console.log(summarizeAgreement(`${preset} ${QUANT_BIT}-bit: llama.cpp vs MNN`, rows));
    if (preset === "pocket-q4_0") {
      // Two 4-bit schemes err independently: how far each is from the F16 numbers says more than
      // how far they are from each other.
      const f16 = await llamaLogitsPerPosition(await ensureGgufFixture("pocket-f16"), prompt);
      console.log(summarizeAgreement(`pocket-f16 (llama.cpp) vs ${preset} (llama.cpp)`, f16.rows.map((row, i) => compareRows(i, row, llama.rows[i]!))));
      console.log(summarizeAgreement(`pocket-f16 (llama.cpp) vs MNN ${QUANT_BIT}-bit`, f16.rows.map((row, i) => compareRows(i, row, mnnRows[i]!))));
    }
    if (asserted) {
      // Both compute in F32 over identical F16 weights; they differ only in summation order and
      // llama.cpp's F16 rounding of activations.
      for (const r of rows) expect(r.cosine, `position ${r.position}`).toBeGreaterThan(0.9999);
    }
  }, 600_000);

  it("greedy constrained extractions: identical output tokens (first divergence reported)", async () => {
    const mnn = await createMnnEngine({ modelDir, threads: 1 });
    const llama = await createLlamaEngine({ modelPath: gguf, threads: 1 });
    try {
      const byMnn = await createExtractor({ engine: mnn as Engine, maxTokens: 48 });
      const byLlama = await createExtractor({ engine: llama as Engine, maxTokens: 48 });
      for (const { name, schema, text } of SCHEMAS) {
        const byL = await byLlama.extract(schema, text);
        const byM = await byMnn.extract(schema, text);
        const [a, b] = [byL.raw, byM.raw];
        const same = [...a].findIndex((ch, i) => ch !== b[i]);
        const tokens = (r: typeof byL): string => `${r.stats.tokensSampled} sampled + ${r.stats.tokensForced} forced tokens`;
        console.log(
          `${name}: llama.cpp ${JSON.stringify(a)} (${tokens(byL)})\n${" ".repeat(name.length)}  MNN       ${JSON.stringify(b)} (${tokens(byM)})` +
            (a === b ? "  (identical)" : `  (first difference at char ${same < 0 ? a.length : same})`),
        );
        if (asserted) expect(b, name).toBe(a);
      }
    } finally {
      await mnn.dispose();
      await llama.dispose();
    }
  }, 600_000);
});
