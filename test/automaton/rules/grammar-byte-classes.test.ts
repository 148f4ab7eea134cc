import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/automaton/fsa/index.js";
import { PocketExtractError } from "../../../src/errors.js";
import { grammarByteClasses } from "../../../src/automaton/rules/grammar-byte-classes.js";
import { JsonStrings, VerbatimAutomaton, type JsonStringSpec } from "../../../src/automaton/strings/index.js";
import { RuleSet } from "../../../src/automaton/rules/index.js";
import { alt, chars, lit, ref, repeat, seq, type Expr } from "../../../src/grammar/ir.js";
import { grammar } from "../helpers.js";

/** True when bytes in one class of `fine` are always in one class of `coarse`. */
function refines(fine: Uint8Array, coarse: Uint8Array): boolean {
  const seen = new Map<number, number>();
  for (let b = 0; b < 256; b++) {
    const known = seen.get(fine[b]!);
    if (known === undefined) seen.set(fine[b]!, coarse[b]!);
    else if (known !== coarse[b]) return false;
  }
  return true;
}

const PIECES = ["a", "[a-c]", "é", "中", "😀", '"', "\\\\", "\\n", "\\u0001", ".", "[^a]", "(ab|c)", "\\d", "[\\u00e0-\\u0fff]", "\\s"];
const QUANTIFIERS = ["", "*", "+", "?", "{1,3}"];
const pattern = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...QUANTIFIERS)), { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([open, parts, close]) => `${open ? "^" : ""}${parts.map(([p, q]) => p + q).join("")}${close ? "$" : ""}`);
const name = fc.array(fc.constantFrom("a", "b", "é", "中", "😀", '"', "\\", "\n", "\u0001", " "), { maxLength: 4 }).map((a) => a.join(""));
const spec: fc.Arbitrary<JsonStringSpec> = fc
  .record({
    min: fc.integer({ min: 0, max: 3 }),
    extra: fc.option(fc.integer({ min: 0, max: 40 })),
    pattern: fc.option(pattern),
    exclude: fc.option(fc.array(name, { maxLength: 3 })),
    excludePatterns: fc.option(fc.array(pattern, { maxLength: 2 })),
    substringOf: fc.option(name),
  })
  .map((r) => ({
    kind: "jsonString" as const,
    minLength: r.min,
    maxLength: r.extra === null ? Infinity : r.min + r.extra,
    ...(r.pattern === null ? {} : { pattern: r.pattern }),
    ...(r.exclude === null ? {} : { exclude: r.exclude }),
    ...(r.excludePatterns === null ? {} : { excludePatterns: r.excludePatterns }),
    ...(r.substringOf === null ? {} : { substringOf: r.substringOf }),
  }));

describe("byte classes read off the grammar", () => {
  it("refine the classes of every string automaton, built or computed", () => {
    fc.assert(
      fc.property(spec, fc.boolean(), (s, computed) => {
        const classes = grammarByteClasses(grammar(s)).classOf;
        const strings = new JsonStrings(new Budget(1e6, 1e9), computed ? 0 : undefined);
        const automaton = strings.get(s);
        if (automaton !== null) expect(refines(classes, automaton.classOf), JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("refine the classes of a verbatim string's computed automaton", () => {
    fc.assert(
      fc.property(name, (text) => {
        const automaton = VerbatimAutomaton.of(text, "verbatim string");
        const classes = grammarByteClasses(grammar({ kind: "jsonString", minLength: 0, maxLength: Infinity, substringOf: text })).classOf;
        if (automaton !== null) expect(refines(classes, automaton.classOf), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("refine the classes of every rule of a grammar", () => {
    const expr: fc.Arbitrary<Expr> = fc.letrec<{ node: Expr }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom(lit("{"), lit("中文"), lit("a\"b"), chars([0x30, 0x39]), chars([0x80, 0x7ff], [0x4e00, 0x4eff]), ref("r")),
        spec.map((s) => s as Expr),
        fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((items) => seq(...items)),
        fc.array(tie("node"), { minLength: 1, maxLength: 3 }).map((items) => alt(...items)),
        fc.tuple(tie("node"), fc.integer({ min: 0, max: 2 }), fc.constantFrom(1, 3, Infinity)).map(([item, min, max]) => repeat(item, min, Math.max(min, max))),
      ),
    })).node;
    fc.assert(
      fc.property(expr, expr, (root, body) => {
        const g = grammar(root, { r: alt(lit("x"), body) });
        let rules;
        try {
          rules = new RuleSet(g, { eagerStates: Infinity });
        } catch (e) {
          // An empty language: nothing to compare.
          if (e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE") return;
          throw e;
        }
        const classes = grammarByteClasses(g).classOf;
        for (const rule of rules.buildNearest()) expect(refines(classes, rule.classOf)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
