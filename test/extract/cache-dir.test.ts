/**
 * createExtractor's `cacheDir` through the native llama.cpp engine on the tiny GGUF: the first
 * process compiles and writes the grammar (with the masks of its first document), a restarted
 * one (here: a copy of the directory, which no in-memory cache knows) loads it and decodes the
 * same document without building a state or computing a mask; a corrupt file is reported,
 * recompiled and overwritten; an unwritable directory is reported and extraction goes on.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { createExtractor, type Extractor } from "../../src/index.js";
import { loadCompiledGrammar, type GrammarCacheWarning } from "../../src/mask/index.js";
import { decodeGrammarFile } from "../../src/mask/grammar-file.js";
import { RestoredAutomaton } from "../../src/mask/restored-automaton.js";
import { OptionError } from "../../src/errors.js";

const Order = z.object({ customer: z.string().max(20), quantity: z.number().int().min(1).max(99), paid: z.boolean() });
const TEXT = "王小明购买了 3 件商品，已付款。";

let first: Extractor;
let dir: string;
let firstRaw: string;
const grammarFiles = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith(".grammar"));
const scratch = (): string => mkdtempSync(join(tmpdir(), "pocket-cache-dir-"));

beforeAll(async () => {
  dir = join(scratch(), "grammars"); // created by the first write
  first = await createExtractor({ model: await ensureGgufFixture("tiny"), maxTokens: 48, cacheDir: dir });
  firstRaw = (await first.extract(Order, TEXT)).raw;
}, 120_000);
afterAll(async () => {
  await first?.dispose();
});

describe("cacheDir with the llama.cpp engine", () => {
  it("the first process writes one grammar file, holding the masks of its first document", () => {
    const files = grammarFiles(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d+\.\d+\.\d+-[0-9a-f]{32}\.grammar$/);
    const file = decodeGrammarFile(readFileSync(join(dir, files[0]!)), first.engine.vocabulary.fingerprint);
    expect(file.masks.length).toBeGreaterThan(0);
    expect(file.tables.numStates).toBeGreaterThan(1);
  });

  it("a restarted extractor loads it and decodes the same document warm, with the same output", async () => {
    const restarted = join(scratch(), "grammars");
    cpSync(dir, restarted, { recursive: true });
    const warnings: GrammarCacheWarning[] = [];
    const second = await createExtractor({ engine: first.engine, maxTokens: 48, cacheDir: restarted, onCacheWarning: (w) => warnings.push(w) });
    const compiled = second.compile(Order);
    expect(compiled.tokens.automaton).toBeInstanceOf(RestoredAutomaton);
    const missesBefore = compiled.tokens.stats().maskMisses;
    const r = await second.extract(Order, TEXT);
    expect(r.raw).toBe(firstRaw);
    expect(r.ok, JSON.stringify(r.issues)).toBe(true);
    // Every state and mask the document needed was in the file.
    expect((compiled.tokens.automaton as RestoredAutomaton).rebuilt).toBe(false);
    expect(compiled.tokens.stats().maskMisses).toBe(missesBefore);
    expect(warnings).toEqual([]);
  });

  it("a corrupt file is reported, recompiled and overwritten; the extraction goes on", async () => {
    const corrupt = join(scratch(), "grammars");
    cpSync(dir, corrupt, { recursive: true });
    const path = join(corrupt, grammarFiles(corrupt)[0]!);
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1]! ^= 0x10;
    writeFileSync(path, bytes);
    const warnings: GrammarCacheWarning[] = [];
    const third = await createExtractor({ engine: first.engine, maxTokens: 48, cacheDir: corrupt, onCacheWarning: (w) => warnings.push(w) });
    const r = await third.extract(Order, TEXT);
    expect(r.raw).toBe(firstRaw);
    expect(warnings.map((w) => [w.action, w.error.code, w.file])).toEqual([["recompiled", "GRAMMAR_FILE_INVALID", path]]);
    expect(() => loadCompiledGrammar(readFileSync(path), first.engine.vocabulary)).not.toThrow();
  });

  it("a directory that cannot be written is reported, and the extraction goes on", async () => {
    const blocker = join(scratch(), "a-file");
    writeFileSync(blocker, "not a directory");
    const warnings: GrammarCacheWarning[] = [];
    const fourth = await createExtractor({ engine: first.engine, maxTokens: 48, cacheDir: join(blocker, "grammars"), onCacheWarning: (w) => warnings.push(w) });
    const r = await fourth.extract(z.object({ note: z.string().max(10) }), TEXT);
    expect(r.raw.length).toBeGreaterThan(0);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.map((w) => [w.action, w.error.code])).toContainEqual(["not-written", "FILE_IO"]);
    // Reading the file there fails too (not a directory): reported, and compiled instead.
    expect(warnings[0]!.action).toBe("recompiled");
    expect(warnings.every((w) => w.error.code === "FILE_IO" && w.error.message.includes("check the cacheDir directory"))).toBe(true);
  });

  it("cacheDir must be a non-empty string", async () => {
    await expect(createExtractor({ engine: first.engine, cacheDir: "" })).rejects.toBeInstanceOf(OptionError);
  });
});
