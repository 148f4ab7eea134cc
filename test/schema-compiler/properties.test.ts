/**
 * Property tests: random schemas built only from keywords the grammar enforces; instances
 * generated from them must be accepted byte by byte; mutated instances must be accepted exactly
 * when ajv says they are valid (so "mutation made it invalid" is judged by an independent
 * validator, not assumed). Automaton and reference matcher must agree throughout.
 */

import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptor, orderBySchema } from "./support/accept.js";

type Schema = Record<string, unknown>;

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.tuple(fc.nat(3), fc.nat(4)).map(([a, b]) => ({ type: "string", minLength: a, maxLength: a + b })),
  fc.tuple(fc.integer({ min: -300, max: 300 }), fc.nat(1200)).map(([lo, span]) => ({ type: "integer", minimum: lo, maximum: lo + span })),
  fc.uniqueArray(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.constant(null)), { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }).map((values) => ({ enum: values })),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
);

const schemaArb: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 2, depthIdentifier: "schema" },
    leaf,
    fc
      .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), tie("node"), fc.boolean()), { minLength: 1, maxLength: 4, selector: (t) => t[0] })
      .map((props) => ({
        type: "object",
        properties: Object.fromEntries(props.map(([k, s]) => [k, s])),
        required: props.filter(([, , r]) => r).map(([k]) => k),
        additionalProperties: false,
      })),
    fc.tuple(tie("node"), fc.nat(2), fc.nat(3)).map(([items, min, extra]) => ({ type: "array", items, minItems: min, maxItems: min + extra })),
  ),
})).node;

function instanceOf(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "string":
      return fc.string({ unit: "binary", minLength: schema.minLength as number, maxLength: schema.maxLength as number });
    case "integer":
      return fc.integer({ min: schema.minimum as number, max: schema.maximum as number });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(instanceOf(schema.items as Schema), { minLength: schema.minItems as number, maxLength: schema.maxItems as number });
    default: {
      const props = schema.properties as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, instanceOf(s)]));
      return fc.record(model, { requiredKeys: schema.required as string[] });
    }
  }
}

const replacement = fc.constantFrom<unknown>(null, 0, -1, 100000, 1.5, "", "zzzzzzzzz", true, [], {}, [1]);

/** Replaces the n-th node of the value (pre-order), deletes it, or adds a key, by `how`. */
function mutate(value: unknown, n: number, how: number, repl: unknown): unknown {
  let i = 0;
  const walk = (v: unknown): unknown => {
    if (i++ === n) {
      if (how === 1 && typeof v === "object" && v !== null && !Array.isArray(v)) {
        const keys = Object.keys(v);
        if (keys.length > 0) return Object.fromEntries(Object.entries(v).filter(([k]) => k !== keys[0]));
      }
      if (how === 2 && typeof v === "object" && v !== null && !Array.isArray(v)) return { ...v, zz: repl };
      if (how === 2 && Array.isArray(v)) return [...v, repl];
      return repl;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

describe("generated schemas", () => {
  it("valid instances are accepted and mutated instances follow ajv", () => {
    const ajv = new Ajv({ strict: false });
    fc.assert(
      fc.property(
        schemaArb.chain((schema) =>
          fc.tuple(fc.constant(schema), fc.array(instanceOf(schema), { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(12), fc.nat(2), replacement), { minLength: 1, maxLength: 4 })),
        ),
        ([schema, instances, mutations]) => {
          const validate = ajv.compile(schema);
          for (const format of ["compact", "flexible"] as const) {
            const acc = acceptor(schema, { mode: "jsonschema", format });
            const show = (v: unknown) => (format === "compact" ? JSON.stringify(v) : JSON.stringify(v, null, 2));
            for (const inst of instances) {
              const text = show(orderBySchema(inst, schema));
              expect({ text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ text, dfa: true, ref: true });
            }
            mutations.forEach(([n, how, repl], i) => {
              const mutated = mutate(instances[i % instances.length], n, how, repl);
              const expected = validate(mutated);
              const text = show(orderBySchema(mutated, schema));
              expect({ text, dfa: acc.dfa(text), ref: acc.ref(text) }).toEqual({ text, dfa: expected, ref: expected });
            });
          }
        },
      ),
      { numRuns: 40, seed: 20261129 },
    );
  });
});
