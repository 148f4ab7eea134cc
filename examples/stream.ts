/**
 * `npx tsx examples/stream.ts`: a streaming transcript. First a scripted model output (readable
 * values, the real mask path and the fixture tokenizer): every event as a UI would get it, each
 * partial only when it changed, strings growing, each person once with its field reports. Then
 * the tiny random-weight GGUF on llama.cpp (or POCKET_MODEL): streams abandoned with `break`,
 * and how long the next request waited for the engine.
 */
import { z } from "zod";
import { ensureGgufFixture } from "../fixtures/gguf/index.js";
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { loadTokenizerJson } from "../src/grammar-tier.js";
import { createExtractor, type Extractor } from "../src/index.js";
import { ScriptedEngine } from "../src/testing/index.js";

const Contacts = z.object({
  people: z.array(z.object({ name: z.string(), email: z.string().nullable(), role: z.enum(["buyer", "seller"]) })),
  summary: z.string(),
});
const TEXT = "From: Emily Chen <emily@rs.example> (seller) to Bob (buyer): the quote for 3 laptops.";
const OUTPUT = '{"people":[{"name":"Emily Chen","email":"emily@rs.example","role":"seller"},{"name":"Bob","email":null,"role":"buyer"}],"summary":"the quote for 3 laptops"}';

async function scriptedTranscript(): Promise<void> {
  const vocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: 65536 });
  const extractor = await createExtractor({ engine: new ScriptedEngine({ vocabulary, script: OUTPUT }) });
  console.log(`── scripted output, fixture tokenizer: ${TEXT}`);
  const stream = extractor.stream(Contacts, TEXT, { elements: "people" });
  let partials = 0;
  for await (const event of stream) {
    if (event.type === "partial") console.log(`partial #${++partials}  ${JSON.stringify(event.partial)}`);
    else if (event.type === "element") {
      const el = event.element;
      const fields = el.fields.map((f) => `${f.pointer}=${f.status}`).join(" ");
      console.log(`element ${el.index}   ok=${el.ok} grounded=${el.grounded}  ${JSON.stringify(el.data)}  [${fields}]`);
    } else {
      const s = event.result.stats;
      console.log(`result      ok=${event.result.ok} grounded=${event.result.grounded}; ${partials} partial events for ${s.tokensSampled} sampled + ${s.tokensForced} forced tokens\n`);
    }
  }
}

const Minutes = z.object({ items: z.array(z.object({ who: z.string().max(30), what: z.string().max(60) })).min(8).max(8) });
const MINUTES_TEXT = "会议纪要：2026 年第一季度产品评审，参会者王小明、李雷，结论是下季度发布。";

/** Breaks out of a stream after `n` partials; returns how far the decode had got. */
async function abandon(extractor: Extractor, n: number): Promise<number> {
  let seen = 0;
  let at = 0;
  for await (const event of extractor.stream(Minutes, MINUTES_TEXT)) {
    if (event.type === "partial" && ++seen === n) {
      at = event.raw.length;
      break;
    }
  }
  return at;
}

/** Runs one extraction; returns its wall time outside decoding (waiting for the engine, prompt,
 *  verification) and its decode time, in milliseconds. */
async function waited(extractor: Extractor): Promise<{ wait: number; total: number }> {
  const t0 = performance.now();
  const r = await extractor.extract(Minutes, MINUTES_TEXT);
  const wall = performance.now() - t0;
  return { wait: wall - r.stats.totalMs - r.stats.compileMs, total: r.stats.totalMs };
}

async function cancellationTranscript(): Promise<void> {
  const model = process.env.POCKET_MODEL ?? (await ensureGgufFixture("tiny"));
  const extractor = await createExtractor({ model, maxTokens: 200 });
  console.log(`── cancellation on ${process.env.POCKET_MODEL ? model : "the tiny random-weight GGUF"} (llama.cpp)`);
  try {
    const alone = await waited(extractor); // warm-up and the reference: nothing else in flight
    console.log(`a full extraction alone: decode ${alone.total.toFixed(0)} ms, ${alone.wait.toFixed(1)} ms outside decoding (first call: warm-up)`);
    const t0 = performance.now();
    const cut = await abandon(extractor, 3);
    console.log(`stream abandoned after 3 partials (${cut} output characters); break returned after ${(performance.now() - t0).toFixed(0)} ms`);
    const next = await waited(extractor);
    console.log(`next request: ${next.wait.toFixed(1)} ms outside decoding (waiting for the engine included), decode ${next.total.toFixed(0)} ms`);
    for (const n of [2, 4, 6]) await abandon(extractor, n);
    const afterThree = await waited(extractor);
    console.log(`after three abandoned streams: the next request spent ${afterThree.wait.toFixed(1)} ms outside decoding`);
  } finally {
    await extractor.dispose();
  }
}

async function main(): Promise<void> {
  await scriptedTranscript();
  await cancellationTranscript();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exit(1);
});
