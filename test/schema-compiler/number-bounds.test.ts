/**
 * Number bounds (minimum, maximum, exclusiveMinimum, exclusiveMaximum) enforced by the grammar:
 * for random bounds and random JSON number texts without exponent, the automaton (and the
 * reference matcher) accept a text exactly when JSON.parse(text) is in range. Texts keep to at
 * most 15 significant digits, or spell a bound itself, where exact decimal comparison (what the
 * grammar does, see src/schema-compiler/number-range.ts) and double comparison (JSON.parse, ajv) agree.
 */

import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAutomaton } from "../../src/automaton/index.js";
import { PocketExtractError } from "../../src/errors.js";
import { compileSchema, type CompileOptions } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";
import { scaled, type Scaled } from "./support/decimal.js";

interface Bounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

const inRange = (b: Bounds, v: number): boolean =>
  (b.minimum === undefined || v >= b.minimum) &&
  (b.maximum === undefined || v <= b.maximum) &&
  (b.exclusiveMinimum === undefined || v > b.exclusiveMinimum) &&
  (b.exclusiveMaximum === undefined || v < b.exclusiveMaximum);

/** JSON text of a scaled decimal without exponent, with `zeros` extra trailing fraction zeros. */
function jsonText({ negative, digits, scale }: Pick<Scaled, "negative" | "digits" | "scale">, zeros: number): string {
  const s = digits.toString().padStart(scale + 1, "0");
  const frac = s.slice(s.length - scale) + "0".repeat(zeros);
  return `${negative ? "-" : ""}${s.slice(0, s.length - scale)}${frac === "" ? "" : `.${frac}`}`;
}

const boundValue = fc.oneof(
  // Short decimals: 0.5, -2.0001, 1234.25 ...
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 10_000_000 }), fc.nat(7)).map(([neg, m, k]) => (neg ? -m : m) / 10 ** k),
  // Any double of moderate size (shortest forms of up to 17 digits), no subnormals.
  fc.double({ min: -1e9, max: 1e9, noNaN: true }).filter((x) => x === 0 || Math.abs(x) >= 1e-12),
  // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 on purpose: a bound that is not exactly representable
  fc.constantFrom(0, -0, 0.5, -2.0001, 1e-7, -1e-7, 1.1, 0.1 + 0.2, 1e21, -1.5e21, 123456789012.5, 9007199254740993),
);

const boundsArb: fc.Arbitrary<Bounds> = fc.oneof(
  fc
    .record({ minimum: boundValue, maximum: boundValue, exclusiveMinimum: boundValue, exclusiveMaximum: boundValue }, { requiredKeys: [] })
    .filter((b) => Object.keys(b).length > 0),
  // Narrow ranges: both ends share the integer part or most fraction digits.
  fc.tuple(boundValue, fc.constantFrom(0, 1e-6, 0.001, 0.05, 0.5, 3), fc.boolean(), fc.boolean()).map(([v, width, exLo, exHi]) => ({
    [exLo ? "exclusiveMinimum" : "minimum"]: v,
    [exHi ? "exclusiveMaximum" : "maximum"]: v + width,
  })),
);

const valuesOf = (b: Bounds): number[] => Object.values(b).filter((v): v is number => v !== undefined);

/** Texts near a bound: the bound itself, and it rounded to p <= 15 digits then moved by a few units. */
const nearText = (b: Bounds): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...valuesOf(b)), fc.integer({ min: 0, max: 15 }), fc.integer({ min: -3, max: 3 }), fc.nat(3)).map(([v, p, delta, zeros]) => {
    const base = scaled(p === 0 ? String(v) : v.toPrecision(p));
    const signed = (base.negative ? -base.digits : base.digits) + BigInt(p === 0 ? 0 : delta) * base.unit;
    const negative = signed < 0n || (signed === 0n && base.negative);
    return jsonText({ negative, digits: signed < 0n ? -signed : signed, scale: base.scale }, zeros);
  });

/** Any text of at most 15 significant digits, -0 and 0.000 included. */
const anyText = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 10_000_000 }), fc.nat(8), fc.nat(3))
  .map(([negative, m, scale, zeros]) => jsonText({ negative, digits: BigInt(m), scale }, zeros));

const textsFor = (b: Bounds): fc.Arbitrary<string[]> => fc.array(fc.oneof(nearText(b), anyText), { minLength: 10, maxLength: 30 });

/** Every state the automaton can reach, built by walking all bytes from the start. */
function reachableStates(schema: unknown, options: CompileOptions = {}): number {
  const a = buildAutomaton(compileSchema(schema, options).grammar);
  const seen = new Set([a.start]);
  const todo = [a.start];
  while (todo.length > 0) {
    const s = todo.pop()!;
    for (let byte = 0; byte < 256; byte++) {
      const t = a.step(s, byte);
      if (t >= 0 && !seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
    }
  }
  return seen.size;
}

/** Whether compiling throws SCHEMA_UNSATISFIABLE (other errors propagate). */
function unsatisfiable(schema: unknown): boolean {
  try {
    compileSchema(schema, { mode: "jsonschema" });
    return false;
  } catch (err) {
    if (err instanceof PocketExtractError && err.code === "SCHEMA_UNSATISFIABLE") return true;
    throw err;
  }
}

describe("number bounds in the grammar", () => {
  it("accepts a text exactly when JSON.parse(text) is in range", () => {
    fc.assert(
      fc.property(boundsArb.chain((b) => fc.tuple(fc.constant(b), textsFor(b))), ([bounds, texts]) => {
        const schema = { type: "number", ...bounds };
        if (unsatisfiable(schema)) {
          for (const t of texts) expect(inRange(bounds, JSON.parse(t) as number), t).toBe(false);
          return;
        }
        const acc = acceptor(schema, { mode: "jsonschema" });
        for (const t of texts) {
          const want = inRange(bounds, JSON.parse(t) as number);
          expect(acc.dfa(t), `${JSON.stringify(bounds)} ${t}`).toBe(want);
          expect(acc.ref(t), `${JSON.stringify(bounds)} ${t} (reference matcher)`).toBe(want);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with ajv on edge cases", () => {
    const ajv = new Ajv();
    const cases: [Bounds, string[]][] = [
      [{ minimum: 1.1 }, ["1.1", "1.10", "1.09", "1.0999999", "1.1000001", "2.6", "0.6"]],
      [{ minimum: -2 }, ["-2", "-2.0", "-2.0001", "-1.9999", "-0", "0", "-3"]],
      [{ maximum: 0.1 }, ["0.1", "0.10", "0.1000000000001", "0.0999999999999", "-0.5"]],
      [{ exclusiveMinimum: 0 }, ["0", "-0", "0.0", "-0.0", "0.000001", "5", "-1"]],
      [{ minimum: 0 }, ["0", "-0", "-0.00", "-0.001", "7.25"]],
      [{ exclusiveMaximum: 0 }, ["0", "-0", "-0.000001", "0.1"]],
      [{ exclusiveMinimum: 1e-7, maximum: 1e21 }, ["0.0000001", "0.00000010", "0.00000011", "0.00000009", "1000000000000000000000", "1000000000000000000000.0", "1000000000000010000000", "999999999999990000000"]],
      [{ exclusiveMinimum: 0.30000000000000004, exclusiveMaximum: 0.5 }, ["0.3", "0.30000000000000004", "0.30000000000001", "0.49999", "0.5", "0.50"]],
    ];
    for (const [bounds, texts] of cases) {
      const schema = { type: "number", ...bounds };
      const valid = ajv.compile(schema);
      const acc = acceptor(schema, { mode: "jsonschema" });
      for (const t of texts) expect(acc.dfa(t), `${JSON.stringify(bounds)} ${t}`).toBe(valid(JSON.parse(t)));
    }
  });

  it("compares decimals, not doubles, for texts of 16+ significant digits at the bound", () => {
    // 0.10000000000000001 parses to the double 0.1: ajv accepts it under maximum 0.1, the grammar
    // (exact decimals, the JSON Schema meaning) refuses it; and conversely for exclusiveMinimum.
    expect(acceptor({ type: "number", maximum: 0.1 }, { mode: "jsonschema" }).dfa("0.10000000000000001")).toBe(false);
    expect(acceptor({ type: "number", exclusiveMinimum: 0.1 }, { mode: "jsonschema" }).dfa("0.10000000000000000001")).toBe(true);
  });

  it("refuses exponents unless the bounds only fix the sign", () => {
    const bounded = acceptor({ type: "number", minimum: 1, maximum: 1000 }, { mode: "jsonschema" });
    expect(["100", "1e2", "1E2", "1.5e1"].map(bounded.dfa)).toEqual([true, false, false, false]);
    const positive = acceptor({ type: "number", exclusiveMinimum: 0 }, { mode: "jsonschema" });
    expect(["1e2", "2.5E-3", "0e5", "0.0e1", "-1e2"].map(positive.dfa)).toEqual([true, true, false, false, false]);
    const nonPositive = acceptor({ type: "number", maximum: 0 }, { mode: "jsonschema" });
    expect(["-1e2", "-0e3", "0E-1", "1e-9"].map(nonPositive.dfa)).toEqual([true, true, true, false]);
  });

  it("keeps extraction mode's finite numbers and integers (at most 16 integer digits)", () => {
    const acc = acceptor({ type: "object", properties: { x: { type: "number", minimum: -0.5 } }, required: ["x"] });
    expect(acc.dfa('{"x":9999999999999999.75}')).toBe(true);
    expect(acc.dfa('{"x":10000000000000000}')).toBe(false);
    expect(acc.dfa('{"x":-0.5}')).toBe(true);
    expect(acc.dfa('{"x":-0.51}')).toBe(false);
    const int = acceptor({ type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] });
    expect(int.dfa('{"n":9999999999999999}')).toBe(true);
    expect(int.dfa('{"n":10000000000000000}')).toBe(false);
  });

  it("reads draft-4 boolean exclusive bounds", () => {
    const schema = { $schema: "http://json-schema.org/draft-04/schema#", type: "number", minimum: 1.5, exclusiveMinimum: true, maximum: 2, exclusiveMaximum: false };
    const acc = acceptor(schema, { mode: "jsonschema" });
    expect(["1.5", "1.50001", "2", "2.0", "2.00001"].map(acc.dfa)).toEqual([false, true, true, true, false]);
    expect(compileSchema(schema, { mode: "jsonschema" }).report.validatedAfter).toEqual([]);
  });

  it("reports bounds as enforced, noting when exponents are refused", () => {
    const { report } = compileSchema({ type: "number", minimum: 0.5, exclusiveMaximum: 10 }, { mode: "jsonschema" });
    expect(report.validatedAfter).toEqual([]);
    const notes = report.enforced.filter((u) => u.keyword === "minimum" || u.keyword === "exclusiveMaximum").map((u) => u.note);
    expect(notes).toHaveLength(2);
    for (const note of notes) expect(note).toMatch(/exponent/);
    const signOnly = compileSchema({ type: "number", minimum: 0 }, { mode: "jsonschema" }).report;
    expect(signOnly.enforced.find((u) => u.keyword === "minimum")?.note).toBeUndefined();
  });

  it("keeps the automaton small", () => {
    const sizes = [
      { minimum: 0.001, maximum: 1_000_000 },
      { minimum: -2.0001, exclusiveMaximum: 1e-7 },
      { exclusiveMinimum: 0.30000000000000004, maximum: 123456789.123 },
      { minimum: -1e21, maximum: 1e21 },
    ].flatMap((b) => [reachableStates({ type: "number", ...b }, { mode: "jsonschema" }), reachableStates({ type: "number", ...b })]);
    for (const n of sizes) expect(n).toBeLessThan(200);
  });
});
