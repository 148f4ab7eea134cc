/**
 * The `pocket-extract` entry (src/cli/index.ts) end to end as a subprocess, on the tiny
 * random-weight GGUF fixture through the llama.cpp engine: a run with a report and a JSON summary,
 * SIGKILL and resume, `inspect`, and a usage error. Like test/engines/llama.test.ts, this fails
 * without the native addon (CI builds it with `npm run native:build`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import type { OutputRecord, ResultRecord } from "../../src/records/index.js";
import { FIXTURES, ROOT, readJsonl, scratchDir, startTsx, writeJsonl } from "./support/harness.js";

const BIN = join(ROOT, "src/cli/index.ts");
const SCHEMA = join(FIXTURES, "order.ts#Person");
let model: string;

beforeAll(async () => {
  model = await ensureGgufFixture("tiny");
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const lineCount = (path: string): number => (existsSync(path) ? readFileSync(path, "utf8").split("\n").length - 1 : 0);

describe("pocket-extract bin on the tiny GGUF model", () => {
  it("run: one line per input line, summary JSON (its exitCode is the exit code), HTML report", async () => {
    const dir = scratchDir();
    const texts = ["Alice is 31 years old.", "Bob lives in Paris.", "  ", "王小明今年二十岁。"];
    const input = writeJsonl(join(dir, "in.jsonl"), texts.map((text, i) => ({ id: `t${i}`, text })));
    const output = join(dir, "out.jsonl");
    const report = join(dir, "report.html");
    const args = ["run", "--schema", SCHEMA, "--model", model, "--input", input, "--output", output, "--max-tokens", "32", "--report", report, "--summary-json", join(dir, "s.json")];
    const end = await startTsx(BIN, args).exited;
    expect([0, 1], end.stderr).toContain(end.code);
    const records = readJsonl<OutputRecord>(output);
    expect(records.map((r) => r.id).sort()).toEqual(["t0", "t1", "t2", "t3"]);
    expect(records.find((r) => r.id === "t2")).toMatchObject({ status: "failed", error: { code: "TEXT_EMPTY" } });
    for (const r of records.filter((x) => x.id !== "t2")) {
      expect(r.error, JSON.stringify(r)).toBeUndefined();
      const { stats } = r as ResultRecord;
      expect(stats.tokensSampled + stats.tokensForced).toBeGreaterThan(0);
    }
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.documents.total).toBe(4);
    expect(summary.exitCode).toBe(end.code);
    expect(summary.time.maskShare).toBeGreaterThan(0);
    const html = readFileSync(report, "utf8");
    for (const id of ["t0", "t1", "t2", "t3"]) expect(html).toContain(`"id":"${id}"`);
    expect(end.stderr).toMatch(/documents {2}4 /);
  }, 300_000);

  it("SIGKILL twice mid-run, then --resume: exactly one line per input id", async () => {
    const dir = scratchDir();
    const n = 12;
    const input = writeJsonl(join(dir, "in.jsonl"), Array.from({ length: n }, (_, i) => ({ id: `k${i}`, text: `Item ${i}: ${i + 2} boxes for Name${i}.` })));
    const output = join(dir, "out.jsonl");
    const args = ["run", "--schema", SCHEMA, "--model", model, "--input", input, "--output", output, "--max-tokens", "32", "--resume", "--quiet"];
    for (let kill = 0; kill < 2; kill++) {
      const before = lineCount(output);
      const { child, exited } = startTsx(BIN, args);
      let ended = false;
      void exited.then(() => (ended = true));
      while (!ended && lineCount(output) < before + 2) await sleep(20);
      child.kill("SIGKILL");
      await exited;
    }
    expect(lineCount(output)).toBeLessThan(n);
    const end = await startTsx(BIN, args).exited;
    expect([0, 1], end.stderr).toContain(end.code);
    const ids = readJsonl<OutputRecord>(output).map((r) => r.id);
    expect(ids.length).toBe(n);
    expect(new Set(ids).size).toBe(n);
  }, 600_000);

  it("inspect prints the report, grammar and prompt; a bad option exits 2", async () => {
    const inspect = await startTsx(BIN, ["inspect", "--schema", join(FIXTURES, "person.json"), "--text", "Alice is 31."]).exited;
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain("== compile report");
    expect(inspect.stdout).toMatch(/root ::= /);
    expect(inspect.stdout).toContain("Alice is 31.");
    const bad = await startTsx(BIN, ["run", "--schema", SCHEMA, "--model", model, "--input", "x", "--output", "y", "--max-tokens", "lots"]).exited;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-tokens must be a positive integer, got "lots"');
  }, 120_000);
});
