/**
 * Per-document cost of verbatim fields: `npm run bench:verbatim [-- --docs N]`
 *
 * A schema with verbatim fields is compiled again for every document (its strings are the
 * document's substrings). This measures, for documents of 1,000 and 4,000 characters cut from the
 * bundled zh/en/mixed grounding texts (a different cut per document): the compile as the
 * extractor runs it (compileGrammar with the text), and the first mask inside a verbatim field
 * (where that field's automaton analysis is done, on first use). Side by side, the same schema
 * without verbatim fields compiled from cold caches, for scale. Prints medians and p90s.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { compileGrammar } from "../src/mask/index.js";
import { verbatim } from "../src/extract/verbatim.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { fromRoot } from "./support/paths.js";
import { percentile } from "./support/stats.js";
import { fmt, formatTable, ratio } from "./support/table.js";

const { values } = parseArgs({ options: { docs: { type: "string", default: "31" } } });
const docs = Number(values.docs);

const order = (text: () => z.ZodString) =>
  z.object({
    customer: text().nullable(),
    model: text().nullable(),
    phone: text().nullable(),
    quantity: z.number().int().nullable(),
    unitPrice: z.number().nullable(),
    items: z.array(z.object({ name: text(), note: text().nullable() })),
  });
const withVerbatim = order(() => verbatim(z.string()));
const corpus = ["zh", "en", "mixed"]
  .flatMap((lang) => JSON.parse(readFileSync(fromRoot(`fixtures/grounding/cases-${lang}.json`), "utf8")) as { text: string }[])
  .map((c) => c.text)
  .join("\n");

const vocabulary = await fixtureVocabulary();
const mask = new Uint32Array(Math.ceil(vocabulary.width / 32));
const fieldPrefix = new TextEncoder().encode('{"customer":"');

const rows: string[][] = [];
for (const length of [1000, 4000]) {
  const compileMs: number[] = [];
  const enterMs: number[] = [];
  const plainMs: number[] = [];
  for (let d = 0; d < docs; d++) {
    const start = (d * 997) % corpus.length;
    const text = (corpus.slice(start) + corpus).slice(0, length);
    let t = performance.now();
    const compiled = compileGrammar(withVerbatim, vocabulary, { verbatimSource: text });
    compileMs.push(performance.now() - t);
    const matcher = compiled.tokens.matcher();
    if (!matcher.acceptBytes(fieldPrefix)) throw new Error("the field prefix was refused");
    t = performance.now();
    matcher.fillMask(mask);
    enterMs.push(performance.now() - t);
    // For scale: a fresh schema object of the same shape without verbatim fields (its shared
    // sub-automata are warm after the first document, as in a long-running process).
    const plain = order(() => z.string());
    t = performance.now();
    compileGrammar(plain, vocabulary, {});
    plainMs.push(performance.now() - t);
  }
  const sorted = (a: number[]) => Float64Array.from(a).sort();
  const [c, e, p] = [sorted(compileMs), sorted(enterMs), sorted(plainMs)];
  rows.push([
    `${length}`,
    fmt(percentile(c, 50), 2),
    fmt(percentile(c, 90), 2),
    fmt(percentile(e, 50), 2),
    fmt(percentile(e, 90), 2),
    fmt(percentile(p, 50), 2),
    ratio(percentile(c, 50), percentile(p, 50)),
  ]);
}
console.log(`verbatim fields: ${docs} documents per length (ms; medians and p90 over documents)`);
console.log(
  formatTable(["text chars", "compile p50", "compile p90", "first field mask p50", "p90", "same schema, no verbatim: compile p50", "verbatim / plain"], rows),
);
