/**
 * How the MaskBench harness classifies a schema's instances: a format the grammar does not
 * enforce never lets an invalid instance count as "accepted by an enforcing grammar" (the four
 * instances the full corpus accepted: regex "*" and "\\", iri "not-an-iri", uri-template
 * "http://example.com/resource/{"), and a valid instance refused only for its key order is an
 * "order" rejection, apart from real completeness errors.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { parseJsonKeepingNumbers, pythonJsonDumps } from "../../bench/support/python-json.js";
import { compileUncached, evaluateFile, MASKBENCH_OPTIONS, type SchemaOutcome } from "../../bench/support/evaluate.js";
import { orderVerdict } from "../../bench/support/key-order.js";
import type { MaskbenchFile } from "../../bench/support/corpus.js";
import { compileValidator } from "../../src/validate/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

let vocabulary: Vocabulary;
beforeAll(async () => {
  vocabulary = await fixtureVocabulary();
});

function run(schema: unknown, tests: { valid: boolean; json: string }[], propertyOrder?: "declared"): SchemaOutcome {
  const file: MaskbenchFile = {
    name: "in-memory",
    schema,
    tests: tests.map((t, i) => {
      const data = parseJsonKeepingNumbers(t.json);
      return { valid: t.valid, description: `test ${i}`, text: pythonJsonDumps(data), data };
    }),
  };
  return evaluateFile(file, vocabulary, 60_000, { propertyOrder });
}

describe("formats the grammar does not enforce", () => {
  it.each([
    ["regex", ['"*"', '"\\\\"'], '"^a+$"'],
    ["iri", ['"not-an-iri"'], '"http://example.com/ŝ"'],
    ["uri-template", ['"http://example.com/resource/{"'], '"http://example.com/{id}"'],
  ])("%s: the schema is not counted as enforced, so no invalid instance is accepted by an enforcing grammar", (format, invalid, valid) => {
    const outcome = run({ type: "string", format }, [{ valid: true, json: valid }, ...invalid.map((json) => ({ valid: false, json }))]);
    expect(outcome.status).toBe("compile-error");
    expect(outcome.error?.code).toBe("GRAMMAR_CANNOT_ENFORCE");
    expect(outcome.validatedAfter).toContain("format");
    expect(outcome.invalidAccepted).toEqual([]);
  });

  it("regex and uri-template are checked after decoding (ajv-formats)", () => {
    expect(compileValidator({ type: "string", format: "regex" })("*")).toBe(false);
    expect(compileValidator({ type: "string", format: "regex" })("\\")).toBe(false);
    expect(compileValidator({ type: "string", format: "uri-template" })("http://example.com/resource/{")).toBe(false);
  });

  it("an enforced format rejects its invalid instances in the mask", () => {
    const outcome = run({ type: "string", format: "date" }, [
      { valid: true, json: '"2024-02-29"' },
      { valid: false, json: '"2023-02-29"' },
      { valid: false, json: '"2100-02-29"' },
    ]);
    expect(outcome.status).toBe("pass");
  });
});

describe("key order", () => {
  // Order rejections happen in the declared order (JSON Schema mode's any order has none within
  // its bounds), so the classifier is tested there.
  const DECLARED = { ...MASKBENCH_OPTIONS, propertyOrder: "declared" } as const;
  const schema = {
    type: "object",
    properties: { name: { type: "string" }, path: { type: "string" }, project: { type: "string" }, tags: { type: "array", items: { $ref: "#/$defs/tag" } } },
    required: ["name", "project"],
    $defs: { tag: { type: "object", properties: { key: { type: "string" }, value: { type: "integer" } }, required: ["key"] } },
  };

  it("a valid instance in the grammar's order passes; one in another order is an order rejection", () => {
    const outcome = run(schema, [
      { valid: true, json: '{"name": "w", "path": "./src", "project": "p"}' },
      { valid: true, json: '{"name": "w", "project": "p", "path": "./src"}' },
      { valid: true, json: '{"name": "w", "project": "p", "tags": [{"value": 1, "key": "k"}]}' },
    ], "declared");
    expect(outcome.validRejected).toEqual([]);
    expect(outcome.orderRejected.map((f) => f.index)).toEqual([1, 2]);
  });

  it("a valid instance refused for its content stays a real rejection, even with keys out of order", () => {
    // A leap second with a half-hour offset is valid but refused on purpose (grammars/datetime.gbnf).
    const outcome = run({ type: "object", properties: { a: { type: "integer" }, t: { type: "string", format: "time" } } }, [
      { valid: true, json: '{"t": "01:29:60+01:30", "a": 1}' },
      { valid: true, json: '{"t": "23:59:60Z", "a": 1}' },
    ], "declared");
    expect(outcome.validRejected.map((f) => f.index)).toEqual([0]);
    expect(outcome.orderRejected.map((f) => f.index)).toEqual([1]);
  });

  it("keys written as additional ones before the declared ones are found in the grammar's order within a small step budget", () => {
    // composer's schema: declared properties, any other key allowed after them. An instance that
    // opens with undeclared keys sends an unguided search through every placement of each
    // declared key as an additional one; the guided one tries first the key that keeps the most
    // other keys writable next.
    const names = Array.from({ length: 16 }, (_, i) => `p${String(i).padStart(2, "0")}`);
    const inner = { type: "object", properties: { a: { type: "integer" }, b: { type: "string" }, c: { type: "string" } }, required: ["c"] };
    const schema = { type: "object", properties: Object.fromEntries(names.map((n) => [n, n === "p07" ? inner : { type: "string" }])) };
    const entries = ['"$schema": "x"', '"title": "t"', ...[...names].reverse().map((n) => (n === "p07" ? `"${n}": {"c": "3", "b": "2", "a": 1}` : `"${n}": "${n}"`))];
    const data = parseJsonKeepingNumbers(`{${entries.join(", ")}}`);
    const compiled = compileUncached(schema, vocabulary, DECLARED);
    expect(orderVerdict(compiled.tokens.matcher(), data, 20_000, 60_000)).toBe("order");
  });

  it("nested objects each written out of order are found in the grammar's order within a small step budget", () => {
    // Github_medium---o9907: a valid document whose innermost object writes "id" before
    // "triggerId" was called a real rejection because each nesting level searched its values
    // twice (once to score a key, once to write it), 2^depth searches, past the time limit.
    const depth = 10;
    let schema: object = { type: "object", properties: { x: { type: "integer" }, y: { type: "integer" } } };
    let json = '{"y": 1, "x": 2}';
    for (let level = 0; level < depth; level++) {
      schema = { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" }, inner: schema } };
      json = `{"inner": ${json}, "b": 1, "a": 2}`;
    }
    const compiled = compileUncached(schema, vocabulary, DECLARED);
    expect(orderVerdict(compiled.tokens.matcher(), parseJsonKeepingNumbers(json), 5_000, 60_000)).toBe("order");
  });

  it("required names outside properties, written among pattern keys, are moved up to where the grammar wants them", () => {
    // Github_hard---o12335: optional declared keys, then required names that only patternProperties
    // cover, which the grammar writes right after the declared ones; the instance writes pattern
    // keys between them. Scoring put the last declared key first (a chain of required names follows
    // it), skipping the others, which were found missing only after every order of the pattern keys.
    const declared = Array.from({ length: 12 }, (_, i) => `d${String(i).padStart(2, "0")}`);
    const patterned = Array.from({ length: 12 }, (_, i) => `x:${i}`);
    const schema = {
      type: "object",
      properties: Object.fromEntries(declared.map((k) => [k, { type: "integer" }])),
      patternProperties: { "^x:[0-9]+$": { type: "integer" }, "^r:[0-9]$": { type: "integer" } },
      required: ["r:0", "r:1", "r:2"],
      additionalProperties: false,
    };
    const keys = [...declared, "r:0", ...patterned.slice(0, 6), "r:1", "r:2", ...patterned.slice(6)];
    const json = `{${keys.map((k, i) => `"${k}": ${i}`).join(", ")}}`;
    const compiled = compileUncached(schema, vocabulary, MASKBENCH_OPTIONS);
    expect(orderVerdict(compiled.tokens.matcher(), parseJsonKeepingNumbers(json), 20_000, 60_000)).toBe("order");
  });

  it("an optional key before a required one is written first, not found after every order of what follows", () => {
    // Github_hard---o66237: after the optional "editorScheme" only the required "ui" may come, so
    // counting only the keys writable next put "ui" first, and the search went through the orders
    // of a 42-key object further on before coming back.
    const inner = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    const schema = {
      type: "object",
      properties: { opt: { type: "string" }, req: { type: "integer" }, more: { type: "integer" }, inner: { type: "object", properties: Object.fromEntries(inner.map((k) => [k, { type: "integer" }])) }, last: { type: "integer" } },
      required: ["req"],
    };
    const json = `{"opt": "x", "req": 1, "more": 2, "inner": {${[...inner].reverse().map((k, i) => `"${k}": ${i}`).join(", ")}}, "last": 3}`;
    const compiled = compileUncached(schema, vocabulary, DECLARED);
    expect(orderVerdict(compiled.tokens.matcher(), parseJsonKeepingNumbers(json), 20_000, 60_000)).toBe("order");
  });
});
