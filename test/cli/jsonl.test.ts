/**
 * The JSONL reader under awkward chunking: lines and multi-byte characters split across chunks,
 * CRLF, a last line without a newline (reported as not terminated, with its byte offset), and the
 * content-line count that drives the progress total.
 */
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countContentLines, readLines, type Line } from "../../src/cli/jsonl.js";
import { scratchDir } from "./support/harness.js";

async function collect(chunks: readonly Uint8Array[]): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of readLines((async function* () { yield* chunks; })())) out.push(line);
  return out;
}

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
