/**
 * Logit agreement between two implementations of the same weights (llama.cpp vs transformers on
 * the Hugging Face twin, llama.cpp vs MNN on its export): the llama.cpp logits of every position of
 * a token sequence, and per-position max absolute difference, cosine similarity and argmax.
 */
import { loadLlamaAddon } from "../../src/engines/llama/addon.js";

export interface PositionAgreement {
  readonly position: number;
  readonly maxAbsDiff: number;
  readonly cosine: number;
  readonly sameArgmax: boolean;
}

function argmax(row: Float32Array): number {
  let best = 0;
  for (let i = 1; i < row.length; i++) if (row[i]! > row[best]!) best = i;
  return best;
}

export function compareRows(position: number, a: Float32Array, b: Float32Array): PositionAgreement {
  if (a.length !== b.length) throw new Error(`position ${position}: logits widths differ (${a.length} vs ${b.length})`);
  let maxAbsDiff = 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    maxAbsDiff = Math.max(maxAbsDiff, Math.abs(a[i]! - b[i]!));
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return { position, maxAbsDiff, cosine: dot / Math.sqrt(na * nb), sameArgmax: argmax(a) === argmax(b) };
}

/**
 * llama.cpp's tokenization of `text` (special tokens parsed) and its logits after each of those
 * tokens (one decode per token, so every position is read).
 */
export async function llamaLogitsPerPosition(ggufPath: string, text: string, threads = 1): Promise<{ ids: number[]; rows: Float32Array[] }> {
  const { addon, backendsDir } = loadLlamaAddon();
  const model = await addon.loadModel(ggufPath, { backendsDir, contextLength: 512, threads });
  try {
    const ids = [...model.tokenize(text, true)];
    const rows: Float32Array[] = [];
    for (const id of ids) {
      await model.decode(Int32Array.of(id));
      rows.push(model.logits());
    }
    return { ids, rows };
  } finally {
    model.free();
  }
}

/** One line per position, for the test log and the closing note. */
export function formatAgreement(label: string, rows: readonly PositionAgreement[]): string {
  const lines = rows.map((r) => `  pos ${String(r.position).padStart(3)}  max|Δ| ${r.maxAbsDiff.toExponential(3)}  cos ${r.cosine.toFixed(7)}  argmax ${r.sameArgmax ? "same" : "DIFFERENT"}`);
  return [`${label}:`, ...lines].join("\n");
}

/** One line: worst and median cosine, worst max |Δ|, positions with the same argmax. */
export function summarizeAgreement(label: string, rows: readonly PositionAgreement[]): string {
  const cosines = rows.map((r) => r.cosine).sort((a, b) => a - b);
  const worstDiff = Math.max(...rows.map((r) => r.maxAbsDiff));
  return `${label}: worst max|Δ| ${worstDiff.toExponential(3)}, worst cosine ${cosines[0]!.toFixed(7)}, median cosine ${cosines[cosines.length >> 1]!.toFixed(7)}, argmax same at ${rows.filter((r) => r.sameArgmax).length}/${rows.length} positions`;
}
