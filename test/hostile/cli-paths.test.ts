/**
 * `--report` and `--summary-json` may not name the input or the output (issue 15, item 4), nor
 * each other: not by the same path, not through a symbolic link (also a dangling one, which a
 * write would follow), not through a hard link. Each is refused with PATH_CONFLICT before any
 * write: the input and an existing output stay byte-identical, a fresh output is not created.
 */
import { existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../cli/support/harness.js";
import { PERSON_SCHEMA, runCliProcess, typedLine } from "./support/cli-process.js";

const BOUNDS = { maxRssMb: 600, maxMs: 60_000 };
const INPUT = `${JSON.stringify({ id: "a", text: "Alice is 31 years old." })}\n`;

type Layout = (dir: string) => { argv: string[]; conflict: string };

const CASES: [string, boolean, Layout][] = [
  ["--report = --output", false, (d) => ({ argv: ["--report", join(d, "out.jsonl")], conflict: "--report is the same file as --output" })],
  ["--summary-json = --input", false, (d) => ({ argv: ["--summary-json", join(d, "in.jsonl")], conflict: "--summary-json is the same file as --input" })],
  ["--report = --summary-json", false, (d) => ({ argv: ["--report", join(d, "r"), "--summary-json", join(d, "r")], conflict: "--summary-json is the same file as --report" })],
  ["--summary-json via ./.. = --output (resume)", true, (d) => ({ argv: ["--summary-json", `${d}/../${basename(d)}/./out.jsonl`], conflict: "--summary-json is the same file as --output" })],
  [
    "--report through a symlink to the input",
    false,
    (d) => {
      symlinkSync(join(d, "in.jsonl"), join(d, "link.html"));
      return { argv: ["--report", join(d, "link.html")], conflict: "--report is the same file as --input" };
    },
  ],
  [
    "--summary-json through a dangling symlink to the (not yet written) output",
    false,
    (d) => {
      symlinkSync(join(d, "out.jsonl"), join(d, "summary.json"));
      return { argv: ["--summary-json", join(d, "summary.json")], conflict: "--summary-json is the same file as --output" };
    },
  ],
  [
    "--report through a hard link to the output (resume)",
    true,
    (d) => {
      linkSync(join(d, "out.jsonl"), join(d, "hard.html"));
      return { argv: ["--report", join(d, "hard.html")], conflict: "--report is the same file as --output" };
    },
  ],
];

describe("report and summary paths distinct from input and output", () => {
  it.each(CASES)("%s: PATH_CONFLICT, exit 2, nothing written", async (_, resume, layout) => {
    const dir = scratchDir();
    const input = join(dir, "in.jsonl");
    const output = join(dir, "out.jsonl");
    writeFileSync(input, INPUT);
    const earlier = `${JSON.stringify({ line: 1, id: "a", inputSha256: "x", status: "failed", error: { code: "INTERNAL", message: "kept" } })}\n`;
    if (resume) writeFileSync(output, earlier);
    const { argv, conflict } = layout(dir);
    const outcome = await runCliProcess(["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--quiet", ...(resume ? ["--resume"] : []), ...argv], BOUNDS);
    expect(outcome.code).toBe(2);
    const typed = typedLine(outcome);
    expect(typed, outcome.stderr).toBeDefined();
    expect(typed!.code).toBe("PATH_CONFLICT");
    expect(typed!.message).toContain(conflict);
    expect(readFileSync(input, "utf8")).toBe(INPUT);
    if (resume) expect(readFileSync(output, "utf8")).toBe(earlier);
    else expect(existsSync(output)).toBe(false);
  });
});
