/**
 * The output file is locked for the run (issue 15, item 5): `<output>.lock`, created exclusively,
 * holding the owner's pid. Two real CLI processes started together on one output (two `--resume`
 * of the same job): one runs, the other is refused at once with OUTPUT_LOCKED, and the output
 * holds every document exactly once. A lock whose pid is dead (a SIGKILLed run) is taken over; a
 * live one is not; the lock is gone after a run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutputRecord } from "../../src/records/index.js";
import { readJsonl, scratchDir, writeJsonl } from "../cli/support/harness.js";
import { PERSON_SCHEMA, runCliProcess, startCli, typedLine, type CliOutcome } from "./support/cli-process.js";

const BOUNDS = { maxRssMb: 600, maxMs: 90_000 };
const DOCS = 12;

function setup(): { input: string; output: string; lock: string } {
  const dir = scratchDir();
  const input = writeJsonl(
    join(dir, "in.jsonl"),
    Array.from({ length: DOCS }, (_, i) => ({ id: `doc-${i}`, text: `Person ${i} is called Name${i} and is ${20 + i} years old.` })),
  );
  const output = join(dir, "out.jsonl");
  return { input, output, lock: `${output}.lock` };
}

const args = (input: string, output: string): string[] => ["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--resume", "--quiet"];

function expectEachDocumentOnce(output: string): void {
  const lines = readJsonl<OutputRecord>(output).map((r) => r.line).sort((a, b) => a - b);
  expect(lines).toEqual(Array.from({ length: DOCS }, (_, i) => i + 1));
}

function expectLocked(outcome: CliOutcome, output: string): void {
  expect(outcome.code).toBe(2);
  const typed = typedLine(outcome);
  expect(typed, outcome.stderr).toMatchObject({ code: "OUTPUT_LOCKED", path: output });
}

describe("output lock", () => {
  it("two concurrent --resume runs on one output: one refused with OUTPUT_LOCKED, every document written once", async () => {
    const { input, output, lock } = setup();
    // Slow decoding (20 ms a step) keeps the first run busy while the second starts.
    const env = { POCKET_TEST_STEP_DELAY_MS: "20" };
    const [a, b] = await Promise.all([startCli(args(input, output), BOUNDS, { env }).done, startCli(args(input, output), BOUNDS, { env }).done]);
    const [winner, loser] = a.code === 2 ? [b, a] : [a, b];
    expect([0, 1], winner.stderr).toContain(winner.code);
    expectLocked(loser, output);
    // Refused from the lock, not after a run of its own.
    expect(loser.ms).toBeLessThan(winner.ms);
    expectEachDocumentOnce(output);
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a stale lock (its pid is dead) and removes it at the end", async () => {
    const { input, output, lock } = setup();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), host: hostname() }));
    const outcome = await runCliProcess(args(input, output), BOUNDS);
    expect([0, 1], outcome.stderr).toContain(outcome.code);
    expectEachDocumentOnce(output);
    expect(existsSync(lock)).toBe(false);
  });

  it("refuses while a live process holds the lock, naming its pid; the output is untouched", async () => {
    const { input, output, lock } = setup();
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname() }));
    const outcome = await runCliProcess(args(input, output), BOUNDS);
    expectLocked(outcome, output);
    expect(typedLine(outcome)!.message).toContain(`pid ${process.pid}`);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(lock)).toBe(true);
  });

  it("one lock for every spelling of the output: a run through a symbolic link is refused too", async () => {
    const { input, output, lock } = setup();
    writeFileSync(output, "");
    const alias = join(dirname(output), "alias.jsonl");
    symlinkSync(output, alias);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname() }));
    const outcome = await runCliProcess(args(input, alias), BOUNDS);
    expectLocked(outcome, alias);
    expect(readFileSync(output, "utf8")).toBe("");
  });

  it("refuses a lock file it did not write rather than guessing", async () => {
    const { input, output, lock } = setup();
    writeFileSync(lock, "something else\n");
    const outcome = await runCliProcess(args(input, output), BOUNDS);
    expect(outcome.code).toBe(2);
    expect(typedLine(outcome), outcome.stderr).toMatchObject({ code: "OUTPUT_LOCKED", path: lock });
    expect(existsSync(output)).toBe(false);
  });
});
