/**
 * Long documents on the command line: `run --chunk-size` reads a text longer than one chunk in
 * chunks and writes one merged record whose spans are offsets into the whole input text (a
 * deterministic per-chunk test model, bench/support/long-document.ts); bad values of
 * --chunk-size, --chunk-overlap and --passes are usage errors naming the flag before any
 * document; serve and worker take them as the extractors' defaults.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { longDocument, paymentsEngine } from "../../bench/support/long-document.js";
import { runCli } from "../../src/cli/main.js";
import type { ResultRecord } from "../../src/records/index.js";
import { parseServingArgs } from "../../src/cli/serving-args.js";
import type { Engine } from "../../src/engines/engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { mostOpenAtOnce, timelineEngine, type TimelineEntry } from "../support/timeline-engine.js";
import { FIXTURES, captureIo, readJsonl, scratchDir, writeJsonl } from "./support/harness.js";

const PAYMENTS = join(FIXTURES, "payments.ts#Payments");

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

/** The payments engine, counting its sessions (one per chunk read). */
function countingEngine(): { engine: Engine; sessions: () => number } {
  const inner = paymentsEngine(vocab, 8192);
  let sessions = 0;
  const engine: Engine = {
    name: inner.name,
    vocabulary: inner.vocabulary,
    contextLength: inner.contextLength,
    createSession: (options) => {
      sessions++;
      return inner.createSession(options);
    },
    dispose: () => inner.dispose(),
  };
  return { engine, sessions: () => sessions };
}

async function run(engine: Engine, text: string, ...extra: string[]): Promise<{ code: number; records: ResultRecord[]; err: string }> {
  const dir = scratchDir();
  const input = writeJsonl(join(dir, "in.jsonl"), [{ id: "report", text }]);
  const output = join(dir, "out.jsonl");
  const io = captureIo(engine);
  const code = await runCli(["run", "--schema", PAYMENTS, "--input", input, "--output", output, "--quiet", ...extra], io);
  return { code, records: code === 2 ? [] : readJsonl<ResultRecord>(output), err: io.err() };
}

describe("run --chunk-size", () => {
  it("extracts a long text in chunks: one merged record, every payment once, spans in the input text", async () => {
    const doc = longDocument(6000);
    const { engine, sessions } = countingEngine();
    const { code, records, err } = await run(engine, doc.text, "--chunk-size", "1000", "--chunk-overlap", "300");
    expect(code, err).toBe(0);
    expect(records).toHaveLength(1);
    const r = records[0]!;
    expect(r.status).toBe("ok");
    expect(r.stats.chunks).toBeGreaterThanOrEqual(6);
    expect(sessions()).toBe(r.stats.chunks);
    expect(r.data).toEqual({ payments: doc.payments.map(({ id, name, date, amount }) => ({ id, name, date, amount })) });
    doc.payments.forEach((p, i) => {
      const id = r.fields.find((f) => f.pointer === `/payments/${i}/id`)!;
      expect(id.best).toMatchObject({ start: p.idAt, end: p.idAt + p.id.length, text: p.id });
      const name = r.fields.find((f) => f.pointer === `/payments/${i}/name`)!;
      expect(name.best).toMatchObject({ start: p.nameAt, text: p.name });
    });
    for (const f of r.fields) for (const s of f.spans) expect(doc.text.slice(s.start, s.end)).toBe(s.text);
  });

  it("--engines 2 reads the chunks two at a time and writes the record --engines 1 writes", async () => {
    const doc = longDocument(6000);
    const flags = ["--chunk-size", "1000", "--chunk-overlap", "300"];
    const one: TimelineEntry[] = [];
    const two: TimelineEntry[] = [];
    const alone = await run(timelineEngine(paymentsEngine(vocab, 8192), "one", one), doc.text, ...flags);
    const spread = await run(timelineEngine(paymentsEngine(vocab, 8192), "two", two), doc.text, ...flags, "--engines", "2");
    expect(spread.code, spread.err).toBe(0);
    const timeless = (r: ResultRecord) => ({ ...r, stats: { chunks: r.stats.chunks, attempts: r.stats.attempts, promptTokens: r.stats.promptTokens } });
    expect(spread.records.map(timeless)).toEqual(alone.records.map(timeless));
    expect(mostOpenAtOnce(one)).toBe(1);
    expect(mostOpenAtOnce(two)).toBe(2);
    const bad = await run(paymentsEngine(vocab, 8192), doc.text, "--engines", "0");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--engines/);
  });

  it("without --chunk-size the same text is one document (one session)", async () => {
    const doc = longDocument(3000);
    const { engine, sessions } = countingEngine();
    const { code, records } = await run(engine, doc.text);
    expect(code).toBe(0);
    expect(sessions()).toBe(1);
    expect(records[0]!.stats.chunks).toBeUndefined();
  });

  it("--passes re-reads only the chunks that found nothing", async () => {
    const doc = longDocument(6000);
    const once = countingEngine();
    const first = await run(once.engine, doc.text, "--chunk-size", "600");
    const twice = countingEngine();
    const second = await run(twice.engine, doc.text, "--chunk-size", "600", "--passes", "2");
    expect(second.records[0]!.data).toEqual(first.records[0]!.data);
    const empty = first.records[0]!.raw.split("\n").filter((line) => (JSON.parse(line) as { payments: unknown[] }).payments.length === 0).length;
    expect(empty).toBeGreaterThan(0);
    expect(twice.sessions()).toBe(once.sessions() + empty);
  });

  it.each([
    [["--chunk-size", "10"], /--chunk-size must be an integer from 200 to 1,073,741,824, got "10"/],
    [["--chunk-size", "big"], /--chunk-size must be a number, got "big"/],
    [["--chunk-size", "1500.5"], /--chunk-size must be an integer from 200/],
    [["--chunk-size", "1000", "--chunk-overlap", "500"], /--chunk-overlap must be an integer under half of chunkSize \(1000\), got "500"/],
    [["--chunk-size", "1000", "--chunk-overlap=-1"], /--chunk-overlap must be an integer from 0 to/],
    [["--chunk-size", "1000", "--passes", "4"], /--passes must be an integer from 1 to 3, got "4"/],
    [["--passes", "2"], /--passes only applies with --chunk-size/],
    [["--chunk-overlap", "100", "--passes", "2"], /--chunk-overlap, --passes only apply with --chunk-size/],
  ])("%j is a usage error before any document", async (args, message) => {
    const { engine, sessions } = countingEngine();
    const result = await run(engine, longDocument(3000).text, ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain("pocket-extract --help lists the options");
    expect(sessions()).toBe(0);
  });

  it("--help documents them", async () => {
    const io = captureIo(countingEngine().engine);
    expect(await runCli(["--help"], io)).toBe(0);
    for (const option of ["--chunk-size <n>", "--chunk-overlap <n>", "--passes <n>"]) expect(io.out()).toContain(option);
    expect(io.out()).toMatch(/serve and worker take [^]*--chunk-size,\s+--chunk-overlap,\s+--passes as the extractors' defaults/);
  });
});

describe("serve and worker: long-document defaults", () => {
  it("parses them with run's checks", () => {
    const serve = parseServingArgs(["serve", "--chunk-size", "2000", "--chunk-overlap", "300", "--passes", "2"], true);
    expect(serve.command === "serve" && serve.extraction).toEqual({ chunkSize: 2000, chunkOverlap: 300, passes: 2 });
    const worker = parseServingArgs(["worker", "--queue", "q", "--chunk-size", "4000"], true);
    expect(worker.command === "worker" && worker.extraction).toEqual({ chunkSize: 4000 });
    // A default overlap without a default size is kept: requests may give chunkSize.
    const overlapOnly = parseServingArgs(["serve", "--chunk-overlap", "300"], true);
    expect(overlapOnly.command === "serve" && overlapOnly.extraction).toEqual({ chunkOverlap: 300 });
    expect(() => parseServingArgs(["serve", "--chunk-size", "199"], true)).toThrow(/--chunk-size must be an integer from 200/);
    expect(() => parseServingArgs(["enqueue", "--queue", "q", "--schema", "s", "--input", "i", "--chunk-size", "2000"], true)).toThrow(/chunk-size/);
  });
});
