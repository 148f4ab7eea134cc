/**
 * The three things `npm run fuzz` attacks, each as one case from a seed: `compileGrammar` on a
 * hostile schema; `extract` on a hostile schema, text and options with the random or the scripted
 * engine (the scripted one answering hostile JSON); and the CLI (`runCli` in-process, a scripted
 * engine, real files) on a hostile JSONL file, sometimes resumed. A case ends `ok`, `typed` (a
 * PocketExtractError with a code: the expected refusal), `crash` (anything else thrown, or the CLI's
 * "internal error") or `wrong` (it returned, but broke a promise: `extract` resolving to no result,
 * the CLI losing or doubling a line).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { runCli } from "../src/cli/main.js";
import { PocketExtractError } from "../src/errors.js";
import { createExtractor } from "../src/extract/index.js";
import { compileGrammar } from "../src/mask/index.js";
import { RandomEngine } from "../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../src/tokens/vocabulary.js";
import { draw, hostileJsonl, hostileOptions, hostileOutput, hostileSchema, hostileText, plausibleSchema } from "./arbitraries.js";

export const TARGETS = ["compile", "extract", "cli"] as const;
export type Target = (typeof TARGETS)[number];

export type CaseOutcome =
  | { readonly kind: "ok" }
  | { readonly kind: "typed"; readonly code: string }
  | { readonly kind: "crash"; readonly error: string }
  | { readonly kind: "wrong"; readonly what: string };

export async function runCase(target: Target, seed: number, vocabulary: Vocabulary): Promise<CaseOutcome> {
  try {
    switch (target) {
      case "compile":
        compileGrammar(draw(hostileSchema, seed), vocabulary);
        return { kind: "ok" };
      case "extract":
        return await extractCase(seed, vocabulary);
      case "cli":
        return await cliCase(seed, vocabulary);
    }
  } catch (err) {
    if (err instanceof PocketExtractError) return { kind: "typed", code: err.code };
    return { kind: "crash", error: describeError(err) };
  }
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `non-error thrown: ${String(err)}`;
  const frame = err.stack?.split("\n").find((l) => l.trim().startsWith("at ")) ?? "";
  return `${err.name}: ${err.message.slice(0, 300)} ${frame.trim()}`;
}

const extractInputs = fc.tuple(fc.oneof(hostileSchema, plausibleSchema), hostileText, hostileOutput, hostileOptions, fc.boolean());

async function extractCase(seed: number, vocabulary: Vocabulary): Promise<CaseOutcome> {
  const [schema, text, output, options, scripted] = draw(extractInputs, seed);
  const engine = scripted ? new ScriptedEngine({ vocabulary, script: output }) : new RandomEngine({ vocabulary, seed });
  const extractor = await createExtractor({ engine });
  try {
    const result = await extractor.extract(schema, text, options);
    if (typeof result !== "object" || result === null) return { kind: "wrong", what: `extract resolved to ${String(result)}` };
    if (typeof result.ok !== "boolean" || !Array.isArray(result.fields)) return { kind: "wrong", what: "extract resolved to a malformed result" };
    return { kind: "ok" };
  } finally {
    await extractor.dispose();
  }
}

const PERSON = { type: "object", properties: { name: { type: ["string", "null"] }, age: { type: ["integer", "null"] } }, required: ["name", "age"] };
const cliInputs = fc.tuple(hostileJsonl, hostileOutput, fc.constantFrom(8, 64, 1024, 16 * 1024, 8 * 1024 * 1024), fc.integer({ min: 1, max: 3 }), fc.constantFrom("fresh", "resume-again", "resume-garbage"));

async function cliCase(seed: number, vocabulary: Vocabulary): Promise<CaseOutcome> {
  const [bytes, answer, maxLineBytes, concurrency, mode] = draw(cliInputs, seed);
  const dir = mkdtempSync(join(tmpdir(), "pocket-fuzz-"));
  try {
    const schema = join(dir, "person.json");
    const input = join(dir, "in.jsonl");
    const output = join(dir, "out.jsonl");
    writeFileSync(schema, JSON.stringify(PERSON));
    writeFileSync(input, bytes);
    if (mode === "resume-garbage") writeFileSync(output, bytes);
    const run = async (resume: boolean): Promise<{ code: number; stderr: string }> => {
      let stderr = "";
      const io = { engine: new ScriptedEngine({ vocabulary, script: answer }), stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) } };
      const argv = ["run", "--schema", schema, "--input", input, "--output", output, "--quiet", "--max-line-bytes", String(maxLineBytes), "--concurrency", String(concurrency)];
      return { code: await runCli(resume ? [...argv, "--resume"] : argv, io), stderr };
    };
    const first = await run(mode !== "fresh");
    if (first.stderr.includes("internal error")) return { kind: "crash", error: first.stderr.slice(0, 400) };
    if (first.code === 2) return { kind: "typed", code: /^pocket-extract: ([A-Z_]+):/.exec(first.stderr)?.[1] ?? "USAGE" };
    const lost = checkOneRecordPerLine(bytes, maxLineBytes, readFileSync(output, "utf8"));
    if (lost) return { kind: "wrong", what: lost };
    if (mode === "resume-again") {
      const before = readFileSync(output, "utf8");
      const again = await run(true);
      if (again.code === 2 || again.stderr.includes("internal error")) return { kind: "wrong", what: `resuming a finished run failed: ${again.stderr.slice(0, 300)}` };
      if (readFileSync(output, "utf8") !== before) return { kind: "wrong", what: "resuming a finished run changed its output" };
    }
    return { kind: "ok" };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Undefined when the output holds exactly one record per non-blank input line; else what is off. */
function checkOneRecordPerLine(input: Uint8Array, maxLineBytes: number, output: string): string | undefined {
  const expected: number[] = [];
  const raw = Buffer.from(input);
  let start = 0;
  for (let number = 1; start < raw.length; number++) {
    const nl = raw.indexOf(0x0a, start);
    const line = raw.subarray(start, nl === -1 ? raw.length : nl);
    const content = line.length > maxLineBytes || new TextDecoder().decode(line).replace(/\r$/, "").trim() !== "";
    if (content) expected.push(number);
    if (nl === -1) break;
    start = nl + 1;
  }
  const got = output
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { line: number }).line)
    .sort((a, b) => a - b);
  return JSON.stringify(got) === JSON.stringify(expected) ? undefined : `output lines ${JSON.stringify(got).slice(0, 120)} for content lines ${JSON.stringify(expected).slice(0, 120)}`;
}
