/**
 * The JSONL reader under awkward chunking: lines and multi-byte characters split across chunks,
 * CRLF, a last line without a newline (reported as not terminated, with its byte offset), a line
 * over the size limit (streamed past, counted and digested), and the content-line count that
 * drives the progress total.
 */
import { createHash } from "node:crypto";
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countContentLines, readLines, type Line, type ReadLinesOptions } from "../../src/records/jsonl.js";
import { scratchDir } from "../cli/support/harness.js";

async function collect(chunks: readonly Uint8Array[], options?: ReadLinesOptions): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of readLines((async function* () { yield* chunks; })(), options)) out.push(line);
  return out;
}

const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

describe("readLines", () => {
  it("reassembles lines and UTF-8 characters split across chunks at every byte", async () => {
    const bytes = Buffer.from('{"t":"价格😀"}\r\n\nsecond\n{"torn":');
    for (let cut = 1; cut < bytes.length; cut++) {
      const lines = await collect([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(lines.map((l) => [l.number, l.text, l.terminated, l.start])).toEqual([
        [1, '{"t":"价格😀"}', true, 0],
        [2, "", true, bytes.indexOf("\n") + 1],
        [3, "second", true, bytes.indexOf("second")],
        [4, '{"torn":', false, bytes.indexOf('{"torn"')],
      ]);
    }
  });

  it("streams past a line over maxLineBytes at every chunk cut: counted and digested, not kept; the next line intact", async () => {
    const long = "x".repeat(40);
    const bytes = Buffer.from(`short\n${long}\r\nafter\n${long}`);
    for (let cut = 1; cut < bytes.length; cut++) {
      const lines = await collect([bytes.subarray(0, cut), bytes.subarray(cut)], { maxLineBytes: 16 });
      expect(lines.map((l) => [l.number, l.text, l.oversized, l.bytes, l.terminated, l.sha256])).toEqual([
        [1, "short", false, 5, true, sha256("short")],
        [2, "", true, 41, true, sha256(`${long}\r`)],
        [3, "after", false, 5, true, sha256("after")],
        [4, "", true, 40, false, sha256(long)],
      ]);
    }
  });

  it("a line of exactly maxLineBytes is kept", async () => {
    const line = (await collect([Buffer.from("abcd\n")], { maxLineBytes: 4 }))[0]!;
    expect([line.text, line.oversized, line.sha256]).toEqual(["abcd", false, sha256("abcd")]);
  });

  it("yields nothing for an empty source and no extra line after a final newline", async () => {
    expect(await collect([])).toEqual([]);
    expect((await collect([Buffer.from("a\n")])).map((l) => l.text)).toEqual(["a"]);
  });
});

describe("countContentLines", () => {
  it("counts lines with content, including a last one without a newline", async () => {
    const path = join(scratchDir(), "in.jsonl");
    writeFileSync(path, "a\n\n  \t\r\nb\nc");
    expect(await countContentLines(createReadStream(path))).toBe(3);
    writeFileSync(path, "");
    expect(await countContentLines(createReadStream(path))).toBe(0);
  });
});
