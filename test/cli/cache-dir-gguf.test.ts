/**
 * --cache-dir end to end: `pocket-extract run` as a subprocess on the tiny GGUF fixture, run twice
 * over the same input (the second run loads the grammar file the first wrote: a miss would
 * rewrite it), then once over a corrupt file (a warning on stderr, the file rewritten); and the
 * option as serve and worker parse it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";
import { parseServingArgs } from "../../src/cli/serving-args.js";
import type { ResultRecord } from "../../src/records/index.js";
import { FIXTURES, ROOT, readJsonl, scratchDir, startTsx, writeJsonl } from "./support/harness.js";

const BIN = join(ROOT, "src/cli/index.ts");
const SCHEMA = join(FIXTURES, "order.ts#Person");
let model: string;

beforeAll(async () => {
  model = await ensureGgufFixture("tiny");
});

describe("run --cache-dir on the tiny GGUF model", () => {
  it("the second run loads the grammar the first wrote; a corrupt one is reported and rewritten", async () => {
    const dir = scratchDir();
    const cache = join(dir, "grammars");
    const input = writeJsonl(join(dir, "in.jsonl"), ["Alice is 31 years old.", "王小明今年二十岁。"].map((text, i) => ({ id: `t${i}`, text })));
    const run = async (output: string): Promise<{ raws: string[]; stderr: string }> => {
      const end = await startTsx(BIN, ["run", "--schema", SCHEMA, "--model", model, "--input", input, "--output", join(dir, output), "--max-tokens", "32", "--cache-dir", cache, "--quiet"]).exited;
      expect([0, 1], end.stderr).toContain(end.code);
      const records = readJsonl<ResultRecord>(join(dir, output));
      return { raws: records.sort((a, b) => String(a.id).localeCompare(String(b.id))).map((r) => r.raw), stderr: end.stderr };
    };

    const first = await run("out1.jsonl");
    const files = readdirSync(cache).filter((f) => f.endsWith(".grammar"));
    expect(files).toHaveLength(1);
    const path = join(cache, files[0]!);
    const written = statSync(path);

    const second = await run("out2.jsonl");
    expect(second.raws).toEqual(first.raws);
    expect(second.stderr).not.toMatch(/warning/);
    // Not rewritten (a write renames a new file over it): loaded, and no document grew it.
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    expect(readdirSync(cache)).toEqual(files);

    const bytes = readFileSync(path);
    bytes[100]! ^= 0x04;
    writeFileSync(path, bytes);
    const third = await run("out3.jsonl");
    expect(third.raws).toEqual(first.raws);
    expect(third.stderr).toMatch(/warning: --cache-dir .*\.grammar: GRAMMAR_FILE_INVALID: .*checksum.* \(recompiled\)/);
    expect(readFileSync(path).equals(bytes)).toBe(false);
  }, 300_000);
});

describe("--cache-dir parsing", () => {
  it("run, serve and worker take it; it must not be empty", () => {
    const run = parseCliArgs(["run", "--schema", "s.json", "--model", "m.gguf", "--input", "i", "--output", "o", "--cache-dir", "/tmp/g"]);
    expect(run.command === "run" && run.cacheDir).toBe("/tmp/g");
    expect(parseServingArgs(["serve", "--model", "m.gguf", "--cache-dir", "g"])).toMatchObject({ cacheDir: "g" });
    expect(parseServingArgs(["worker", "--model", "m.gguf", "--queue", "q", "--cache-dir", "g"])).toMatchObject({ cacheDir: "g" });
    expect(() => parseCliArgs(["run", "--schema", "s.json", "--model", "m.gguf", "--input", "i", "--output", "o", "--cache-dir", ""])).toThrow(UsageError);
    expect(() => parseServingArgs(["serve", "--model", "m.gguf", "--cache-dir", ""])).toThrow(UsageError);
    expect(() => parseCliArgs(["inspect", "--schema", "s.json", "--cache-dir", "g"])).toThrow(/not an option of "inspect"/);
  });
});
