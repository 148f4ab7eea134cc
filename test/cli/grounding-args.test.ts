/**
 * The CLI's grounding options (--date-order, --currency, --no-number-suffixes) in-process through
 * `runCli` with a ScriptedEngine: they change the statuses in the output lines, and bad values
 * are usage errors (exit 2) before any document is read.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import type { ResultRecord } from "../../src/records/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { captureIo, readJsonl, scratchDir, writeJsonl } from "./support/harness.js";

const SCHEMA = {
  type: "object",
  properties: { date: { type: "string" }, amount: { type: "number" }, paid: { type: "string" } },
  required: ["date", "amount", "paid"],
  additionalProperties: false,
};
const TEXT = "Invoice settled 04/10/2026: 1.2M paid in full.";
const ANSWER = '{"date":"2026-10-04","amount":1200000,"paid":"€1.2M"}';

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

async function runWith(...extra: string[]): Promise<{ code: number; fields?: Record<string, string>; err: string }> {
  const dir = scratchDir();
  const schema = join(dir, "schema.json");
  writeFileSync(schema, JSON.stringify(SCHEMA));
  const input = writeJsonl(join(dir, "in.jsonl"), [{ id: "a", text: TEXT }]);
  const output = join(dir, "out.jsonl");
  const io = captureIo(new ScriptedEngine({ vocabulary: vocab, script: ANSWER }));
  const code = await runCli(["run", "--schema", schema, "--input", input, "--output", output, "--quiet", ...extra], io);
  if (code === 2) return { code, err: io.err() };
  const record = readJsonl<ResultRecord>(output)[0]!;
  return { code, fields: Object.fromEntries(record.fields.map((f) => [f.pointer, f.status])), err: io.err() };
}

describe("run: grounding options", () => {
  it("defaults: English month first, bare amounts in USD", async () => {
    expect((await runWith()).fields).toEqual({ "/date": "fabricated", "/amount": "found", "/paid": "fabricated" });
  });

  it("--date-order dmy --currency EUR", async () => {
    expect((await runWith("--date-order", "dmy", "--currency", "eur")).fields).toEqual({ "/date": "found", "/amount": "found", "/paid": "found" });
  });

  it("--currency none and --no-number-suffixes", async () => {
    expect((await runWith("--currency", "none")).fields).toEqual({ "/date": "fabricated", "/amount": "found", "/paid": "found" });
    expect((await runWith("--currency", "none", "--no-number-suffixes")).fields).toEqual({ "/date": "fabricated", "/amount": "fabricated", "/paid": "fabricated" });
  });

  it.each([
    [["--date-order", "yyyy"], /--date-order must be one of auto, dmy, mdy, ymd, any/],
    [["--currency", "dollars"], /--currency must be a three-letter ISO 4217 code/],
  ])("%j is a usage error", async (args, message) => {
    const r = await runWith(...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
