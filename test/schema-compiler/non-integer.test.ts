/**
 * "Not integer" among numbers (src/schema-compiler/non-integer.ts): every text the grammar spells
 * parses to a non-integer, and every non-integer whose shortest spelling has at most 15 digits and
 * no exponent is spelled, through the byte automaton and the reference matcher.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptor, type Acceptor } from "./support/accept.js";
import { expectLanguage, raw } from "./support/expect.js";

const JS = { mode: "jsonschema" } as const;
const NON_INTEGER = { type: "number", not: { type: "integer" } };

const spelled = (acc: Acceptor, text: string): boolean => {
  const [dfa, ref] = [acc.dfa(text), acc.ref(text)];
  expect({ text, ref }).toEqual({ text, ref: dfa });
  return dfa;
};

describe("non-integer numbers", () => {
  it("fractions ending in a non-zero digit, at most 15 digits, no exponent", () => {
    expectLanguage(NON_INTEGER, JS, [1.5, -0.25, raw("123456789012.125"), raw("0.00000000000001"), raw("-99999999999999.9")], [
      // Integers (1.00000000000000001 parses to 1), and what is not a number.
      1,
      0,
      raw("1.0"),
      raw("1e1"),
      raw("1.5e1"),
      raw("1.00000000000000001"),
      "1.5",
      null,
      // Non-integers in a refused spelling: more than 15 digits, a trailing zero, an exponent.
      raw("0.000000000000001"),
      raw("123456789012345.5"),
      raw("1.50"),
      raw("2.5e-1"),
    ]);
  });

  it("agrees with JSON.parse on random numbers", () => {
    const acc = acceptor(NON_INTEGER, JS);
    const digitsOf = (text: string): number => text.replace(/[-.]/g, "").length;
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer().map((n) => n / 1000), fc.integer()), (x) => {
        const text = JSON.stringify(x);
        const nonInteger = !Number.isInteger(x);
        if (spelled(acc, text)) expect({ text, nonInteger }).toEqual({ text, nonInteger: true });
        else expect({ text, shortAndPlain: nonInteger && !/e/i.test(text) && digitsOf(text) <= 15 }).toEqual({ text, shortAndPlain: false });
      }),
      { numRuns: 3000 },
    );
  });

  it("in a oneOf of number and integer, the number branch keeps the non-integers", () => {
    expectLanguage({ oneOf: [{ type: "number" }, { type: "integer" }] }, JS, [1.5, -2.75], [1, 0, -3, raw("2.0")]);
  });
});
