/**
 * Only regular files are read, with a bound (issue 15, item 10). A device (`--output /dev/full`,
 * `--input /dev/zero`), a FIFO nobody writes to, or a directory named as input, resumed output,
 * schema or sample text is refused from its metadata with a typed error, quickly and in little
 * memory, where it used to stream without end or hang. An output file that is one huge line
 * without a newline is refused, not "repaired" by truncating it to nothing.
 */
import { spawnSync } from "node:child_process";
import { closeSync, openSync, ftruncateSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutputRecord } from "../../src/records/index.js";
import { readJsonl, scratchDir } from "../cli/support/harness.js";
import { PERSON_SCHEMA, runCliProcess, typedLine } from "./support/cli-process.js";

/** Startup (tsx, the 64K vocabulary) takes a few seconds on a busy machine; the old hangs were unbounded. */
const BOUNDS = { maxRssMb: 450, maxMs: 30_000 };
const MB = 1024 * 1024;

function fifo(dir: string, name = "pipe"): string {
  const path = join(dir, name);
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  return path;
}

function input(dir: string): string {
  const path = join(dir, "in.jsonl");
  writeFileSync(path, `${JSON.stringify({ id: "a", text: "Alice is 31 years old." })}\n`);
  return path;
}

/** A sparse file of `bytes` NUL bytes: no newline anywhere, and no disk or memory spent making it. */
function hugeLineFile(path: string, bytes: number): string {
  const fd = openSync(path, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}

const run = (...argv: string[]) => runCliProcess(["run", "--schema", PERSON_SCHEMA, "--quiet", ...argv], BOUNDS);

describe("special files are refused quickly, with a typed error", () => {
  it.each([
    ["--output /dev/full --resume", "FILE_NOT_REGULAR", (d: string) => ["--input", input(d), "--output", "/dev/full", "--resume"], "/dev/full"],
    ["--output <fifo> --resume", "FILE_NOT_REGULAR", (d: string) => ["--input", input(d), "--output", fifo(d), "--resume"], "pipe"],
    ["--output <directory> --resume", "FILE_IS_DIRECTORY", (d: string) => ["--input", input(d), "--output", d, "--resume"], ""],
    ["--input <fifo>", "FILE_NOT_REGULAR", (d: string) => ["--input", fifo(d), "--output", join(d, "out.jsonl")], "pipe"],
    ["--input /dev/zero", "FILE_NOT_REGULAR", (d: string) => ["--input", "/dev/zero", "--output", join(d, "out.jsonl")], "/dev/zero"],
    ["--input <directory>", "FILE_IS_DIRECTORY", (d: string) => ["--input", d, "--output", join(d, "out.jsonl")], ""],
  ])("%s -> %s", async (_, code, argv, pathEnd) => {
    const dir = scratchDir();
    const outcome = await run(...argv(dir));
    expect(outcome.killedFor, outcome.stderr).toBeUndefined();
    expect(outcome.code).toBe(2);
    const typed = typedLine(outcome);
    expect(typed, outcome.stderr).toBeDefined();
    expect(typed!.code).toBe(code);
    expect(typed!.path.endsWith(pathEnd || dir)).toBe(true);
    expect(outcome.peakRssMb).toBeLessThan(BOUNDS.maxRssMb);
  });

  it.each([
    ["--schema <fifo>.json", (d: string) => ["inspect", "--schema", fifo(d, "schema.json")]],
    ["--text-file <fifo>", (d: string) => ["inspect", "--schema", PERSON_SCHEMA, "--text-file", fifo(d)]],
    ["--text-file /dev/zero", () => ["inspect", "--schema", PERSON_SCHEMA, "--text-file", "/dev/zero"]],
  ])("inspect %s -> FILE_NOT_REGULAR", async (_, argv) => {
    const outcome = await runCliProcess(argv(scratchDir()), BOUNDS);
    expect(outcome.killedFor, outcome.stderr).toBeUndefined();
    expect(outcome.code).toBe(2);
    expect(typedLine(outcome)?.code, outcome.stderr).toBe("FILE_NOT_REGULAR");
  });

  it("--resume on an output that is one 200 MB line without a newline: RESUME_INVALID, file untouched, bounded memory", async () => {
    const dir = scratchDir();
    const output = hugeLineFile(join(dir, "out.jsonl"), 200 * MB);
    const outcome = await run("--input", input(dir), "--output", output, "--resume");
    expect(outcome.killedFor, outcome.stderr).toBeUndefined();
    expect(outcome.code).toBe(2);
    expect(typedLine(outcome), outcome.stderr).toMatchObject({ code: "RESUME_INVALID", path: output });
    expect(statSync(output).size).toBe(200 * MB);
    expect(outcome.peakRssMb).toBeLessThan(BOUNDS.maxRssMb);
  });

  it("--input holding one 200 MB line without a newline: a LINE_TOO_LONG record, bounded memory", async () => {
    const dir = scratchDir();
    const output = join(dir, "out.jsonl");
    const outcome = await run("--input", hugeLineFile(join(dir, "in.jsonl"), 200 * MB), "--output", output);
    expect(outcome.killedFor, outcome.stderr).toBeUndefined();
    expect(outcome.code).toBe(1);
    const [record] = readJsonl<OutputRecord>(output);
    expect(record).toMatchObject({ line: 1, status: "failed", error: { code: "LINE_TOO_LONG" } });
    expect(outcome.peakRssMb).toBeLessThan(BOUNDS.maxRssMb);
  });
});

