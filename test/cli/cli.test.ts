/**
 * `pocket-extract` in-process through `runCli` with a ScriptedEngine on the fixture vocabulary:
 * the output format (one line per input line, typed errors), exit codes, resume (skips, torn last
 * line, changed input), signals (finish in-flight, abandon on the second), stdin, progress,
 * summary, schema loading and `inspect`.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import type { OutputRecord, ResultRecord } from "../../src/records/index.js";
import type { Engine } from "../../src/engines/engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { FIXTURES, captureIo, readJsonl, scratchDir, writeJsonl, type CapturedIo } from "./support/harness.js";

const PERSON = join(FIXTURES, "order.ts#Person");

/** Input documents and what the scripted "model" answers for each. */
const DOCS = [
  { id: "alice", text: "Alice is 31 years old.", answer: '{"name":"Alice","age":31}', status: "ok" },
  { id: "bob", text: "Bob lives in Paris.", answer: '{"name":"Bob","age":null}', status: "missing" },
  { id: "carol", text: "Carol is 40.", answer: '{"name":"Zed","age":40}', status: "fabricated" },
  { id: "dan", text: "Nobody is named here.", answer: '{"name":null,"age":null}', status: "invalid" },
] as const;

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

function scriptedEngine(contextLength?: number): ScriptedEngine {
  return new ScriptedEngine({
    vocabulary: vocab,
    contextLength,
    script: (prompt) => DOCS.find((d) => prompt.includes(d.text))?.answer ?? '{"name":"Eve","age":1}',
  });
}

/** An engine calling `onSession(n)` as session n (1-based) starts. */
function hookedEngine(onSession: (n: number) => void): Engine {
  const inner = scriptedEngine();
  let n = 0;
  return {
    name: inner.name,
    vocabulary: inner.vocabulary,
    contextLength: inner.contextLength,
    createSession: (options) => {
      onSession(++n);
      return inner.createSession(options);
    },
    dispose: () => inner.dispose(),
  };
}

const run = (io: CapturedIo, ...argv: string[]): Promise<number> => runCli(["run", "--schema", PERSON, ...argv], io);

function docsInput(dir: string, extra: readonly unknown[] = []): string {
  return writeJsonl(join(dir, "in.jsonl"), [...DOCS.map(({ id, text }) => ({ id, text })), ...extra]);
}

describe("run: output lines", () => {
  it("writes one line per input line, with line, id, status, result or typed error; exit 1 when some failed", async () => {
    const dir = scratchDir();
    const input = docsInput(dir, [{ id: "empty", text: "  " }, "RAW:not json", "RAW:", DOCS[0].text, { id: "n", text: 5 }]);
    const output = join(dir, "out.jsonl");
    const io = captureIo(scriptedEngine());
    const code = await run(io, "--input", input, "--output", output, "--summary-json", join(dir, "summary.json"));
    expect(code).toBe(1);
    const records = readJsonl<OutputRecord>(output);
    // 9 non-blank lines of 10 (line 7 is blank).
    expect(records.map((r) => r.line).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
    const byLine = new Map(records.map((r) => [r.line, r]));
    DOCS.forEach((d, i) => {
      expect(byLine.get(i + 1)!.id).toBe(d.id);
      expect(byLine.get(i + 1)!.status, d.id).toBe(d.status);
    });
    const alice = byLine.get(1) as ResultRecord;
    expect(alice.ok).toBe(true);
    expect(alice.data).toEqual({ name: "Alice", age: 31 });
    const name = alice.fields.find((f) => f.pointer === "/name")!;
    expect(name.status).toBe("found");
    expect(DOCS[0].text.slice(name.best!.start, name.best!.end)).toBe("Alice");
    expect(alice.stats.tokensForced).toBeGreaterThan(0);
    expect((byLine.get(4) as ResultRecord).partial).toEqual({ name: null, age: null });
    expect(byLine.get(5)).toMatchObject({ id: "empty", status: "failed", error: { code: "TEXT_EMPTY" } });
    expect(byLine.get(6)).toMatchObject({ id: 6, status: "failed", error: { code: "INPUT_INVALID" } });
    expect(byLine.get(8)).toMatchObject({ id: 8, status: "ok" });
    expect(byLine.get(9)).toMatchObject({ id: "n", status: "failed", error: { code: "INPUT_INVALID", message: expect.stringContaining('"text" must be a string') } });
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    expect(summary.documents).toEqual({ total: 8, ok: 2, missing: 1, fabricated: 1, invalid: 1, failed: 3 });
    expect(summary.errors).toEqual({ TEXT_EMPTY: 1, INPUT_INVALID: 2 });
    expect(summary.fields.found).toBeGreaterThanOrEqual(4);
    expect(summary.fields.fabricated).toBe(1);
    // dan's required name answered null: the document, its field and the summary all say invalid.
    expect((byLine.get(4) as ResultRecord).fields.find((f) => f.pointer === "/name")!.status).toBe("invalid");
    expect(summary.fields.invalid).toBe(1);
    expect(summary.exitCode).toBe(1);
    expect(summary.interrupted).toBeNull();
    expect(summary.time.maskShare).toBeGreaterThan(0);
    expect(summary.time.maskShare).toBeLessThanOrEqual(1);
    expect(io.err()).toMatch(/documents {2}8 \(ok 2, missing 1, fabricated 1, invalid 1, failed 3\)/);
    expect(io.err()).toMatch(/mask \d+\.\d%/);
  });

  it("exits 0 when every document is valid, and honours --text-field / --id-field", async () => {
    const dir = scratchDir();
    const input = writeJsonl(join(dir, "in.jsonl"), [{ key: "k1", body: DOCS[0].text }, { key: "k2", body: DOCS[1].text }]);
    const output = join(dir, "out.jsonl");
    const io = captureIo(scriptedEngine());
    expect(await run(io, "--input", input, "--output", output, "--text-field", "body", "--id-field", "key", "--quiet")).toBe(0);
    expect(readJsonl<OutputRecord>(output).map((r) => r.id)).toEqual(["k1", "k2"]);
    expect(io.err()).toBe("");
  });

  it("reports a text too long for the context as an error line, not a crash", async () => {
    const dir = scratchDir();
    const input = writeJsonl(join(dir, "in.jsonl"), [{ id: "long", text: "word ".repeat(2000) }, { id: "short", text: DOCS[0].text }]);
    const output = join(dir, "out.jsonl");
    expect(await run(captureIo(scriptedEngine(600)), "--input", input, "--output", output, "--max-tokens", "64")).toBe(1);
    const records = readJsonl<OutputRecord>(output);
    expect(records.find((r) => r.id === "long")).toMatchObject({ status: "failed", error: { code: "TEXT_TOO_LONG" } });
    expect(records.find((r) => r.id === "short")).toMatchObject({ status: "ok" });
  });

  it("reads stdin with --input - and gives the same records at concurrency 3", async () => {
    const dir = scratchDir();
    const lines = DOCS.map(({ id, text }) => JSON.stringify({ id, text })).join("\n") + "\n";
    const io = captureIo(scriptedEngine(), { stdin: Readable.from([Buffer.from(lines)]) });
    const output = join(dir, "out.jsonl");
    expect(await run(io, "--input", "-", "--output", output, "--concurrency", "3", "--quiet")).toBe(1);
    const records = readJsonl<OutputRecord>(output);
    expect(records.map((r) => r.id).sort()).toEqual(DOCS.map((d) => d.id).sort());
    expect(Object.fromEntries(records.map((r) => [r.id, r.status]))).toEqual(Object.fromEntries(DOCS.map((d) => [d.id, d.status])));
  });

  it("draws a progress line on a TTY stderr, and nothing with --quiet", async () => {
    const dir = scratchDir();
    const input = docsInput(dir);
    const tty = captureIo(scriptedEngine(), { tty: true });
    await run(tty, "--input", input, "--output", join(dir, "a.jsonl"));
    expect(tty.err()).toContain("\r\x1b[2K[####################] 4/4 100%");
    expect(tty.err()).toMatch(/docs\/s .*ok 1 missing 1 fabricated 1 invalid 1 failed 0/);
    const quiet = captureIo(scriptedEngine(), { tty: true });
    await run(quiet, "--input", input, "--output", join(dir, "b.jsonl"), "--quiet");
    expect(quiet.err()).toBe("");
  });
});

describe("run: usage errors exit 2", () => {
  it("refuses to overwrite an existing output without --resume", async () => {
    const dir = scratchDir();
    const output = join(dir, "out.jsonl");
    writeFileSync(output, "keep me\n");
    const io = captureIo(scriptedEngine());
    expect(await run(io, "--input", docsInput(dir), "--output", output)).toBe(2);
    expect(io.err()).toContain("exists: pass --resume");
    expect(readFileSync(output, "utf8")).toBe("keep me\n");
  });

  it.each([
    [["--input", "a", "--output", "b", "--concurrency", "0"], "--concurrency must be a positive integer"],
    [["--bogus"], "Unknown option '--bogus'"],
    [["--text", "x"], "--text is not an option of \"run\""],
  ])("%j", async (argv, message) => {
    const io = captureIo(scriptedEngine());
    expect(await run(io, ...argv)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.err()).toContain("--help");
  });

  it("names a missing input with a typed one-line error", async () => {
    const io = captureIo(scriptedEngine());
    expect(await run(io, "--input", "/nonexistent.jsonl", "--output", join(scratchDir(), "x.jsonl"))).toBe(2);
    expect(io.err()).toBe("pocket-extract: FILE_NOT_FOUND: /nonexistent.jsonl: --input: no such file or directory; check the path\n");
  });

  it("needs --model when no engine is injected", async () => {
    let err = "";
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
    expect(await runCli(["run", "--schema", PERSON, "--input", "a", "--output", "b"], io)).toBe(2);
    expect(err).toContain("run needs --model");
  });

  it("reports a schema the compiler rejects with its code, keyword and pointer, before writing output", async () => {
    const dir = scratchDir();
    const io = captureIo(scriptedEngine());
    const output = join(dir, "out.jsonl");
    expect(await runCli(["run", "--schema", join(FIXTURES, "bad.json"), "--input", docsInput(dir), "--output", output], io)).toBe(2);
    expect(io.err()).toMatch(/SCHEMA_UNSUPPORTED: .*\$dynamicRef/);
    expect(existsSync(output)).toBe(false);
  });
});

describe("run --resume", () => {
  it("skips the lines already done, cuts a torn last line, and ends with exactly one line per input line", async () => {
    const dir = scratchDir();
    const input = docsInput(dir);
    const output = join(dir, "out.jsonl");
    await run(captureIo(scriptedEngine()), "--input", input, "--output", output, "--quiet");
    const full = readFileSync(output, "utf8").split("\n");
    // Keep two complete lines and half of the third, as a SIGKILL mid-write would.
    writeFileSync(output, `${full[0]}\n${full[1]}\n${full[2]!.slice(0, 25)}`);
    const sessions: number[] = [];
    const io = captureIo(hookedEngine((n) => sessions.push(n)));
    expect(await run(io, "--input", input, "--output", output, "--resume", "--summary-json", join(dir, "s.json"))).toBe(1);
    expect(io.err()).toContain("removed a torn last line (25 bytes)");
    expect(sessions).toEqual([1, 2]); // only the two missing documents were extracted
    const records = readJsonl<OutputRecord>(output);
    expect(records.map((r) => r.line).sort()).toEqual([1, 2, 3, 4]);
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.documents.total).toBe(4);
    expect(summary.thisRun).toMatchObject({ documents: 2, resumedFrom: 2 });
  });

  it("does nothing when the output is complete, and starts fresh when there is none", async () => {
    const dir = scratchDir();
    const input = docsInput(dir);
    const output = join(dir, "out.jsonl");
    expect(await run(captureIo(scriptedEngine()), "--input", input, "--output", output, "--resume", "--quiet")).toBe(1);
    const before = readFileSync(output, "utf8");
    const sessions: number[] = [];
    expect(await run(captureIo(hookedEngine((n) => sessions.push(n))), "--input", input, "--output", output, "--resume", "--quiet")).toBe(1);
    expect(sessions).toEqual([]);
    expect(readFileSync(output, "utf8")).toBe(before);
  });

  it("refuses an input whose ids changed since the output was written", async () => {
    const dir = scratchDir();
    const output = join(dir, "out.jsonl");
    await run(captureIo(scriptedEngine()), "--input", docsInput(dir), "--output", output, "--quiet");
    const swapped = writeJsonl(join(dir, "swapped.jsonl"), [DOCS[1], DOCS[0]].map(({ id, text }) => ({ id, text })));
    const io = captureIo(scriptedEngine());
    expect(await run(io, "--input", swapped, "--output", output, "--resume")).toBe(2);
    expect(io.err()).toContain('RESUME_MISMATCH: ');
    expect(io.err()).toContain('input line 1 differs from the line that output record (id "alice") was made from');
  });

  it("refuses an output file that is not ours", async () => {
    const dir = scratchDir();
    const output = join(dir, "out.jsonl");
    writeFileSync(output, '{"hello":"world"}\n');
    const io = captureIo(scriptedEngine());
    expect(await run(io, "--input", docsInput(dir), "--output", output, "--resume")).toBe(2);
    expect(io.err()).toContain("is not a pocket-extract output line");
  });
});

describe("run: signals", () => {
  it("first SIGINT: no new document starts, the in-flight one finishes, exit 130 with a summary; resume completes", async () => {
    const dir = scratchDir();
    const input = docsInput(dir);
    const output = join(dir, "out.jsonl");
    const io: CapturedIo = captureIo(hookedEngine((n) => n === 2 && io.signal("SIGINT")));
    expect(await run(io, "--input", input, "--output", output, "--summary-json", join(dir, "s.json"))).toBe(130);
    expect(readJsonl<OutputRecord>(output).map((r) => r.id)).toEqual(["alice", "bob"]);
    expect(io.err()).toContain("SIGINT: finishing 1 in-flight document(s)");
    expect(io.err()).toContain("interrupted by SIGINT: rerun with --resume");
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8"))).toMatchObject({ interrupted: "SIGINT", exitCode: 130 });
    expect(await run(captureIo(scriptedEngine()), "--input", input, "--output", output, "--resume", "--quiet")).toBe(1);
    expect(readJsonl<OutputRecord>(output).map((r) => r.id)).toEqual(DOCS.map((d) => d.id));
  });

  it("second signal abandons in-flight documents: they are not written, and resume redoes them (SIGTERM: 143)", async () => {
    const dir = scratchDir();
    const input = docsInput(dir);
    const output = join(dir, "out.jsonl");
    const io: CapturedIo = captureIo(
      hookedEngine((n) => {
        if (n === 2) {
          io.signal("SIGTERM");
          io.signal("SIGTERM");
        }
      }),
    );
    expect(await run(io, "--input", input, "--output", output)).toBe(143);
    expect(readJsonl<OutputRecord>(output).map((r) => r.id)).toEqual(["alice"]);
    expect(io.err()).toContain("abandoning 1 in-flight document(s)");
    expect(await run(captureIo(scriptedEngine()), "--input", input, "--output", output, "--resume", "--quiet")).toBe(1);
    expect(readJsonl<OutputRecord>(output).map((r) => r.id)).toEqual(DOCS.map((d) => d.id));
  });
});

describe("schema files", () => {
  it.each([
    ["order.ts#Person", 0],
    ["person.json", 0],
    ["default-export.mjs", 0],
  ])("loads %s", async (spec, code) => {
    const io = captureIo(scriptedEngine());
    expect(await runCli(["inspect", "--schema", join(FIXTURES, spec)], io)).toBe(code);
    expect(io.out()).toContain("== grammar (GBNF)");
  });

  it.each([
    ["order.ts", "exports several schemas (Order, Person): pick one with"],
    ["order.ts#Nope", 'SCHEMA_EXPORT: ' + join(FIXTURES, "order.ts") + ': --schema: no export "Nope" (exports: Order, Person)'],
    ["person.json#X", "only applies to modules"],
    ["missing.ts", "no such file"],
  ])("refuses %s", async (spec, message) => {
    const io = captureIo(scriptedEngine());
    expect(await runCli(["inspect", "--schema", join(FIXTURES, spec)], io)).toBe(2);
    expect(io.err()).toContain(message);
  });
});

describe("inspect and help", () => {
  it("prints the compile report, the automaton size, the grammar and the prompt for the sample text", async () => {
    const io = captureIo(scriptedEngine());
    expect(await runCli(["inspect", "--schema", join(FIXTURES, "order.ts#Order"), "--text", "客户购买了3台笔记本电脑"], io)).toBe(0);
    const out = io.out();
    expect(out).toMatch(/enforced by the grammar \(\d+\):\n(.*\n)*\s+\/properties\/quantity {2}minimum/);
    expect(out).toMatch(/validated after decoding \(\d+\):/);
    expect(out).toMatch(/automaton: \d+ rules, \d+ rule states/);
    expect(out).toMatch(/== grammar \(GBNF\)\nroot ::= /);
    expect(out).toContain("== prompt (zh)");
    expect(out).toContain("<|im_start|>user\n客户购买了3台笔记本电脑");
  });

  it("rejects an unsupported keyword naming it and its pointer (exit 2)", async () => {
    const io = captureIo(scriptedEngine());
    expect(await runCli(["inspect", "--schema", join(FIXTURES, "bad.json")], io)).toBe(2);
    expect(io.err()).toContain('SCHEMA_UNSUPPORTED: $dynamicRef is not supported (dynamic scope) (at /properties/name, keyword "$dynamicRef")');
  });

  it("--help documents every option, the exit codes and examples", async () => {
    const io = captureIo(scriptedEngine());
    expect(await runCli(["--help"], io)).toBe(0);
    for (const option of ["--schema", "--model", "--input", "--output", "--text-field", "--id-field", "--concurrency", "--max-tokens", "--resume", "--report", "--summary-json", "--quiet", "--text-file"]) {
      expect(io.out()).toContain(option);
    }
    expect(io.out()).toContain("Exit codes:");
    expect(io.out()).toContain("Examples:");
  });
});

it("resume counts an error line as done: a failed document is not retried", async () => {
  const dir = scratchDir();
  const input = docsInput(dir);
  const output = join(dir, "out.jsonl");
  const inputSha256 = createHash("sha256").update(readFileSync(input, "utf8").split("\n")[0]!).digest("hex");
  appendFileSync(output, `${JSON.stringify({ line: 1, id: "alice", inputSha256, status: "failed", error: { code: "INTERNAL", message: "x" } })}\n`);
  const sessions: number[] = [];
  await run(captureIo(hookedEngine((n) => sessions.push(n))), "--input", input, "--output", output, "--resume", "--quiet");
  expect(sessions).toEqual([1, 2, 3]);
  expect(readJsonl<OutputRecord>(output)).toHaveLength(4);
});
