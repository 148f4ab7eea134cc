/**
 * Serialized grammars (compiled.serialize / loadCompiledGrammar) on the 64K fixture vocabulary:
 * a loaded grammar gives the masks a fresh compile gives, on the documents it was serialized
 * after (served from the loaded tables and masks) and on random walks past them (which rebuild
 * the automaton from the source and replay the loaded states); and bytes that are not exactly
 * what this package, format and vocabulary wrote are a GrammarFileError, never a grammar.
 */
import * as zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { EXTRACTION_CASES } from "../../bench/support/extraction-set.js";
import { clearSharedAutomata } from "../../src/automaton/index.js";
import { GrammarFileError } from "../../src/errors.js";
import { compileGrammar, loadCompiledGrammar, type CompiledGrammar, type CompileGrammarOptions, type TokenGrammar } from "../../src/mask/index.js";
import { decodeGrammarFile, encodeGrammarFile, tableCrc32 } from "../../src/mask/grammar-file.js";
import type { RestoredAutomaton } from "../../src/mask/restored-automaton.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { hasBit, nthSetBit, popcount } from "../../src/util/bitset.js";
import { VERSION } from "../../src/version.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { bruteForceMask, firstDifference } from "../support/token-walk.js";

const FORMAT: CompileGrammarOptions = { mode: "jsonschema", format: "compact", cache: false };

/** The extraction set, plus a recursive schema (rules built state by state) and a long bounded
 *  pattern string (computed, not tabulated), in both compile modes. */
const CASES: { name: string; schema: unknown; texts: readonly string[]; options: CompileGrammarOptions }[] = [
  ...EXTRACTION_CASES.map((c) => ({ ...c, options: FORMAT })),
  { name: "person (extraction mode)", schema: EXTRACTION_CASES[0]!.schema, texts: [], options: { mode: "extraction", format: "compact", cache: false } },
  {
    name: "tree",
    schema: {
      $ref: "#/$defs/node",
      $defs: { node: { type: "object", properties: { label: { type: "string", maxLength: 8 }, children: { type: "array", items: { $ref: "#/$defs/node" }, maxItems: 4 } }, required: ["label"], additionalProperties: false } },
    },
    texts: ['{"label":"root","children":[{"label":"a","children":[{"label":"b"}]},{"label":"c"}]}'],
    options: FORMAT,
  },
  { name: "url", schema: { type: "string", pattern: "^https?://[a-z.]+/", maxLength: 300 }, texts: ['"https://example.org/a/b?c=1"'], options: FORMAT },
];

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

const rebuilt = (c: CompiledGrammar): boolean => (c.tokens.automaton as RestoredAutomaton).rebuilt;

/** Walks `ids` on every grammar in lockstep, expecting equal masks before each token. */
function expectSameMasksAlong(label: string, grammars: readonly TokenGrammar[], ids: readonly number[]): void {
  const matchers = grammars.map((g) => g.matcher());
  for (let i = 0; i <= ids.length; i++) {
    const reference = grammars[0]!.maskOf(matchers[0]!.state);
    for (let g = 1; g < grammars.length; g++) {
      const mask = grammars[g]!.maskOf(matchers[g]!.state);
      expect(firstDifference(reference, mask), `${label}: grammar ${g}, before token ${i}`).toBe(-1);
    }
    if (i === ids.length) break;
    for (const m of matchers) expect(m.accept(ids[i]!), `${label}: token ${i}`).toBe(true);
  }
}

/** A random document prefix: each token drawn from the reference grammar's mask, eos excluded. */
function randomWalk(grammar: TokenGrammar, seed: number, maxTokens: number): number[] {
  const random = mulberry32(seed);
  const matcher = grammar.matcher();
  const ids: number[] = [];
  while (ids.length < maxTokens) {
    const mask = grammar.maskOf(matcher.state).slice();
    for (const eos of grammar.index.eosIds) mask[eos >>> 5]! &= ~(1 << (eos & 31));
    const allowed = popcount(mask);
    if (allowed === 0) break;
    const id = nthSetBit(mask, Math.floor(random() * allowed));
    matcher.accept(id);
    ids.push(id);
  }
  return ids;
}

describe("masks after loading equal masks after compiling (64K vocabulary)", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const reference = compileGrammar(c.schema, vocab, c.options);
      const original = compileGrammar(c.schema, vocab, c.options);
      const docs = c.texts.map((t) => vocab.encode(t));
      const walks = [1, 2, 3, 4, 5, 6].map((seed) => randomWalk(reference.tokens, seed * 7919, 80));
      // Serialized right after compiling: (almost) nothing built, every step past it rebuilds.
      const atCompile = loadCompiledGrammar(original.serialize(), vocab);
      for (const ids of docs.length > 0 ? docs : walks.slice(0, 2)) expectSameMasksAlong(c.name, [original.tokens], ids);
      const warm = loadCompiledGrammar(original.serialize(), vocab);
      const bare = loadCompiledGrammar(original.serialize({ maxMasks: 0 }), vocab);
      expect(warm.tokens.stats().cachedMasks).toBe(original.tokens.stats().cachedMasks);
      expect(bare.tokens.stats().cachedMasks).toBe(0);

      // The documents it was serialized after: served from the loaded states and masks.
      for (const ids of docs) expectSameMasksAlong(c.name, [reference.tokens, warm.tokens, bare.tokens, atCompile.tokens], ids);
      if (docs.length > 0) expect(rebuilt(warm), "the serialized documents need no rebuild").toBe(false);
      const missesBefore = warm.tokens.stats().maskMisses;
      for (const ids of docs) expectSameMasksAlong(c.name, [warm.tokens], ids);
      expect(warm.tokens.stats().maskMisses, "a loaded grammar's documents are warm").toBe(missesBefore);

      // Random walks, past the loaded states.
      for (const ids of walks) expectSameMasksAlong(`${c.name} walk`, [reference.tokens, warm.tokens, bare.tokens, atCompile.tokens], ids);
      expect(rebuilt(atCompile)).toBe(true);

      // Serializing a loaded (and rebuilt) grammar again keeps it right.
      const again = loadCompiledGrammar(warm.serialize(), vocab);
      for (const ids of [...docs, ...walks]) expectSameMasksAlong(`${c.name} reloaded`, [reference.tokens, again.tokens], ids);

      // Brute force on a few loaded states: every token's bytes stepped through the automaton.
      const states = [...new Set(walks[0]!.slice(0, 12).map((_, i) => stateAfter(again.tokens, walks[0]!.slice(0, i))))].slice(0, 4);
      for (const s of states) expect(firstDifference(again.tokens.maskOf(s), bruteForceMask(again.tokens, s)), `${c.name} state ${s}`).toBe(-1);
    }, 120_000);
  }

  it("keeps the report, the JSON Schema and the grammar IR of the compile", () => {
    const original = compileGrammar(EXTRACTION_CASES[1]!.schema, vocab, { mode: "extraction", cache: false });
    const loaded = loadCompiledGrammar(original.serialize(), vocab);
    expect(loaded.report).toEqual(original.report);
    expect(loaded.jsonSchema).toEqual(original.jsonSchema);
    expect(loaded.grammar).toEqual(original.grammar);
  });

  it("serializes a GBNF grammar (no schema) and loads it", () => {
    const gbnf = 'root ::= "{\\"n\\":" [0-9]+ "}"';
    const original = compileGrammar(gbnf, vocab);
    const ids = vocab.encode('{"n":1234}');
    const loaded = loadCompiledGrammar(original.serialize(), vocab, { schema: gbnf });
    expectSameMasksAlong("gbnf", [original.tokens, loaded.tokens], ids);
    expect(loaded.jsonSchema).toBeUndefined();
  });
});

function stateAfter(grammar: TokenGrammar, ids: readonly number[]): number {
  const m = grammar.matcher();
  for (const id of ids) m.accept(id);
  return m.state;
}

describe("a grammar serialized by a process with other rules cached", () => {
  // Rules found in the process-wide cache count nothing against the eager budget, so a warm
  // build of a grammar just past it builds every rule and indexes its table by their coarser
  // byte classes; a cold rebuild of the same source reads finer ones off the grammar. The
  // rebuild takes the loaded classes instead of failing the load.
  const props: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) {
    const pattern = `^[a-${String.fromCharCode(99 + i)}]+$`;
    props[`field${i}`] = { type: "object", properties: { name: { type: "string", pattern }, value: { type: "integer", minimum: i, maximum: 1000 + i * 7 }, tags: { type: "array", items: { enum: [`t${i}`, `u${i}`] } } } };
  }
  const schema = { type: "object", properties: props };
  // Sized for the declared order's rules (any order makes other rules, past other budgets).
  const declared: CompileGrammarOptions = { ...FORMAT, propertyOrder: "declared" };

  it("loads in a process whose cache is cold, and masks equal a fresh compile's", () => {
    clearSharedAutomata();
    const cold = compileGrammar(schema, vocab, declared);
    const warm = compileGrammar(schema, vocab, declared);
    // The case this test is for: the two builds' classes differ.
    expect(warm.tokens.automaton.numClasses).toBeLessThan(cold.tokens.automaton.numClasses);
    const bytes = warm.serialize();
    clearSharedAutomata();
    const loaded = loadCompiledGrammar(bytes, vocab);
    for (const seed of [1, 2, 3]) {
      const ids = randomWalk(cold.tokens, seed * 104729, 60);
      expectSameMasksAlong("8 objects", [cold.tokens, loaded.tokens], ids);
    }
    expect(rebuilt(loaded), "the walks went past the serialized states").toBe(true);
  });
});

describe("bytes that are not this grammar are a GrammarFileError", () => {
  let compiled: CompiledGrammar;
  let bytes: Uint8Array;
  beforeAll(() => {
    compiled = compileGrammar(EXTRACTION_CASES[0]!.schema, vocab, FORMAT);
    for (const t of EXTRACTION_CASES[0]!.texts) expectSameMasksAlong("person", [compiled.tokens], vocab.encode(t));
    bytes = compiled.serialize();
  });

  /** The error loading throws (an assertion failure when it loads). */
  const failure = (load: () => unknown): GrammarFileError => {
    let thrown: unknown = "loaded without an error";
    try {
      load();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GrammarFileError);
    return thrown as GrammarFileError;
  };

  it("another vocabulary: GRAMMAR_FILE_MISMATCH naming both fingerprints", () => {
    const other = Object.create(vocab, { fingerprint: { value: "0123abcd" } }) as Vocabulary;
    const err = failure(() => loadCompiledGrammar(bytes, other));
    expect(err.code).toBe("GRAMMAR_FILE_MISMATCH");
    expect(err.check).toBe("vocabulary");
    expect(err.expected).toBe("0123abcd");
    expect(err.found).toBe(vocab.fingerprint);
    expect(err.message).toMatch(/another vocabulary.*compile the schema again/);
  });

  it("another package version or format version: GRAMMAR_FILE_MISMATCH", () => {
    const file = decodeGrammarFile(bytes, vocab.fingerprint);
    const older = encodeGrammarFile({ ...file, header: { ...file.header, packageVersion: "0.0.1" } });
    const err = failure(() => loadCompiledGrammar(older, vocab));
    expect([err.code, err.check, err.expected, err.found]).toEqual(["GRAMMAR_FILE_MISMATCH", "package-version", VERSION, "0.0.1"]);
    const otherFormat = bytes.slice();
    otherFormat[4] = 99;
    expect(failure(() => loadCompiledGrammar(otherFormat, vocab)).check).toBe("format-version");
  });

  it("another schema or other options than expected: GRAMMAR_FILE_MISMATCH", () => {
    const schema = EXTRACTION_CASES[0]!.schema;
    expect(() => loadCompiledGrammar(bytes, vocab, { schema, options: FORMAT })).not.toThrow();
    expect(failure(() => loadCompiledGrammar(bytes, vocab, { schema: EXTRACTION_CASES[1]!.schema, options: FORMAT })).check).toBe("source");
    expect(failure(() => loadCompiledGrammar(bytes, vocab, { schema, options: { ...FORMAT, format: "flexible" } })).check).toBe("source");
  });

  it("truncated at any length: GRAMMAR_FILE_INVALID", () => {
    const cuts = [0, 3, 16, 19, 64, bytes.length >> 1, bytes.length - 5, bytes.length - 1];
    for (const n of cuts) {
      const err = failure(() => loadCompiledGrammar(bytes.subarray(0, n), vocab));
      expect(err.code, `cut at ${n}`).toBe("GRAMMAR_FILE_INVALID");
    }
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(failure(() => loadCompiledGrammar(longer, vocab)).check).toBe("length");
  });

  it("any flipped bit (header, tables, masks, checksum): a typed error, never a grammar", () => {
    const random = mulberry32(19);
    const positions = [0, 5, 9, 13, 20, 100, bytes.length - 1, ...Array.from({ length: 300 }, () => Math.floor(random() * bytes.length))];
    for (const at of positions) {
      const flipped = bytes.slice();
      flipped[at]! ^= 1 << Math.floor(random() * 8);
      const err = failure(() => loadCompiledGrammar(flipped, vocab));
      expect(err.code, `byte ${at}`).toMatch(/^GRAMMAR_FILE_(INVALID|MISMATCH)$/);
    }
  });

  it("not a grammar at all: GRAMMAR_FILE_INVALID (magic)", () => {
    const text = new TextEncoder().encode("{\"this is\": \"json, not a serialized grammar\"}");
    expect(failure(() => loadCompiledGrammar(text, vocab)).check).toBe("magic");
  });

  it("reads unaligned bytes (a copy) and leaves the caller's bytes alone", () => {
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const loaded = loadCompiledGrammar(shifted.subarray(1), vocab);
    expectSameMasksAlong("unaligned", [compiled.tokens, loaded.tokens], vocab.encode(EXTRACTION_CASES[0]!.texts[0]!));
  });

  it("the JS CRC-32 (used where zlib lacks one) equals zlib's", () => {
    const random = mulberry32(7);
    for (const n of [0, 1, 7, 1000, 65_537]) {
      const data = Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      expect(tableCrc32(data)).toBe(zlib.crc32(data));
    }
  });

  it("the eos bit of a loaded grammar follows acceptance", () => {
    const loaded = loadCompiledGrammar(bytes, vocab);
    const m = loaded.tokens.matcher();
    for (const id of vocab.encode(EXTRACTION_CASES[0]!.texts[0]!)) m.accept(id);
    expect(hasBit(loaded.tokens.maskOf(m.state), vocab.eosIds[0]!)).toBe(true);
  });
});

describe("bytes made by hand (a valid checksum) cannot point outside the tables", () => {
  it("a transition past the last state is GRAMMAR_FILE_INVALID", () => {
    const compiled = compileGrammar(EXTRACTION_CASES[0]!.schema, vocab, FORMAT);
    compiled.tokens.maskOf(compiled.tokens.matcher().state);
    const file = decodeGrammarFile(compiled.serialize(), vocab.fingerprint);
    const trans = file.tables.trans.slice();
    trans[trans.findIndex((t) => t >= 0)] = file.tables.numStates;
    const crafted = encodeGrammarFile({ ...file, tables: { ...file.tables, trans } });
    expect(() => loadCompiledGrammar(crafted, vocab)).toThrow(/transition \d+ is out of range/);
    const narrow = encodeGrammarFile({ ...file, maskWords: file.maskWords - 1, masks: file.masks.map(([s, m]) => [s, m.subarray(1)] as const) });
    expect(() => loadCompiledGrammar(narrow, vocab)).toThrow(/another vocabulary width/);
  });
});
