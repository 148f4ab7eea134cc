/**
 * Nothing lost, nothing doubled: the CLI runs as a real process (RandomEngine in place of the
 * model, see support/random-cli.ts) and is SIGKILLed at random points many times, resuming each
 * time; the final output must hold exactly one parseable line per input id. Also SIGINT from the
 * outside: the process finishes its in-flight document, exits 130 with a summary, and resume ends
 * the job.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import type { OutputRecord } from "../../src/records/index.js";
import { FIXTURES, ROOT, readJsonl, scratchDir, startTsx, writeJsonl } from "./support/harness.js";

const RANDOM_CLI = join(ROOT, "test/cli/support/random-cli.ts");
const SCHEMA = join(FIXTURES, "order.ts#Person");
const DOCS = 60;
const KILLS = 10;

const newlines = (path: string): number => {
  try {
    return readFileSync(path).reduce((n, b) => (b === 0x0a ? n + 1 : n), 0);
  } catch {
    return 0;
  }
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function input(dir: string): string {
  return writeJsonl(
    join(dir, "in.jsonl"),
    Array.from({ length: DOCS }, (_, i) => ({ id: `doc-${i}`, text: `Person number ${i} is called Name${i} and is ${20 + (i % 50)} years old.` })),
  );
}

describe("kill and resume (subprocess)", () => {
  it(`SIGKILL at ${KILLS} random points, resume each time: exactly one line per input id`, async () => {
    const dir = scratchDir();
    const inputPath = input(dir);
    const output = join(dir, "out.jsonl");
    const random = mulberry32(20261129);
    const killedAfter: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      const before = newlines(output);
      const args = ["run", "--schema", SCHEMA, "--input", inputPath, "--output", output, "--resume", "--quiet", "--concurrency", String(1 + (i % 3))];
      const { child, exited } = startTsx(RANDOM_CLI, args, { POCKET_TEST_STEP_DELAY_MS: "2", POCKET_TEST_SEED: String(i) });
      // Kill after 0..4 new lines plus 0..80 ms: mid-document, between documents, or mid-start.
      const lines = Math.floor(random() * 5);
      const jitter = Math.floor(random() * 80);
      let ended = false;
      void exited.then(() => (ended = true));
      while (!ended && newlines(output) < before + lines) await sleep(10);
      await sleep(jitter);
      child.kill("SIGKILL");
      const end = await exited;
      killedAfter.push(newlines(output) - before);
      if (end.signal !== "SIGKILL") expect(end.code, end.stderr).toBe(1); // it finished before the kill
      // Whatever the kill hit, every complete line parses (a torn tail is for resume to cut).
      const text = readFileSync(output, "utf8");
      text.slice(0, text.lastIndexOf("\n") + 1).split("\n").slice(0, -1).forEach((l) => JSON.parse(l));
    }
    const final = await startTsx(RANDOM_CLI, ["run", "--schema", SCHEMA, "--input", inputPath, "--output", output, "--resume", "--summary-json", join(dir, "s.json")]).exited;
    expect(final.code, final.stderr).toBe(1); // random outputs: some documents do not satisfy the schema
    const records = readJsonl<OutputRecord>(output);
    const ids = records.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Array.from({ length: DOCS }, (_, i) => `doc-${i}`).sort());
    for (const r of records) expect(["ok", "missing", "fabricated", "invalid", "failed"]).toContain(r.status);
    expect(records.filter((r) => r.status === "failed")).toEqual([]);
    const summary = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(summary.documents.total).toBe(DOCS);
    // The kills landed while documents were being written, not only before the first one.
    expect(killedAfter.filter((n) => n > 0).length, `lines written per killed run: ${killedAfter}`).toBeGreaterThanOrEqual(KILLS / 2);
    console.log(`kill-resume: lines written per killed run ${killedAfter.join(",")}; final run wrote ${summary.thisRun.documents}`);
  }, 900_000);

  it("SIGINT from outside: in-flight document finished, exit 130, summary written; resume completes", async () => {
    const dir = scratchDir();
    const inputPath = input(dir);
    const output = join(dir, "out.jsonl");
    const args = ["run", "--schema", SCHEMA, "--input", inputPath, "--output", output, "--summary-json", join(dir, "s.json")];
    const { child, exited } = startTsx(RANDOM_CLI, args, { POCKET_TEST_STEP_DELAY_MS: "5" });
    while (newlines(output) < 3) await sleep(10);
    child.kill("SIGINT");
    const end = await exited;
    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toContain("SIGINT: finishing 1 in-flight document(s)");
    expect(end.stderr).toContain("interrupted by SIGINT");
    const written = readJsonl<OutputRecord>(output);
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.length).toBeLessThan(DOCS);
    expect(JSON.parse(readFileSync(join(dir, "s.json"), "utf8"))).toMatchObject({ interrupted: "SIGINT", exitCode: 130, documents: { total: written.length } });
    const resumed = await startTsx(RANDOM_CLI, [...args.slice(0, -2), "--resume", "--quiet"]).exited;
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(readJsonl<OutputRecord>(output).map((r) => r.line).sort((a, b) => a - b)).toEqual(Array.from({ length: DOCS }, (_, i) => i + 1));
  }, 300_000);
});
