/**
 * `pocket-extract inspect` prints GBNF that llama.cpp loads: the grammar section of its output is
 * given to node-llama-cpp's grammar parser (llama.cpp's own) and matched against sample documents;
 * a widening (a constraint plain GBNF cannot state) is announced in the section's first lines.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { FIXTURES, captureIo, scratchDir } from "./support/harness.js";

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

async function inspectGbnf(schema: string): Promise<string> {
  const io = captureIo(new ScriptedEngine({ vocabulary: vocab, script: "{}" }));
  expect(await runCli(["inspect", "--schema", schema], io)).toBe(0);
  const out = io.out();
  return out.slice(out.indexOf("== grammar (GBNF)\n") + "== grammar (GBNF)\n".length, out.indexOf("\n\n== prompt"));
}

/** llama.cpp's verdict on complete texts under `gbnf` (node-llama-cpp's internal matcher). */
async function llamaMatcher(gbnf: string): Promise<(text: string) => boolean> {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
  const grammar = await llama.createGrammar({ grammar: gbnf });
  const addon = (grammar as unknown as { _grammar: { isTextCompatible(text: string): boolean } })._grammar;
  return (text) => addon.isTextCompatible(text);
}

describe("inspect: GBNF for llama.cpp", () => {
  it("the Order schema's grammar loads in llama.cpp and matches like ours", async () => {
    const gbnf = await inspectGbnf(join(FIXTURES, "order.ts#Order"));
    expect(gbnf).not.toContain("%json-string");
    expect(gbnf).not.toMatch(/^#/);
    const accepts = await llamaMatcher(gbnf);
    expect(accepts('{"product":"笔记本电脑","quantity":3,"price":null}')).toBe(true);
    expect(accepts('{"product":"laptop","quantity":0,"price":null}')).toBe(false);
    expect(accepts(`{"product":"${"x".repeat(201)}","quantity":3,"price":null}`)).toBe(false);
  });

  it("a widening is announced at the top of the grammar section", async () => {
    const schema = join(scratchDir(), "code.json");
    writeFileSync(schema, JSON.stringify({ type: "object", properties: { code: { type: "string", pattern: "[0-9]|x", maxLength: 4 } }, required: ["code"], additionalProperties: false }));
    const gbnf = await inspectGbnf(schema);
    expect(gbnf.split("\n")[0]).toMatch(/^# APPROXIMATION: /);
    expect(gbnf).toContain('length 0..4 not enforced on pattern "[0-9]|x"');
    const accepts = await llamaMatcher(gbnf);
    expect(accepts('{"code":"a1"}')).toBe(true);
    expect(accepts('{"code":"abc"}')).toBe(false);
  });
});
