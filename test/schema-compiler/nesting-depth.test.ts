/**
 * The nesting bounds of the automaton: how deep an unconstrained value may nest containers
 * (maxAnyValueDepth, per mode by default) and how deep a recursive `$ref` may go
 * (maxRecursionDepth). Each bound admits exactly its depth and refuses one level more, and an
 * out-of-range option is a typed OptionError, never a stack overflow reported as something else.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { OptionError } from "../../src/errors.js";
import { compileGrammar, type CompileGrammarOptions } from "../../src/mask/index.js";
import { compileSchema, DEFAULT_MAX_ANY_VALUE_DEPTH } from "../../src/schema-compiler/index.js";
import type { Vocabulary } from "../../src/tokens/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

let vocabulary: Vocabulary;
beforeAll(async () => {
  vocabulary = await fixtureVocabulary();
});

const encoder = new TextEncoder();

function accepts(schema: unknown, text: string, options: CompileGrammarOptions): boolean {
  const matcher = compileGrammar(schema, vocabulary, { ...options, cache: false }).tokens.matcher();
  return matcher.acceptBytes(encoder.encode(text)) && matcher.isComplete();
}

/** `depth` containers, alternating arrays and objects, around a number. */
function nested(depth: number): string {
  let text = "1";
  for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return text;
}

describe("containers inside an unconstrained value", () => {
  const free = { type: "object", properties: { a: {} }, required: ["a"], additionalProperties: false };

  it("admit the mode's default depth and refuse one more", () => {
    const extraction = DEFAULT_MAX_ANY_VALUE_DEPTH.extraction;
    expect(accepts(free, `{"a":${nested(extraction)}}`, { mode: "extraction", nullEscape: false })).toBe(true);
    expect(accepts(free, `{"a":${nested(extraction + 1)}}`, { mode: "extraction", nullEscape: false })).toBe(false);
    const jsonschema = DEFAULT_MAX_ANY_VALUE_DEPTH.jsonschema;
    expect(jsonschema).toBeGreaterThan(extraction);
    expect(accepts(free, `{"a":${nested(jsonschema)}}`, { mode: "jsonschema" })).toBe(true);
    expect(accepts(free, `{"a":${nested(jsonschema + 1)}}`, { mode: "jsonschema" })).toBe(false);
  });

  it("bounds additional properties in JSON Schema mode the same way", () => {
    const open = { type: "object", properties: { a: { type: "string" } } };
    const depth = DEFAULT_MAX_ANY_VALUE_DEPTH.jsonschema;
    expect(accepts(open, `{"a":"x","b":${nested(depth)}}`, { mode: "jsonschema" })).toBe(true);
    expect(accepts(open, `{"a":"x","b":${nested(depth + 1)}}`, { mode: "jsonschema" })).toBe(false);
  });

  it("follow an explicit maxAnyValueDepth, 0 meaning scalars only", () => {
    expect(accepts(free, '{"a":[{"a":[1]}]}', { mode: "jsonschema", maxAnyValueDepth: 3 })).toBe(true);
    expect(accepts(free, '{"a":[{"a":[[1]]}]}', { mode: "jsonschema", maxAnyValueDepth: 3 })).toBe(false);
    expect(accepts(free, '{"a":"x"}', { mode: "jsonschema", maxAnyValueDepth: 0 })).toBe(true);
    expect(accepts(free, '{"a":[]}', { mode: "jsonschema", maxAnyValueDepth: 0 })).toBe(false);
  });
});

describe("the levels of an unconstrained value", () => {
  it("are renamed once per process: compiles share them, and each compile holds all its levels", () => {
    const rulesOf = (maxAnyValueDepth: number) => compileSchema(true, { mode: "jsonschema", maxAnyValueDepth }).grammar.rules;
    const [first, second, deeper] = [rulesOf(3), rulesOf(3), rulesOf(5)];
    for (const name of ["any-value-0", "any-value-3", "json-3-object", "json-1-array"]) expect(second.get(name)).toBe(first.get(name));
    expect(deeper.get("json-3-object")).toBe(first.get("json-3-object"));
    expect([...deeper.keys()].filter((n) => n.startsWith("any-value-"))).toEqual(["any-value-0", "any-value-1", "any-value-2", "any-value-3", "any-value-4", "any-value-5"]);
  });
});

describe("recursion through $ref", () => {
  const tree = { $ref: "#/$defs/node", $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } }, additionalProperties: false } } };
  const levels = (n: number): string => (n === 0 ? '{"children":[]}' : `{"children":[${levels(n - 1)}]}`);

  it("admits maxRecursionDepth levels and refuses one more", () => {
    for (const depth of [0, 3]) {
      expect(accepts(tree, levels(depth), { mode: "jsonschema", maxRecursionDepth: depth })).toBe(true);
      expect(accepts(tree, levels(depth + 1), { mode: "jsonschema", maxRecursionDepth: depth })).toBe(false);
    }
  });
});

describe("out-of-range nesting options", () => {
  it.each([
    ["maxAnyValueDepth", -1],
    ["maxAnyValueDepth", 2.5],
    ["maxAnyValueDepth", 257],
    ["maxRecursionDepth", -1],
    ["maxRecursionDepth", Number.NaN],
    ["maxRecursionDepth", 257],
  ])("%s: %s is an OptionError naming the option and its range", (option, value) => {
    const compile = (): unknown => compileGrammar({ type: "object", properties: { a: {} } }, vocabulary, { mode: "jsonschema", cache: false, [option]: value });
    expect(compile).toThrow(OptionError);
    expect(compile).toThrow(new RegExp(`${option} must be an integer from 0 to 256`));
  });
});
