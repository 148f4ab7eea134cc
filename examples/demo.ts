/**
 * `npm run demo`: extracts from the bundled Chinese and English samples and prints each field's
 * status and source span. With POCKET_MODEL unset it runs the tiny random-weight GGUF fixture:
 * its values are noise, and the fabricated flags show exactly that. Point POCKET_MODEL at a real
 * MNN-Pocket .gguf (or MNN directory) for real extractions.
 */
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { createExtractor, type ExtractResult } from "../src/index.js";
import { SAMPLES } from "./samples.js";

async function main(): Promise<void> {
  const model = process.env.POCKET_MODEL ?? (await ensureGgufFixture("tiny"));
  const real = process.env.POCKET_MODEL !== undefined;
  console.log(`pocket-extract demo — model: ${model}`);
  if (!real) {
    console.log("(tiny random-weight fixture model: the values below are noise; grounding flags them as fabricated)\n");
  }
  const extractor = await createExtractor({ model, maxTokens: 96 });
  console.log(`vocabulary: ${extractor.engine.vocabulary.width} ids, eos ${extractor.engine.vocabulary.eosIds.join(", ")}\n`);
  try {
    for (const sample of SAMPLES) {
      const result = await extractor.extract(sample.schema, sample.text);
      printResult(sample.name, sample.text, result);
    }
  } finally {
    await extractor.dispose();
  }
}

function printResult(name: string, text: string, r: ExtractResult<unknown>): void {
  console.log(`── ${name}: ${text}`);
  console.log(`raw:  ${r.raw}`);
  console.log(`ok:   ${r.ok}${r.issues.length ? `  (${r.issues.map((i) => `${i.pointer || "/"}: ${i.message}`).join("; ")})` : ""}`);
  console.log(`grounded: ${r.grounded}${r.grounded ? "" : "  (some value is not supported by the text)"}`);
  const rows = r.fields.map((f) => [
    f.pointer || "/",
    f.status + (f.truncated ? " (cut)" : ""),
    JSON.stringify(f.value) ?? "—",
    f.best ? `[${f.best.start},${f.best.end}) "${f.best.text}" ${f.best.match}` : "",
  ]);
  const widths = [0, 1, 2].map((c) => Math.min(28, Math.max(...rows.map((row) => row[c]!.length), 5)));
  for (const row of rows) console.log("  " + row.map((cell, c) => (c < 3 ? cell.slice(0, 28).padEnd(widths[c]!) : cell)).join("  "));
  const s = r.stats;
  console.log(
    `stats: ${s.tokensSampled} sampled, ${s.tokensForced} forced, ${s.tokensCompleted} completed by budget; ` +
      `mask ${s.maskMs.toFixed(1)} ms, engine ${s.engineMs.toFixed(1)} ms, total ${s.totalMs.toFixed(1)} ms\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exit(1);
});
