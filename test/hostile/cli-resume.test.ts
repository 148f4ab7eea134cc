/**
 * `--resume` is keyed on content (issue 15, item 3): every output record carries the SHA-256 of
 * its input line, and resuming with an input whose lines differ is refused with RESUME_MISMATCH
 * naming the first line that differs, before anything is written. The case from the issue: lines
 * without ids (their id is the line number) and one line inserted at the top, which the id check
 * of old let through, writing one document's results under another's id.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutputRecord } from "../../src/records/index.js";
import { readJsonl, scratchDir } from "../cli/support/harness.js";
import { PERSON_SCHEMA, runCliProcess, typedLine } from "./support/cli-process.js";

const BOUNDS = { maxRssMb: 600, maxMs: 60_000 };
const TEXTS = ["Alice is 31 years old.", "Bob is 40 years old.", "Carol is 22 years old.", "Dan is 57 years old."];

const writeLines = (path: string, texts: readonly string[]): string => {
  writeFileSync(path, texts.map((t) => `${JSON.stringify(t)}\n`).join(""));
  return path;
};
const run = (input: string, output: string, ...extra: string[]) =>
  runCliProcess(["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--quiet", ...extra], BOUNDS);

describe("--resume keyed on the input's content", () => {
  it("records carry the SHA-256 of their input line", async () => {
    const dir = scratchDir();
    const input = writeLines(join(dir, "in.jsonl"), TEXTS);
    const output = join(dir, "out.jsonl");
    expect([0, 1]).toContain((await run(input, output)).code);
    const lines = readFileSync(input, "utf8").split("\n");
    for (const r of readJsonl<OutputRecord>(output)) {
      expect(r.inputSha256).toBe(createHash("sha256").update(lines[r.line - 1]!).digest("hex"));
    }
  });

  it.each([
    ["a line inserted at the top", ["Zed is 99 years old.", ...TEXTS], "input line 1 differs"],
    ["a line changed in the middle", [TEXTS[0]!, TEXTS[1]!, "Carol is 23 years old.", TEXTS[3]!], "input line 3 differs"],
    ["a shorter input", TEXTS.slice(0, 2), "the input has only 2 lines, but the output holds a result for line 3"],
  ])("refuses %s with RESUME_MISMATCH naming the first mismatching line, output untouched", async (_, changed, message) => {
    const dir = scratchDir();
    const output = join(dir, "out.jsonl");
    expect([0, 1]).toContain((await run(writeLines(join(dir, "in.jsonl"), TEXTS), output)).code);
    const before = readFileSync(output);
    const outcome = await run(writeLines(join(dir, "changed.jsonl"), changed), output, "--resume");
    expect(outcome.code).toBe(2);
    const typed = typedLine(outcome);
    expect(typed, outcome.stderr).toMatchObject({ code: "RESUME_MISMATCH", path: join(dir, "changed.jsonl") });
    expect(typed!.message).toContain(message);
    expect(readFileSync(output).equals(before)).toBe(true);
  });

  it("resumes an unchanged input without redoing anything", async () => {
    const dir = scratchDir();
    const input = writeLines(join(dir, "in.jsonl"), TEXTS);
    const output = join(dir, "out.jsonl");
    await run(input, output);
    const before = readFileSync(output);
    expect([0, 1]).toContain((await run(input, output, "--resume")).code);
    expect(readFileSync(output).equals(before)).toBe(true);
  });
});
