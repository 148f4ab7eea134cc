/**
 * What the grammar engine keeps in memory, stage by stage, in a fresh process:
 *
 *   npm run bench:memory [-- --documents N]   (a fresh process; GC exposed at run time)
 *
 * Stages: the 64K fixture vocabulary (tokenizer.json loaded, with its encoder), the trie and
 * vocabulary index the mask engine walks, one compiled extraction schema (the invoice schema of
 * bench:mask's extraction set, through the compile cache as an extractor does), then N documents
 * (default 50; seeded invoices) decoded through the real decode loop with the ScriptedEngine,
 * which fills the grammar's states and caches (masks, forced runs, completions). Each stage is
 * read after a full garbage collection as the growth of the JS heap (`heapUsed`) and of memory
 * outside it (`external`, which holds array buffers), next to the bytes the structures report
 * themselves (trie and index `memoryBytes`, TokenGrammar `stats()`). The target (issue #19) is
 * 20 MB for everything but the tokenizer's encoder, which is the model's, not the grammar's.
 */
import { parseArgs } from "node:util";
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { generate } from "../src/decode/index.js";
import { ScriptedEngine } from "../src/engines/testing/scripted-engine.js";
import { compileGrammar } from "../src/mask/index.js";
import { vocabIndex } from "../src/mask/vocab-index.js";
import { loadTokenizerJson } from "../src/tokens/index.js";
import { mulberry32 } from "../src/engines/testing/prng.js";
import { EXTRACTION_CASES } from "./support/extraction-set.js";
import { fullGc } from "./support/memory.js";
import { formatTable, megabytes } from "./support/table.js";

const { values } = parseArgs({ options: { documents: { type: "string", default: "50" } } });
const documents = Number(values.documents);

interface Reading {
  readonly heap: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

function read(): Reading {
  fullGc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

const rows: string[][] = [];
let last = read();
const start = last;
/** Records the growth since the last stage; returns it (heap + external). */
function stage(name: string, reported: number | undefined): number {
  const now = read();
  const heap = now.heap - last.heap;
  const external = now.external - last.external;
  rows.push([name, megabytes(heap), megabytes(external), megabytes(heap + external), reported === undefined ? "" : megabytes(reported)]);
  last = now;
  return heap + external;
}

const tokenizerPath = await ensureFixtureTokenizer();
const vocabulary = await loadTokenizerJson(tokenizerPath, { width: 65536 });
stage("vocabulary (tokenizer.json: encoder + token bytes)", undefined);

const index = vocabIndex(vocabulary);
const indexBytes = stage("trie + vocabulary index", index.memoryBytes);

const invoice = EXTRACTION_CASES.find((c) => c.name === "invoice")!;
const compiled = compileGrammar(invoice.schema, vocabulary);
const grammarBytes = stage("invoice grammar, compiled", compiled.tokens.stats().memoryBytes);

const random = mulberry32(19);
const prompt = vocabulary.encode("Extract the invoice.");
let tokens = 0;
for (let d = 0; d < documents; d++) {
  const session = await new ScriptedEngine({ vocabulary, canonical: true, script: JSON.stringify(randomInvoice(random)) }).createSession();
  try {
    tokens += (await generate(session, compiled.tokens, prompt, { maxTokens: 2048 })).tokens.length;
  } finally {
    await session.close();
  }
}
const stats = compiled.tokens.stats();
const cacheBytes = stage(`${documents} documents (${tokens} tokens): states and caches (${stats.cachedMasks} masks, ${stats.states} states)`, stats.memoryBytes);

rows.push(["grammar engine (index, grammar, caches)", "", "", megabytes(indexBytes + grammarBytes + cacheBytes), ""]);
rows.push(["everything above (target 20 MB)", megabytes(last.heap - start.heap), megabytes(last.external - start.external), megabytes(last.heap + last.external - start.heap - start.external), ""]);
console.log(`bench:memory (node ${process.version}; growth after a full GC at each stage)\n`);
console.log(formatTable(["stage", "JS heap", "external", "total", "reported"], rows));

/** A plausible invoice (seeded): 1-4 items, prices with cents, one of the schema's currencies. */
function randomInvoice(next: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const words = ["paper", "toner", "stapler", "chair", "desk", "lamp", "cable", "monitor", "keyboard", "notebook", "pens", "folder"];
  const items = Array.from({ length: int(1, 4) }, () => ({
    description: `${pick(words)} ${pick(words)}, pack of ${int(1, 12)}`,
    quantity: int(1, 20),
    unit_price: int(100, 99999) / 100,
  }));
  const total = Math.round(items.reduce((n, i) => n + i.quantity * i.unit_price * 100, 0)) / 100;
  return {
    invoice_number: `INV-${int(2019, 2026)}-${String(int(1, 99999)).padStart(5, "0")}`,
    date: `${int(2019, 2026)}-${String(int(1, 12)).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")}`,
    vendor: { name: `${pick(["Northwind", "Contoso", "Fabrikam", "Tailspin"])} ${pick(["Supply", "Traders", "Office", "Goods"])}`, address: `${int(1, 9999)} ${pick(["Harbor", "Main", "Oak", "Pine"])} St, Suite ${int(1, 40)}` },
    items,
    total,
    currency: pick(["USD", "EUR", "GBP", "CNY", "JPY"]),
  };
}
