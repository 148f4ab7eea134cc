/**
 * `npm run bench:long-document`: the 100,000-character zh/en document of bench/support/long-document.ts
 * through `extract` with chunking, on the deterministic per-chunk model (a ScriptedEngine over the
 * 64K fixture vocabulary, so every figure is the pipeline's: chunker, prompts, masks, grounding,
 * merge). Prints the wall time, the chunks, the payments found and how many of them sit at the
 * right place in the original text.
 *
 * Then one engine against two, side by side: the same document on one extractor and on an
 * ExtractorPool of two (its chunks spread over both engines), alternating, `--runs` times each;
 * medians, the ratio, and whether the two results are identical. Twice: on the scripted model (its
 * "forward pass" is JavaScript on the main thread, so only the pipeline is measured and two engines
 * cannot overlap) and on the tiny random-weight GGUF through the llama.cpp addon (one thread per
 * engine: the native forward passes of two engines overlap each other and the JavaScript masks).
 * The machine's core count is printed: on 2 cores shared with other work, expect little.
 *
 * Options: --chars 100000, --chunk-size 2000, --overlap 300, --passes 1, --runs 3,
 * --gguf-chars 20000 (the GGUF side by side; 0 skips it), --gguf-max-tokens 48.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { z } from "zod";
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { createExtractor, ExtractorPool, loadEngine, type Engine, type ExtractOptions, type ExtractResult } from "../src/index.js";
import { loadTokenizerJson } from "../src/tokens/index.js";
import { median } from "./support/stats.js";
import { fmt, formatTable, ratio } from "./support/table.js";
import { longDocument, paymentsEngine, PaymentsSchema } from "./support/long-document.js";

const { values } = parseArgs({
  options: {
    chars: { type: "string", default: "100000" },
    "chunk-size": { type: "string", default: "2000" },
    overlap: { type: "string", default: "300" },
    passes: { type: "string", default: "1" },
    runs: { type: "string", default: "3" },
    "gguf-chars": { type: "string", default: "20000" },
    "gguf-max-tokens": { type: "string", default: "48" },
  },
});

const chunking = { chunkSize: Number(values["chunk-size"]), chunkOverlap: Number(values.overlap), passes: Number(values.passes) };
const vocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: 65536 });
const doc = longDocument(Number(values.chars));
const extractor = await createExtractor({ engine: paymentsEngine(vocabulary) });
const started = performance.now();
const r = await extractor.extract(PaymentsSchema, doc.text, chunking);
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

/** One engine against a pool of two on the same document: medians of alternating runs. */
async function sideBySide(label: string, engines: readonly [Engine, Engine, Engine], schema: unknown, text: string, options: ExtractOptions): Promise<string[]> {
  const one = await createExtractor({ engine: engines[0] });
  const pool = new ExtractorPool([await createExtractor({ engine: engines[1] }), await createExtractor({ engine: engines[2] })]);
  const times: [number[], number[]] = [[], []];
  let results: [ExtractResult<unknown>, ExtractResult<unknown>] | undefined;
  await one.extract(schema, text.slice(0, options.chunkSize), options); // compile and warm up outside the timings
  for (let run = 0; run < Number(values.runs); run++) {
    const t0 = performance.now();
    const a = await one.extract(schema, text, options);
    const t1 = performance.now();
    const b = await pool.extract(schema, text, options);
    times[0].push(t1 - t0);
    times[1].push(performance.now() - t1);
    results = [a, b];
  }
  const [a, b] = results!;
  const same = a.raw === b.raw && JSON.stringify([a.partial, a.fields, a.issues]) === JSON.stringify([b.partial, b.fields, b.issues]);
  const [m1, m2] = [median(times[0]), median(times[1])];
  return [label, `${(text.length / 1000).toFixed(0)}K chars, ${a.stats.chunks} chunks`, fmt(m1 / 1000, 2), fmt(m2 / 1000, 2), ratio(m1, m2), String(same)];
}

const rows: string[][] = [];
const scripted = (): Engine => paymentsEngine(vocabulary);
rows.push(await sideBySide("scripted payments model", [scripted(), scripted(), scripted()], PaymentsSchema, doc.text, chunking));
const ggufChars = Number(values["gguf-chars"]);
if (ggufChars > 0) {
  const model = await ensureGgufFixture("tiny");
  const engines = await Promise.all([0, 1, 2].map(() => loadEngine(model, { threads: 1 })));
  const NamesSchema = z.object({ names: z.array(z.string().max(16)).max(4), total: z.number().nullable() });
  const options = { ...chunking, maxTokens: Number(values["gguf-max-tokens"]) };
  rows.push(await sideBySide("tiny GGUF, llama.cpp, 1 thread/engine", engines as [Engine, Engine, Engine], NamesSchema, longDocument(ggufChars).text, options));
  await Promise.all(engines.map((e) => e.dispose()));
}
console.log(`\none engine vs two (ExtractorPool), median of ${values.runs} alternating runs; this machine: ${availableParallelism()} cores`);
console.log(formatTable(["model", "document", "1 engine s", "2 engines s", "speed-up", "same result"], rows));
