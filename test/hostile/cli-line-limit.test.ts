/**
 * Hostile input to the CLI reader (issue 15, item 2): a 200 MB JSONL line, streamed through stdin
 * as it is generated (neither the test nor the CLI ever holds it), is refused with a typed
 * LINE_TOO_LONG record for its line while the lines around it are extracted: nothing lost, and
 * the process stays within a memory bound far below the line's size.
 */
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { OutputRecord } from "../../src/records/index.js";
import { readJsonl, scratchDir } from "../cli/support/harness.js";
import { PERSON_SCHEMA, startCli } from "./support/cli-process.js";

const MB = 1024 * 1024;
const LINE_MB = 200;
/** The CLI with its vocabulary loaded sits near 200 MB; the reader may add its 1.5 MB line limit. */
const MAX_RSS_MB = 450;
const MAX_MS = 120_000;
/** 6 x the SDK's 256 KiB text limit + 4096: the CLI's default line limit. */
const DEFAULT_LINE_LIMIT = 6 * 262_144 + 4096;

describe("CLI line reader: a 200 MB line", () => {
  it(`skips it unread with LINE_TOO_LONG, extracts the lines around it, peak RSS under ${MAX_RSS_MB} MB`, async () => {
    const output = join(scratchDir(), "out.jsonl");
    const cli = startCli(["run", "--schema", PERSON_SCHEMA, "--input", "-", "--output", output, "--quiet"], { maxRssMb: MAX_RSS_MB, maxMs: MAX_MS }, { stdin: "pipe" });
    const stdin = cli.stdin!;
    stdin.on("error", () => undefined); // a CLI that died early closes the pipe: the outcome says why
    const write = async (chunk: string | Buffer): Promise<void> => {
      if (!stdin.write(chunk)) await Promise.race([once(stdin, "drain"), cli.done]);
    };
    await write(`${JSON.stringify({ id: "before", text: "Alice is 31 years old." })}\n`);
    await write('{"id":"huge","text":"');
    const block = Buffer.alloc(MB, "a");
    for (let i = 0; i < LINE_MB && stdin.writable; i++) await write(block);
    await write('"}\n');
    await write(`${JSON.stringify({ id: "after", text: "Bob is 40 years old." })}\n`);
    stdin.end();
    const outcome = await cli.done;

    expect(outcome.killedFor, outcome.stderr).toBeUndefined();
    expect(outcome.stderr).not.toContain("internal error");
    expect([0, 1]).toContain(outcome.code);
    expect(outcome.peakRssMb).toBeLessThan(MAX_RSS_MB);
    const records = readJsonl<OutputRecord>(output);
    expect(records.map((r) => r.line).sort()).toEqual([1, 2, 3]);
    const byLine = new Map(records.map((r) => [r.line, r]));
    const huge = byLine.get(2)!;
    expect(huge.status).toBe("failed");
    expect(huge.error?.code).toBe("LINE_TOO_LONG");
    expect(huge.error?.message).toContain(`line 2 is ${LINE_MB * MB + '{"id":"huge","text":"'.length + 2} bytes, over --max-line-bytes ${DEFAULT_LINE_LIMIT}`);
    expect(huge.id).toBe(2); // never parsed: its id field was not read
    for (const line of [1, 3]) expect(byLine.get(line)!.error?.code).not.toBe("LINE_TOO_LONG");
    expect(byLine.get(1)!.id).toBe("before");
    expect(byLine.get(3)!.id).toBe("after");
  });
});

describe("CLI text limit (--max-text-bytes, the SDK's maxTextBytes)", () => {
  it("a line the reader accepts whose text is over the limit: TEXT_TOO_LONG for that line, the next one extracted", async () => {
    const dir = scratchDir();
    const input = join(dir, "in.jsonl");
    // 300 bytes of text, escaped as \n pairs: a 600-byte JSON string, well within the derived line limit (6 x 256 + 4096).
    writeFileSync(input, `${JSON.stringify({ id: "big", text: "\n".repeat(300) })}\n${JSON.stringify({ id: "small", text: "Alice is 31." })}\n`);
    const output = join(dir, "out.jsonl");
    const cli = startCli(["run", "--schema", PERSON_SCHEMA, "--input", input, "--output", output, "--quiet", "--max-text-bytes", "256"], { maxRssMb: MAX_RSS_MB, maxMs: MAX_MS });
    const outcome = await cli.done;
    expect(outcome.code, outcome.stderr).toBe(1);
    const byLine = new Map(readJsonl<OutputRecord>(output).map((r) => [r.line, r]));
    expect(byLine.get(1)).toMatchObject({ id: "big", status: "failed", error: { code: "TEXT_TOO_LONG" } });
    expect(byLine.get(2)?.error).toBeUndefined();
  });
});
