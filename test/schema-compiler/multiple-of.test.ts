/**
 * multipleOf in the grammar (src/schema-compiler/multiple-of.ts): for random divisors, bounds and
 * number texts, the automaton and the reference matcher accept a text exactly when its decimal
 * value is a multiple of the divisor within the bounds (exact decimal arithmetic, the JSON Schema
 * meaning), within the documented spelling limits (no exponent, at most 15 significant digits,
 * no "-0"). For divisors that are binary fractions, ajv's float test agrees on every such text; for
 * all, src/validate's decimal test does.
 * Also: integers written with a zero fraction (draft 6 on), and the report.
 */

import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { validate } from "../../src/validate/index.js";
import { acceptor } from "./support/accept.js";
import { scaled } from "./support/decimal.js";

const JS = { mode: "jsonschema" } as const;

/** A decimal text as signed digits / 10^scale. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

function decimal(text: string): Decimal {
  const { negative, digits, scale } = scaled(text);
  return { digits: negative ? -digits : digits, scale };
}

/** a and b over a common denominator. */
function common(a: Decimal, b: Decimal): [bigint, bigint] {
  const s = Math.max(a.scale, b.scale);
  return [a.digits * 10n ** BigInt(s - a.scale), b.digits * 10n ** BigInt(s - b.scale)];
}

interface Spec {
  multipleOf: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** The exact verdict: in range and a multiple, as decimals (bounds as their shortest form). */
function exactlyValid(spec: Spec, text: string, integer: boolean): boolean {
  const x = decimal(text);
  const cmp = (bound: number | undefined, ok: (d: bigint) => boolean): boolean => {
    if (bound === undefined) return true;
    const [a, b] = common(x, decimal(String(bound)));
    return ok(a - b);
  };
  const [value, divisor] = common(x, decimal(String(spec.multipleOf)));
  return (
    value % divisor === 0n &&
    (!integer || x.digits % 10n ** BigInt(x.scale) === 0n) &&
    cmp(spec.minimum, (d) => d >= 0n) &&
    cmp(spec.maximum, (d) => d <= 0n) &&
    cmp(spec.exclusiveMinimum, (d) => d > 0n) &&
    cmp(spec.exclusiveMaximum, (d) => d < 0n)
  );
}

/** A text of value digits / 10^scale (not "-0"), with `zeros` extra trailing fraction zeros. */
function text(digits: bigint, scale: number, zeros: number): string {
  const negative = digits < 0n;
  const s = (negative ? -digits : digits).toString().padStart(scale + 1, "0");
  const frac = s.slice(s.length - scale) + "0".repeat(zeros);
  return `${negative ? "-" : ""}${s.slice(0, s.length - scale)}${frac === "" ? "" : `.${frac}`}`;
}

const divisors = fc.constantFrom(1, 2, 5, 16, 25, 0.5, 0.25, 2.5, 0.125, 1.5, 0.01, 0.1, 0.05, 0.2, 0.001, 12, 7, 13, 0.3);
const boundValue = fc.tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.nat(3)).map(([n, s]) => n / 10 ** s);
const specArb: fc.Arbitrary<Spec> = fc
  .record({ multipleOf: divisors, minimum: boundValue, maximum: boundValue, exclusiveMinimum: boundValue, exclusiveMaximum: boundValue }, { requiredKeys: ["multipleOf"] })
  // Ranges wide enough to hold a few multiples most of the time.
  .map((s) => (s.minimum !== undefined && s.maximum !== undefined && s.maximum < s.minimum ? { ...s, minimum: s.maximum, maximum: s.minimum } : s));

/** Texts near multiples of the divisor and anywhere, with up to 3 extra zeros. */
const textsFor = (spec: Spec): fc.Arbitrary<string[]> => {
  const m = decimal(String(spec.multipleOf));
  const nearMultiple = fc
    .tuple(fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -1, max: 1 }), fc.nat(3))
    .map(([n, delta, zeros]) => text(BigInt(n) * m.digits + BigInt(delta), m.scale, zeros));
  const any = fc.tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.nat(4), fc.nat(2)).map(([n, s, zeros]) => text(BigInt(n), s, zeros));
  const nearBound = fc.constantFrom(...[spec.minimum, spec.maximum, spec.exclusiveMinimum, spec.exclusiveMaximum, 0].filter((v): v is number => v !== undefined)).map(String);
  return fc.array(fc.oneof(nearMultiple, any, nearBound), { minLength: 10, maxLength: 30 });
};

describe("multipleOf in the grammar", () => {
  for (const type of ["number", "integer"] as const) {
    it(`accepts exactly the ${type} texts that are multiples within the bounds`, () => {
      fc.assert(
        fc.property(specArb.chain((spec) => fc.tuple(fc.constant(spec), textsFor(spec))), ([spec, texts]) => {
          const schema = { type, ...spec };
          let acc;
          try {
            acc = acceptor(schema, JS);
          } catch (err) {
            // No multiple in range: then none of the texts is valid.
            expect((err as { code?: string }).code).toBe("SCHEMA_UNSATISFIABLE");
            for (const t of texts) expect(exactlyValid(spec, t, type === "integer"), t).toBe(false);
            return;
          }
          const enforced = compileSchema(schema, JS).report.validatedAfter.length === 0;
          for (const t of texts) {
            const want = exactlyValid(spec, t, type === "integer");
            if (enforced) expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(want);
            // Checked after decoding: the grammar still never refuses a valid text.
            else if (want) expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(true);
            expect(acc.ref(t), `${JSON.stringify(schema)} ${t} (reference matcher)`).toBe(acc.dfa(t));
          }
        }),
        { numRuns: 250 },
      );
    });
  }

  it("agrees with ajv's float test for divisors that are binary fractions", () => {
    const ajv = new Ajv();
    const schemas = [1, 2, 16, 0.5, 0.25, 2.5, 0.125].map((m) => ({ type: "number", multipleOf: m, minimum: -1e9, maximum: 1e9 }));
    const checks = schemas.map((schema) => ({ schema, acc: acceptor(schema, JS), valid: ajv.compile(schema) }));
    fc.assert(
      fc.property(fc.constantFrom(...checks), fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.nat(4), ({ schema, acc, valid }, n, s) => {
        const t = text(BigInt(n), s, 0);
        expect(acc.dfa(t), `${schema.multipleOf} ${t}`).toBe(valid(JSON.parse(t)));
      }),
      { numRuns: 2000 },
    );
  });

  it("the validator decides decimal divisors as the grammar does (0.07 is a multiple of 0.01)", () => {
    // ajv's own float test refuses 0.07 for 0.01 (7.000000000000001); src/validate decides on decimals.
    const schemas = [0.01, 0.1, 0.05, 0.3, 1.5, 0.07].map((m) => ({ type: "number", multipleOf: m, minimum: -1000, maximum: 1000 }));
    const checks = schemas.map((schema) => ({ schema, acc: acceptor(schema, JS), enforced: compileSchema(schema, JS).report.validatedAfter.length === 0 }));
    // 3 and 7 in the divisor over a wide range: checked after decoding, by the same decimal test.
    expect(checks.map((c) => c.enforced)).toEqual([true, true, true, false, false, false]);
    expect(validate(0.07, schemas[0]!).ok).toBe(true);
    expect(validate(0.071, schemas[0]!).ok).toBe(false);
    fc.assert(
      fc.property(fc.constantFrom(...checks), fc.integer({ min: -100_000, max: 100_000 }), fc.nat(3), ({ schema, acc, enforced }, n, s) => {
        const t = text(BigInt(n), s, 0);
        const valid = validate(JSON.parse(t), schema).ok;
        if (enforced) expect(valid, `${schema.multipleOf} ${t}`).toBe(acc.dfa(t));
        else if (valid) expect(acc.dfa(t), `${schema.multipleOf} ${t}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("spells money amounts and refuses extra precision", () => {
    const acc = acceptor({ type: "number", multipleOf: 0.01, minimum: 0, maximum: 99999999999999.98 }, JS);
    expect(["12345.67", "12345.678", "-0.01", "0", "0.5", "0.50", "9999999999999.99", "1e2"].map(acc.dfa)).toEqual([true, false, false, true, true, true, true, false]);
    // 16 significant digits: beyond what the grammar writes (a double would not keep them all).
    expect(acc.dfa("99999999999999.98")).toBe(false);
  });

  it("counts an integer multipleOf 2.5 as multiples of 5, and lists multiples of 13 in a small range", () => {
    expect(["5", "10", "2.5", "7"].map(acceptor({ type: "integer", multipleOf: 2.5 }, JS).dfa)).toEqual([true, true, false, false]);
    const thirteen = acceptor({ type: "integer", multipleOf: 13, exclusiveMinimum: 100, exclusiveMaximum: 1000 }, JS);
    expect(["104", "988", "91", "1001", "105", "104.0"].map(thirteen.dfa)).toEqual([true, true, false, false, false, true]);
  });

  it("writes multiples of integral divisors (3, 7, 12, 13, 24, 32, 96) over any range through remainder rules (15-digit values too)", () => {
    const magnitude = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.bigInt({ min: 0n, max: 100_000n }));
    const cases = fc.record({
      divisor: fc.constantFrom(3n, 7n, 12n, 13n, 24n, 32n, 96n),
      type: fc.constantFrom("integer", "number"),
      lo: fc.option(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), { nil: undefined }),
      // Wide enough to hold a multiple (narrower ranges are listed, and tested above).
      span: fc.option(fc.oneof(fc.bigInt({ min: 1000n, max: 10n ** 15n }), fc.bigInt({ min: 1000n, max: 100_000n })), { nil: undefined }),
    });
    fc.assert(
      fc.property(cases, fc.array(fc.tuple(magnitude, fc.boolean(), fc.boolean()), { minLength: 20, maxLength: 40 }), ({ divisor, type, lo, span }, values) => {
        const hi = lo !== undefined && span !== undefined ? lo + span : undefined;
        const schema = { type, multipleOf: Number(divisor), ...(lo !== undefined ? { minimum: Number(lo) } : {}), ...(hi !== undefined ? { maximum: Number(hi) } : {}) };
        const acc = acceptor(schema, JS);
        expect(compileSchema(schema, JS).report.validatedAfter).toEqual([]);
        for (const [v, negative, nearMultiple] of values) {
          const x = (negative ? -1n : 1n) * (nearMultiple ? (v / divisor) * divisor : v);
          const inRange = (lo === undefined || x >= lo) && (hi === undefined || x <= hi) && x < 10n ** 15n && x > -(10n ** 15n);
          const t = x.toString();
          expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(inRange && x % divisor === 0n);
          expect(acc.dfa(`${t}.0`), `${JSON.stringify(schema)} ${t}.0`).toBe(inRange && x % divisor === 0n);
        }
        for (const t of ["-0", "00", "012", "+12", "1e3", "12.5", ".0"]) expect(acc.dfa(t), `${JSON.stringify(schema)} ${t}`).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it("refuses a leading digit group whose tails in range hold no multiple (fast-check seed 290013084)", () => {
    // Multiples of 5 in [-99.993, -16.635): the magnitudes 17..99 start with "1", whose tails 7..9
    // hold none; "-1" was accepted when that empty tail set was left out of the concatenation.
    const acc = acceptor({ type: "number", multipleOf: 5, minimum: -99.993, maximum: -1, exclusiveMinimum: -76809, exclusiveMaximum: -16.635 }, JS);
    expect(["-1", "-10", "-15", "-20", "-95", "-100", "-20.0"].map(acc.dfa)).toEqual([false, false, false, true, true, false, true]);
  });

  it("bounds trailing zeros and magnitude (15 significant digits)", () => {
    const acc = acceptor({ type: "number", multipleOf: 0.5 }, JS);
    expect(acc.dfa(`1.5${"0".repeat(16)}`)).toBe(true);
    expect(acc.dfa(`1.5${"0".repeat(17)}`)).toBe(false);
    expect(acc.dfa("99999999999999.5")).toBe(true);
    expect(acc.dfa("999999999999999.5")).toBe(false);
  });

  it("reports multipleOf enforced, and after decoding otherwise", () => {
    const uses = (schema: object) => {
      const { report } = compileSchema(schema, JS);
      return { enforced: report.enforced.filter((u) => u.keyword === "multipleOf").map((u) => u.note ?? ""), after: report.validatedAfter.map((u) => u.keyword) };
    };
    expect(uses({ type: "integer", multipleOf: 16 })).toMatchObject({ after: [] });
    expect(uses({ type: "integer", multipleOf: 16 }).enforced[0]).not.toMatch(/ajv/);
    expect(uses({ type: "number", multipleOf: 0.01 })).toMatchObject({ after: [] });
    expect(uses({ type: "integer", multipleOf: 7 }).after).toEqual([]);
    expect(uses({ type: "number", multipleOf: 0.3 })).toEqual({ enforced: [], after: ["multipleOf"] });
    // 31 over any range needs too many remainder rules; 31 within [0, 10^6] fewer.
    expect(uses({ type: "integer", multipleOf: 31 })).toEqual({ enforced: [], after: ["multipleOf"] });
    expect(uses({ type: "integer", multipleOf: 31, minimum: 0, maximum: 1e6 }).after).toEqual([]);
    expect(uses({ type: "number", multipleOf: 0.3, minimum: 0, maximum: 10 }).after).toEqual([]);
    // One inexact use of an occurrence keeps it checked after decoding.
    expect(uses({ anyOf: [{ maximum: 10, minimum: 0 }, { minimum: 1000 }], type: "number", multipleOf: 0.3 }).after).toEqual(["multipleOf"]);
    // allOf keeps the first of two divisors in the grammar; the second is checked after decoding.
    expect(uses({ type: "integer", allOf: [{ multipleOf: 2 }, { multipleOf: 5 }] }).after).toEqual(["multipleOf"]);
  });
});

describe("integers with a zero fraction", () => {
  it("accepts 2.0 from draft 6 on (as ajv does), not in draft 4", () => {
    const ajv = new Ajv();
    const modern = acceptor({ type: "integer", minimum: 1, maximum: 5 }, JS);
    expect(["2", "2.0", "2.00", "5.0", "6.0", "2.5", "2."].map(modern.dfa)).toEqual([true, true, true, true, false, false, false]);
    for (const t of ["2.0", "5.00"]) expect(ajv.validate({ type: "integer" }, JSON.parse(t))).toBe(true);
    expect(acceptor({ type: "integer" }, JS).dfa(`7.${"0".repeat(16)}`)).toBe(true);
    expect(acceptor({ type: "integer" }, JS).dfa(`7.${"0".repeat(17)}`)).toBe(false);
    const draft4 = acceptor({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer" }, JS);
    expect(["2", "2.0"].map(draft4.dfa)).toEqual([true, false]);
    const draft4Multiple = acceptor({ $schema: "http://json-schema.org/draft-04/schema#", type: "integer", multipleOf: 2 }, JS);
    expect(["4", "4.0"].map(draft4Multiple.dfa)).toEqual([true, false]);
  });

  it("accepts enum and const numbers with zeros that keep their value (2.0 is the enum value 2)", () => {
    const acc = acceptor({ enum: [2, 1.5, 1e21, "2"] }, JS);
    expect(["2", "2.0", "2.00", "1.5", "1.50", "1e+21", "2.5", "1.05", '"2"', '"2.0"'].map(acc.dfa)).toEqual([true, true, true, true, true, true, false, false, true, false]);
  });

  it("extraction mode writes integers and enum numbers in their canonical form only", () => {
    const schema = { type: "object", properties: { n: { type: "integer" }, e: { enum: [2, 1.5] } }, required: ["n", "e"] };
    const acc = acceptor(schema, { mode: "extraction", nullEscape: false });
    expect(['{"n":3,"e":2}', '{"n":3.0,"e":2}', '{"n":3,"e":2.0}', '{"n":3,"e":1.5}', '{"n":3,"e":1.50}'].map(acc.dfa)).toEqual([true, false, false, true, false]);
  });
});
