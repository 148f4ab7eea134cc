/**
 * Long documents through the public API (issue #20): a 100,000-character zh/en document is split
 * into chunks, each chunk extracted by a deterministic model that reads the chunk it is shown,
 * and the results merged: every payment once, with spans in the original text.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, type Extractor, type StreamEvent } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/index.js";
import type { Vocabulary } from "../../src/tokens/index.js";
import { longDocument, paymentsEngine, PaymentsSchema, readPayments } from "../../bench/support/long-document.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

type Payments = z.infer<typeof PaymentsSchema>;
const payments = (): Promise<Extractor> => createExtractor({ engine: paymentsEngine(vocab, 8192) });

describe("long documents", () => {
  it("a 100,000-character zh/en document: every payment once, spans in the original text", async () => {
    const doc = longDocument(100_000);
    expect(doc.text.length).toBeGreaterThanOrEqual(100_000);
    const ex = await payments();
    const r = await ex.extract(PaymentsSchema, doc.text, { chunkSize: 2000, chunkOverlap: 300 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.stats.chunks).toBeGreaterThan(50);
    expect(r.data.payments.map((p) => p.id)).toEqual(doc.payments.map((p) => p.id));
    expect(r.data.payments).toEqual(doc.payments.map(({ id, name, date, amount }) => ({ id, name, date, amount })));
    expect(r.grounded).toBe(true);
    expect(r.issues).toEqual([]);
    doc.payments.forEach((p, i) => {
      const id = r.fields.find((f) => f.pointer === `/payments/${i}/id`)!;
      expect(id.status).toBe("found");
      expect(id.best).toMatchObject({ start: p.idAt, end: p.idAt + p.id.length, text: p.id });
      const name = r.fields.find((f) => f.pointer === `/payments/${i}/name`)!;
      expect(name.best).toMatchObject({ start: p.nameAt, text: p.name });
      for (const field of ["date", "amount"]) {
        const f = r.fields.find((g) => g.pointer === `/payments/${i}/${field}`)!;
        expect(f.status, `${p.id} ${field}`).toBe("found");
        // Every span, best or not, is a piece of the original text at its offsets.
        for (const s of f.spans) expect(doc.text.slice(s.start, s.end)).toBe(s.text);
        expect(Math.abs(f.best!.start - p.nameAt)).toBeLessThan(60);
      }
    });
    // The overlap made chunks read some payments twice: the merge kept each once.
    const chunkReads = r.raw.split("\n").reduce((n, line) => n + (JSON.parse(line) as { payments: unknown[] }).payments.length, 0);
    expect(chunkReads).toBeGreaterThan(doc.payments.length);
  }, 120_000);

  it("a text no longer than chunkSize is extracted as one document, exactly as without the option", async () => {
    const { text } = longDocument(1500);
    const ex = await payments();
    const plain = await ex.extract(PaymentsSchema, text);
    const chunked = await ex.extract(PaymentsSchema, text, { chunkSize: text.length });
    const { stats: a, ...restPlain } = plain;
    const { stats: b, ...restChunked } = chunked;
    expect(restChunked).toEqual(restPlain);
    expect(b.chunks).toBeUndefined();
    expect(b.promptTokens).toBe(a.promptTokens);
  });

  it("scalars come from the best-grounded chunk; different found values are reported as a conflict", async () => {
    const Schema = z.object({ city: z.string().nullable(), payments: PaymentsSchema.shape.payments });
    const first = "The meeting took place in Lisbon. ".repeat(10);
    const second = "Later notes say the meeting took place in Porto. ".repeat(10);
    const text = `${first}\n\n${"Nothing else happened that day, as far as anyone remembers. ".repeat(20)}\n\n${second}`;
    const engine = new ScriptedEngine({
      vocabulary: vocab,
      canonical: true,
      script: (prompt) => {
        const city = prompt.includes("Porto") ? "Porto" : prompt.includes("Lisbon") ? "Lisbon" : null;
        return JSON.stringify({ city, payments: readPayments(prompt) });
      },
    });
    const ex = await createExtractor({ engine });
    const r = await ex.extract(Schema, text, { chunkSize: 500 });
    expect(r.stats.chunks).toBeGreaterThan(2);
    expect(r.ok).toBe(true);
    expect(r.data?.city).toBe("Lisbon");
    const city = r.fields.find((f) => f.pointer === "/city")!;
    expect(city.status).toBe("found");
    expect(text.slice(city.best!.start, city.best!.end)).toBe("Lisbon");
    expect(r.issues).toEqual([expect.objectContaining({ pointer: "/city", source: "chunks", message: expect.stringMatching(/"Lisbon".*"Porto"/) })]);
  });

  it("passes: a later pass re-reads only the chunks that found nothing for a field", async () => {
    const prompts: string[] = [];
    const engine = new ScriptedEngine({
      vocabulary: vocab,
      canonical: true,
      script: (prompt) => {
        prompts.push(prompt);
        return JSON.stringify({ payments: readPayments(prompt) });
      },
    });
    const { text, payments: all } = longDocument(6000);
    const ex = await createExtractor({ engine });
    const once = await ex.extract(PaymentsSchema, text, { chunkSize: 600 });
    const firstPass = prompts.length;
    const empty = once.raw.split("\n").filter((line) => line === '{"payments":[]}').length;
    expect(empty).toBeGreaterThan(0);
    prompts.length = 0;
    const twice = await ex.extract(PaymentsSchema, text, { chunkSize: 600, passes: 2 });
    expect(prompts.length).toBe(firstPass + empty);
    expect(twice.stats.attempts).toBe(firstPass + empty);
    expect(twice.data?.payments.map((p) => p.id)).toEqual(all.map((p) => p.id));
  });

  it("stream on a chunked text: partials grow as chunks complete, each payment once as an element, the result extract() gives", async () => {
    const { text, payments: all } = longDocument(6000);
    const ex = await payments();
    const stream = ex.stream(PaymentsSchema, text, { chunkSize: 1000, elements: "payments" });
    const events: StreamEvent<Payments, Payments["payments"][number]>[] = [];
    for await (const e of stream) events.push(e);
    const last = events.at(-1)!;
    expect(last.type).toBe("result");
    if (last.type !== "result") return;
    const result = last.result;
    const { stats: a, ...streamed } = result;
    const { stats: b, ...extracted } = await ex.extract(PaymentsSchema, text, { chunkSize: 1000 });
    expect(streamed).toEqual(extracted);
    expect(a.chunks).toBe(b.chunks);
    // Partials: the merge of the chunks completed so far, each one extending the one before.
    const partials = events.flatMap((e) => (e.type === "partial" ? [e] : []));
    expect(partials.length).toBeGreaterThan(2);
    partials.forEach((p, i) => {
      const ids = (p.partial.payments ?? []).map((x) => x?.id);
      const next = i + 1 < partials.length ? (partials[i + 1]!.partial.payments ?? []).map((x) => x?.id) : all.map((x) => x.id);
      expect(next.slice(0, ids.length)).toEqual(ids);
      expect(result.raw.startsWith(p.raw)).toBe(true);
    });
    expect(partials.at(-1)!.partial).toEqual(result.data);
    // Elements: every payment once, in order, with the final result's reports.
    const elements = events.flatMap((e) => (e.type === "element" ? [e.element] : []));
    expect(elements.map((e) => e.index)).toEqual(all.map((_, i) => i));
    expect(elements.map((e) => e.data)).toEqual(result.data?.payments);
    for (const e of elements) {
      expect(e.ok && e.grounded).toBe(true);
      expect(e.fields).toEqual(result.fields.filter((f) => f.pointer.startsWith(`/payments/${e.index}/`)));
    }
    // Each element comes no later than the partial that first holds it.
    const firstHolding = (i: number) => events.findIndex((e) => e.type === "partial" && (e.partial.payments?.length ?? 0) > i);
    elements.forEach((e) => expect(events.findIndex((x) => x.type === "element" && x.element === e)).toBeGreaterThan(firstHolding(e.index)));
  });

  it("stream on a chunked text: partialObjectStream and elementStream read alone; stopping the reader stops the chunks", async () => {
    const { text, payments: all } = longDocument(6000);
    const ex = await payments();
    const partials = [];
    for await (const p of ex.stream(PaymentsSchema, text, { chunkSize: 1000 }).partialObjectStream) partials.push(p);
    expect(partials.at(-1)?.payments?.length).toBe(all.length);
    const ids = [];
    for await (const e of ex.stream(PaymentsSchema, text, { chunkSize: 1000, elements: "payments" }).elementStream) ids.push(e.data?.id);
    expect(ids).toEqual(all.map((p) => p.id));
    const stream = ex.stream(PaymentsSchema, text, { chunkSize: 1000, elements: "payments" });
    for await (const e of stream.elementStream) if (e.index === 0) break;
    await expect(stream.result).rejects.toMatchObject({ code: "ABORTED" });
    await expect(ex.stream(PaymentsSchema, text, { chunkSize: 1000, elements: "nope" as "payments" }).result).rejects.toMatchObject({ code: "OPTION_INVALID" });
  });

  it("checks the options and keeps maxTextBytes as the bound of the whole text", async () => {
    const ex = await payments();
    const text = longDocument(3000).text;
    for (const options of [{ chunkSize: 10 }, { chunkSize: 1000, chunkOverlap: 500 }, { chunkSize: 1000, passes: 4 }, { chunkSize: 1000, chunkOverlap: -1 }, { passes: 1.5 }]) {
      await expect(ex.extract(PaymentsSchema, text, options), JSON.stringify(options)).rejects.toMatchObject({ code: "OPTION_INVALID" });
    }
    await expect(ex.extract(PaymentsSchema, text, { chunkSize: 1000, maxTextBytes: 2000 })).rejects.toMatchObject({ code: "TEXT_TOO_LONG" });
    const small = await createExtractor({ engine: paymentsEngine(vocab, 400) });
    await expect(small.extract(PaymentsSchema, text, { chunkSize: 2000 })).rejects.toMatchObject({ code: "TEXT_TOO_LONG", message: expect.stringMatching(/chunkSize/) });
  });
});
