/**
 * File errors of the CLI (issue 15, item 13): a missing file (ENOENT), an existing output
 * (EEXIST), a full disk (ENOSPC, written to /dev/full), a directory where a file is expected
 * (EISDIR), a permission refusal (EACCES, as an unprivileged user) and the disk filling up under
 * the output mid-run (ENOSPC on a tiny private tmpfs) each end the run with exit
 * code 2 and exactly one line on stderr: `pocket-extract: CODE: <path>: <option>: what; what to
 * do`. No stack trace, no "internal error".
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir, writeJsonl } from "../cli/support/harness.js";
import { PERSON_SCHEMA, RANDOM_CLI, runCliProcess, typedLine, type CliOutcome } from "./support/cli-process.js";

const BOUNDS = { maxRssMb: 600, maxMs: 60_000 };
const NOBODY = 65534;

interface Case {
  readonly argv: string[];
  readonly code: string;
  readonly path: string;
  /** A fragment of the advice. */
  readonly todo: string;
}

function layout(dir: string): { input: string; output: string } {
  const input = join(dir, "in.jsonl");
  writeFileSync(input, `${JSON.stringify({ id: "a", text: "Alice is 31 years old." })}\n`);
  return { input, output: join(dir, "out.jsonl") };
}

const run = (input: string, output: string, ...extra: string[]): string[] => ["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--quiet", ...extra];

const CASES: [string, (dir: string) => Case][] = [
  ["ENOENT: --input", (d) => ({ argv: run(join(d, "nope.jsonl"), join(d, "out.jsonl")), code: "FILE_NOT_FOUND", path: join(d, "nope.jsonl"), todo: "check the path" })],
  ["ENOENT: --schema", (d) => ({ argv: ["inspect", "--schema", join(d, "nope.ts")], code: "FILE_NOT_FOUND", path: join(d, "nope.ts"), todo: "check the path" })],
  ["ENOENT: --text-file", (d) => ({ argv: ["inspect", "--schema", PERSON_SCHEMA, "--text-file", join(d, "nope.txt")], code: "FILE_NOT_FOUND", path: join(d, "nope.txt"), todo: "check the path" })],
  ["ENOENT: --output in a missing folder", (d) => {
    const { input } = layout(d);
    return { argv: run(input, join(d, "no", "out.jsonl")), code: "FILE_NOT_FOUND", path: join(d, "no", "out.jsonl"), todo: "check the path" };
  }],
  ["EEXIST: --output without --resume", (d) => {
    const { input, output } = layout(d);
    writeFileSync(output, "");
    return { argv: run(input, output), code: "FILE_EXISTS", path: output, todo: "pass --resume" };
  }],
  ["ENOSPC: --summary-json /dev/full", (d) => {
    const { input, output } = layout(d);
    return { argv: run(input, output, "--summary-json", "/dev/full"), code: "DISK_FULL", path: "/dev/full", todo: `the results are complete in ${output}` };
  }],
  ["ENOSPC: --report /dev/full", (d) => {
    const { input, output } = layout(d);
    return { argv: run(input, output, "--report", "/dev/full"), code: "DISK_FULL", path: "/dev/full", todo: "free some space" };
  }],
  ["EISDIR: --summary-json <directory>", (d) => {
    const { input, output } = layout(d);
    mkdirSync(join(d, "sub"));
    return { argv: run(input, output, "--summary-json", join(d, "sub")), code: "FILE_IS_DIRECTORY", path: join(d, "sub"), todo: "give a file path" };
  }],
  ["EISDIR: --text-file <directory>", (d) => ({ argv: ["inspect", "--schema", PERSON_SCHEMA, "--text-file", d], code: "FILE_IS_DIRECTORY", path: d, todo: "give a file path" })],
];

function expectTypedLine(outcome: CliOutcome, expected: Case): void {
  expect(outcome.killedFor, outcome.stderr).toBeUndefined();
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).not.toContain("internal error");
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
  const typed = typedLine(outcome);
  expect(typed, outcome.stderr).toBeDefined();
  expect(typed!.code).toBe(expected.code);
  expect(typed!.path).toBe(expected.path);
  expect(typed!.message).toContain(expected.todo);
}

describe("CLI file errors: one typed line, exit 2", () => {
  it.each(CASES)("%s", async (_, make) => {
    const expected = make(scratchDir());
    expectTypedLine(await runCliProcess(expected.argv, BOUNDS), expected);
  });

  // The CLI runs as nobody: that needs root, and a checkout that nobody may read (a clone inside
  // a 0700 temporary folder is not).
  const asNobody = process.getuid?.() === 0 && spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(RANDOM_CLI)})`], { uid: NOBODY, gid: NOBODY }).status === 0;
  if (!asNobody) console.log("cli-file-errors: EACCES case SKIPPED (needs root and a checkout readable by the user nobody)");
  it.runIf(asNobody)("EACCES: --output in a folder the user may not write (run as nobody)", async () => {
    const dir = scratchDir();
    chmodSync(dir, 0o755); // root's, readable by all, writable by root only
    const { input, output } = layout(dir);
    chmodSync(input, 0o644);
    const outcome = await runCliProcess(run(input, output), BOUNDS, { uid: NOBODY, gid: NOBODY, env: { HOME: "/tmp" } });
    expectTypedLine(outcome, { argv: [], code: "FILE_ACCESS", path: output, todo: "permissions" });
  });
});

/** `unshare -m` gives the child a private mount namespace: a tiny tmpfs only it sees, gone with it. */
const canMount = process.getuid?.() === 0 && spawnSync("unshare", ["-m", "true"]).status === 0;

describe("CLI out of disk space while writing the output", () => {
  it.runIf(canMount)("ENOSPC mid-run on --output: DISK_FULL, one typed line saying to free space and --resume; complete lines intact", async () => {
    const dir = scratchDir();
    const disk = join(dir, "disk");
    mkdirSync(disk);
    const input = writeJsonl(
      join(dir, "in.jsonl"),
      Array.from({ length: 200 }, (_, i) => ({ id: `doc-${i}`, text: `Person ${i} is called Name${i} and is ${20 + (i % 50)} years old.` })),
    );
    const output = join(disk, "out.jsonl");
    const kept = join(dir, "kept.jsonl");
    const argv = ["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--quiet"];
    // 48 KiB of disk: a few dozen records fit, then the disk is full. The output is copied out before the namespace ends.
    const outcome = await runCliProcess(argv, BOUNDS, {
      wrap: (command) => ["unshare", "-m", "sh", "-c", `mount -t tmpfs -o size=48k tmpfs ${disk} && { "$@"; code=$?; cp ${output} ${kept}; exit $code; }`, "sh", ...command],
    });
    expectTypedLine(outcome, { argv, code: "DISK_FULL", path: output, todo: "free some space, then rerun with --resume to finish" });
    const text = readFileSync(kept, "utf8");
    const complete = text.slice(0, text.lastIndexOf("\n") + 1).split("\n").slice(0, -1);
    expect(complete.length).toBeGreaterThan(0);
    complete.forEach((line) => JSON.parse(line));
  });
});
