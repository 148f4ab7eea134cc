/**
 * The CLI's extraction options (--temperature, --seed, --retries, --language, --instruction) in
 * process through `runCli`: a seed makes two sampled runs identical, the instruction and the
 * language reach the prompt, temperature and retries reach the engine, bad values are usage
 * errors (exit 2) before any document is read; `serve` and `worker` take them as the extractors'
 * defaults, which an HTTP request's own options override key by key.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { parseServingArgs } from "../../src/cli/serving-args.js";
import { openPool } from "../../src/cli/serving-shared.js";
import type { Engine } from "../../src/engines/engine.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { createServer } from "../../src/serve/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { recordingEngine as recordingEngineOf, type RecordingEngine } from "../support/recording-engine.js";
import { FIXTURES, captureIo, scratchDir, writeJsonl } from "./support/harness.js";

const PERSON = join(FIXTURES, "order.ts#Person");
const DOCS = [
  { id: "a", text: "Alice is 31 years old." },
  { id: "b", text: "Bob is 40." },
  { id: "c", text: "Carol is 22." },
];

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

/** A scripted engine that records each session's prompt and sampling options. */
function recordingEngine(answer = '{"name":"Alice","age":31}'): RecordingEngine {
  return recordingEngineOf(vocab, () => answer);
}

async function run(engine: Engine, ...extra: string[]): Promise<{ code: number; out: string; err: string }> {
  const dir = scratchDir();
  const input = writeJsonl(join(dir, "in.jsonl"), DOCS);
  const output = join(dir, "out.jsonl");
  const io = captureIo(engine);
  const code = await runCli(["run", "--schema", PERSON, "--input", input, "--output", output, "--quiet", ...extra], io);
  return { code, out: code === 2 ? "" : readFileSync(output, "utf8"), err: io.err() };
}

/** The raw model outputs of a run's output file, by id. */
const raws = (out: string): Record<string, string> => Object.fromEntries(out.trim().split("\n").map((l) => JSON.parse(l) as { id: string; raw: string }).map((r) => [r.id, r.raw]));

describe("run: extraction options", () => {
  it("--seed makes two sampled runs identical (without it, each session draws anew)", async () => {
    const engine = new RandomEngine({ vocabulary: vocab, seed: 1, eosProbability: 0.9 });
    const first = await run(engine, "--temperature", "0.8", "--seed", "7");
    const second = await run(engine, "--temperature", "0.8", "--seed", "7");
    expect(first.code).not.toBe(2);
    expect(raws(second.out)).toEqual(raws(first.out));
    const unseeded = [await run(engine, "--temperature", "0.8"), await run(engine, "--temperature", "0.8")];
    expect(raws(unseeded[1]!.out)).not.toEqual(raws(unseeded[0]!.out));
  });

  it("--temperature and --seed reach the engine; --retries resamples a failed result", async () => {
    const { engine, sampling } = recordingEngine('{"name":null,"age":null}');
    await run(engine, "--temperature", "0.25", "--seed", "11", "--concurrency", "1");
    expect(sampling.slice(0, DOCS.length)).toEqual(DOCS.map(() => ({ temperature: 0.25, seed: 11 })));
    const retried = recordingEngine('{"name":null,"age":null}');
    await run(retried.engine, "--retries", "2", "--seed", "5");
    // A null for a required name fails every attempt: 1 + 2 sessions per document, seeds 5, 6, 7.
    expect(retried.sampling).toHaveLength(DOCS.length * 3);
    expect(retried.sampling.slice(0, 3)).toEqual([{ seed: 5 }, { temperature: 0.7, seed: 6 }, { temperature: 0.7, seed: 7 }]);
  });

  it("--retry-mode feedback re-asks with the previous output and its issues, same sampling", async () => {
    const { engine, prompts, sampling } = recordingEngine('{"name":null,"age":null}');
    const { code, out } = await run(engine, "--retries", "1", "--retry-mode", "feedback", "--seed", "5", "--concurrency", "1");
    expect(code).not.toBe(2);
    expect(sampling).toEqual(DOCS.flatMap(() => [{ seed: 5 }, { seed: 5 }]));
    const [first, reask, doc] = [prompts[0]!, prompts[1]!, DOCS[0]!.text];
    expect(reask.startsWith(first.slice(0, first.indexOf(doc) + doc.length))).toBe(true);
    expect(prompts[1]).toContain('Your previous answer:\n{"name":null,"age":null}');
    expect(prompts[1]).toContain("- /name: required, but the answer was null");
    const record = JSON.parse(out.trim().split("\n")[0]!) as { stats: { attempts: number; attemptLog: { prompt: string }[] } };
    expect(record.stats.attempts).toBe(2);
    expect(record.stats.attemptLog.map((a) => a.prompt)).toEqual(["first", "feedback"]);
  });

  it("--instruction and --language reach the prompt", async () => {
    const plain = recordingEngine();
    await run(plain.engine);
    expect(plain.prompts[0]).toContain("Extract");
    expect(plain.prompts[0]).not.toContain("从用户给出的文本中抽取信息");
    const zh = recordingEngine();
    await run(zh.engine, "--language", "zh", "--instruction", "Only people named in the first sentence.");
    expect(zh.prompts).toHaveLength(DOCS.length);
    for (const prompt of zh.prompts) {
      expect(prompt).toContain("Only people named in the first sentence.");
      expect(prompt).toContain("字段"); // the Chinese field list heading
    }
  });

  it.each([
    [["--temperature=-1"], /--temperature must be a finite number >= 0, got "-1"/],
    [["--temperature", "warm"], /--temperature must be a number, got "warm"/],
    [["--seed", "1.5"], /--seed must be an integer from 0 to/],
    [["--retries", "101"], /--retries must be an integer from 0 to 100, got "101"/],
    [["--language", "fr"], /--language must be one of auto, zh, en, got "fr"/],
    [["--instruction", " "], /--instruction must not be empty/],
    [["--retry-mode", "again"], /--retry-mode must be "resample" or "feedback", got "again"/],
  ])("%j is a usage error before any document", async (args, message) => {
    const { engine, sampling } = recordingEngine();
    const result = await run(engine, ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain("pocket-extract --help lists the options");
    expect(sampling).toHaveLength(0);
  });

  it("--help documents them", async () => {
    const io = captureIo(recordingEngine().engine);
    expect(await runCli(["--help"], io)).toBe(0);
    for (const option of ["--temperature <t>", "--seed <n>", "--retries <n>", "--retry-mode <resample|feedback>", "--language <auto|zh|en>", "--instruction <text>"]) expect(io.out()).toContain(option);
    expect(io.out()).toMatch(/serve and worker take .*\n.*--temperature, --seed, --retries, --language, --instruction/);
  });
});

describe("serve and worker: extraction options as the extractors' defaults", () => {
  it("parses them for serve and worker, with the same checks as run", () => {
    const serve = parseServingArgs(["serve", "--temperature", "0.4", "--seed", "3", "--retries", "1", "--language", "zh", "--instruction", "Be terse."], true);
    expect(serve.command === "serve" && serve.extraction).toEqual({ sampling: { temperature: 0.4, seed: 3 }, retries: 1, language: "zh", instruction: "Be terse." });
    const worker = parseServingArgs(["worker", "--queue", "q", "--language", "en"], true);
    expect(worker.command === "worker" && worker.extraction).toEqual({ language: "en" });
    expect(() => parseServingArgs(["serve", "--retries", "-3"], true)).toThrow();
    const feedback = parseServingArgs(["serve", "--retries", "2", "--retry-mode", "feedback"], true);
    expect(feedback.command === "serve" && feedback.extraction).toEqual({ retries: 2, retryMode: "feedback" });
    expect(() => parseServingArgs(["worker", "--queue", "q", "--retry-mode", "twice"], true)).toThrow(/--retry-mode must be "resample" or "feedback"/);
    expect(() => parseServingArgs(["worker", "--queue", "q", "--temperature", "hot"], true)).toThrow(/--temperature must be a number/);
    expect(() => parseServingArgs(["enqueue", "--queue", "q", "--schema", "s", "--input", "i", "--seed", "1"], true)).toThrow(/seed/);
  });

  it("serve's defaults reach each request; a request's own sampling overrides them key by key", async () => {
    const { engine, prompts, sampling } = recordingEngine();
    const io = captureIo(engine);
    const args = parseServingArgs(["serve", "--temperature", "0.4", "--seed", "3", "--language", "zh", "--instruction", "Be terse."], true);
    if (args.command !== "serve") throw new Error("expected serve");
    const pool = await openPool(args, 1, io);
    const server = createServer({ pool });
    const { url } = await server.listen(0);
    try {
      const post = (options?: unknown) =>
        fetch(`${url}/v1/extract`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"] }, text: "Alice is 31.", ...(options ? { options } : {}) }),
        });
      expect((await post()).status).toBe(200);
      expect(sampling[0]).toEqual({ temperature: 0.4, seed: 3 });
      expect(prompts[0]).toContain("Be terse.");
      expect(prompts[0]).toContain("字段");
      expect((await post({ sampling: { seed: 9 }, language: "en" })).status).toBe(200);
      expect(sampling[1]).toEqual({ temperature: 0.4, seed: 9 });
      expect(prompts[1]).not.toContain("字段");
    } finally {
      await server.close(1000);
    }
  });

  it("a request's options.retryMode re-asks with feedback; a bad one is a 400 naming it", async () => {
    const { engine, prompts, sampling } = recordingEngine('{"name":null,"age":31}');
    const args = parseServingArgs(["serve", "--retries", "1"], true);
    if (args.command !== "serve") throw new Error("expected serve");
    const server = createServer({ pool: await openPool(args, 1, captureIo(engine)) });
    const { url } = await server.listen(0);
    try {
      const post = (options: unknown) =>
        fetch(`${url}/v1/extract`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"] }, text: "Alice is 31.", options }),
        });
      const ok = await post({ retryMode: "feedback" });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { stats: { attempts: number; attemptLog: { prompt: string }[] } };
      expect(body.stats.attempts).toBe(2);
      expect(body.stats.attemptLog.map((a) => a.prompt)).toEqual(["first", "feedback"]);
      expect(prompts[1]).toContain("Your previous answer:");
      const bad = await post({ retryMode: "twice" });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: { code: "OPTION_INVALID", message: 'options.retryMode must be "resample" or "feedback", got "twice"' } });
      expect(sampling).toHaveLength(2);
    } finally {
      await server.close(1000);
    }
  });
});
