/**
 * `npm run bench:long-document`: the 100,000-character zh/en document of bench/support/long-document.ts
 * through `extract` with chunking, on the deterministic per-chunk model (a ScriptedEngine over the
 * 64K fixture vocabulary, so every figure is the pipeline's: chunker, prompts, masks, grounding,
 * merge). Prints the wall time, the chunks, the payments found and how many of them sit at the
 * right place in the original text.
 *
 * Options: --chars 100000, --chunk-size 2000, --overlap 300, --passes 1.
 */
import { parseArgs } from "node:util";
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { createExtractor } from "../src/index.js";
import { loadTokenizerJson } from "../src/tokens/index.js";
import { longDocument, paymentsEngine, PaymentsSchema } from "./support/long-document.js";

const { values } = parseArgs({
  options: {
    chars: { type: "string", default: "100000" },
    "chunk-size": { type: "string", default: "2000" },
    overlap: { type: "string", default: "300" },
    passes: { type: "string", default: "1" },
  },
});

const vocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: 65536 });
const doc = longDocument(Number(values.chars));
const extractor = await createExtractor({ engine: paymentsEngine(vocabulary) });
const started = performance.now();
const r = await extractor.extract(PaymentsSchema, doc.text, {
  chunkSize: Number(values["chunk-size"]),
  chunkOverlap: Number(values.overlap),
  passes: Number(values.passes),
});
const ms = performance.now() - started;
const found = r.data?.payments ?? [];
const placed = doc.payments.filter((p, i) => r.fields.find((f) => f.pointer === `/payments/${i}/id`)?.best?.start === p.idAt).length;
const reads = r.raw.split("\n").reduce((n, line) => n + (JSON.parse(line) as { payments: unknown[] }).payments.length, 0);
console.log(`document: ${doc.text.length.toLocaleString("en-US")} characters, ${doc.payments.length} payments (zh and en)`);
console.log(`chunks: ${r.stats.chunks}, size ${values["chunk-size"]}, overlap ${values.overlap}, passes ${values.passes}; generations ${r.stats.attempts}`);
console.log(`time: ${(ms / 1000).toFixed(2)} s (${(ms / (r.stats.chunks ?? 1)).toFixed(0)} ms per chunk; prompt tokens ${r.stats.promptTokens.toLocaleString("en-US")})`);
console.log(`payments read by chunks: ${reads}; after the merge: ${found.length} (duplicates from the overlap removed: ${reads - found.length})`);
console.log(`found once each: ${new Set(found.map((p) => p.id)).size === doc.payments.length && found.length === doc.payments.length}; spans at the right offset: ${placed}/${doc.payments.length}`);
console.log(`ok: ${r.ok}, grounded: ${r.grounded}, issues: ${r.issues.length}`);
await extractor.dispose();
