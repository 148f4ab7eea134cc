import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildAutomaton } from "../../src/automaton/index.js";
import { PocketExtractError } from "../../src/errors.js";
import { alt, chars, lit, ref, repeat, seq, type Expr } from "../../src/grammar/ir.js";
import { DEFAULT_MAX_STATES, RuleSet } from "../../src/automaton/rules/index.js";
import { Budget, compileExpr, stepByte } from "../../src/automaton/fsa/index.js";
import { JsonStrings } from "../../src/automaton/strings/index.js";
import { accepts, distancesToAccept, grammar, jsonString, mooreClassCount, uncompletableStates, untrimmedStates } from "./helpers.js";

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof PocketExtractError) return e.code;
    throw e;
  }
  return undefined;
};

describe("expressions", () => {
  it("builds literals, sequences, alternatives and repeats", () => {
    const dfa = buildAutomaton(grammar(seq(lit("{"), alt(lit("true"), lit("false"), lit("null")), repeat(lit(",x"), 1, 3), lit("}"))));
    for (const ok of ["{true,x}", "{null,x,x,x}", "{false,x,x}"]) expect(accepts(dfa, ok)).toBe(true);
    for (const bad of ["{true}", "{true,x,x,x,x}", "{nul,x}", "{true,x", ""]) expect(accepts(dfa, bad)).toBe(false);
  });

  it("encodes non-ASCII literals and character ranges as UTF-8", () => {
    const dfa = buildAutomaton(grammar(seq(lit("价格"), repeat(chars([0x4e00, 0x9fff], [0x1f600, 0x1f64f]), 1, 2))));
    expect(accepts(dfa, "价格中")).toBe(true);
    expect(accepts(dfa, "价格中😀")).toBe(true);
    expect(accepts(dfa, "价格a")).toBe(false);
    expect(accepts(dfa, "价格中文字")).toBe(false);
  });

  it("handles unbounded and empty-matching repeats", () => {
    const dfa = buildAutomaton(grammar(seq(lit("a"), repeat(repeat(lit("b"), 0, 2), 0, Infinity), lit("c"))));
    for (const n of [0, 1, 2, 3, 7]) expect(accepts(dfa, `a${"b".repeat(n)}c`)).toBe(true);
    expect(accepts(dfa, "abbb")).toBe(false);
  });

  it("compiles large bounded repeats of a sequence exactly", () => {
    const dfa = buildAutomaton(grammar(repeat(lit("ab"), 3, 150)));
    expect(accepts(dfa, "ab".repeat(2))).toBe(false);
    expect(accepts(dfa, "ab".repeat(3))).toBe(true);
    expect(accepts(dfa, "ab".repeat(150))).toBe(true);
    expect(accepts(dfa, "ab".repeat(151))).toBe(false);
  });
});

describe("invariants", () => {
  const arb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
    e: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("a", "b", "ab", "é", "中").map(lit),
      fc.constantFrom(chars([0x61, 0x62]), chars([0x80, 0x800]), chars([0x10000, 0x10010])),
      fc.array(tie("e"), { minLength: 1, maxLength: 3 }).map((items): Expr => ({ kind: "seq", items })),
      fc.array(tie("e"), { minLength: 1, maxLength: 3 }).map((items): Expr => ({ kind: "alt", items })),
      fc.tuple(tie("e"), fc.integer({ min: 0, max: 3 }), fc.option(fc.integer({ min: 0, max: 3 }))).map(([item, min, extra]): Expr => repeat(item, min, extra === null ? Infinity : min + extra)),
      fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 })).map(([min, extra]) => jsonString(min, min + extra)),
    ),
  })).e;

  it("every rule automaton is trimmed and minimal, and every state built can complete", () => {
    fc.assert(
      fc.property(arb, (expr) => {
        let rules;
        try {
          rules = new RuleSet(grammar(expr)).buildNearest();
        } catch (e) {
          if (e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE") return;
          throw e;
        }
        for (const dfa of rules) {
          if (!("trans" in dfa)) continue; // a verbatim text's automaton (none here)
          expect(untrimmedStates(dfa)).toEqual([]);
          expect(mooreClassCount(dfa)).toBe(dfa.numStates);
          expect(dfa.trans.length).toBe(dfa.numStates * dfa.numClasses);
        }
        expect(uncompletableStates(buildAutomaton(grammar(expr)), 500)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("a called rule determinized state by state accepts what its finished DFA accepts, at the same distances", () => {
    fc.assert(
      fc.property(arb, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (expr, choices) => {
        const strings = new JsonStrings(new Budget(DEFAULT_MAX_STATES, 1e9));
        const eager = compileExpr(expr, new Budget(DEFAULT_MAX_STATES, 1e9), "reference", {
          resolve: (leaf) => (leaf.kind === "jsonString" ? strings.table(leaf) : null),
        });
        let lazy;
        try {
          lazy = buildAutomaton(grammar(expr));
        } catch (e) {
          if (e instanceof PocketExtractError && e.code === "SCHEMA_UNSATISFIABLE") return expect(eager).toBeNull();
          throw e;
        }
        expect(eager).not.toBeNull();
        const reference = eager!;
        const distance = distancesToAccept(reference);
        // A walk that follows the reference's moves (choices pick among them), then one byte that
        // may be off: both automata must agree at every byte on life, acceptance and distance.
        let s = reference.start;
        let t = lazy.start;
        for (const choice of choices) {
          expect(lazy.isAccepting(t)).toBe(reference.accepting[s] === 1);
          expect(lazy.distToAccept(t)).toBe(distance[s]);
          const live = Array.from({ length: 256 }, (_, b) => b).filter((b) => stepByte(reference, s, b) >= 0);
          const byte = live.length === 0 || choice % 7 === 0 ? choice % 256 : live[choice % live.length]!;
          const next = stepByte(reference, s, byte);
          const lazyNext = lazy.step(t, byte);
          expect(lazyNext >= 0, `byte ${byte}`).toBe(next >= 0);
          if (next < 0) return;
          s = next;
          t = lazyNext;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("rules and recursion", () => {
  // arr := "[" (arr ("," arr)*)? "]"
  const nested = {
    start: "arr",
    rules: new Map<string, Expr>([["arr", seq(lit("["), repeat(seq(ref("arr"), repeat(seq(lit(","), ref("arr")), 0, Infinity)), 0, 1), lit("]"))]]),
  };
  const brackets = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

  it("unrolls recursion to maxRecursionDepth re-entries and rejects deeper nesting", () => {
    for (const depth of [0, 1, 3]) {
      const dfa = buildAutomaton(nested, { maxRecursionDepth: depth });
      expect(accepts(dfa, brackets(depth + 1))).toBe(true);
      expect(accepts(dfa, brackets(depth + 2))).toBe(false);
    }
    const dfa = buildAutomaton(nested);
    expect(accepts(dfa, brackets(9))).toBe(true);
    expect(accepts(dfa, brackets(10))).toBe(false);
    expect(accepts(dfa, "[[],[[]],[]]")).toBe(true);
  });

  it("counts depth through mutual recursion (value -> array -> value)", () => {
    const g = {
      start: "value",
      rules: new Map<string, Expr>([
        ["value", alt(lit("1"), ref("array"))],
        ["array", seq(lit("["), ref("items"), lit("]"))],
        ["items", alt(lit(""), seq(ref("value"), repeat(seq(lit(","), ref("value")), 0, Infinity)))],
      ]),
    };
    const dfa = buildAutomaton(g, { maxRecursionDepth: 2 });
    expect(accepts(dfa, "[[1,[]],1]")).toBe(true);
    expect(accepts(dfa, "[[[1]]]")).toBe(false);
  });

  it("a big recursive rule, determinized as documents reach it, agrees with its small twin at every depth", () => {
    // The same language twice: words written into the recursive rule (its NFA is over the size
    // built minimal, so it is expanded state by state with tables per depth left), or called
    // from it (a small recursive rule, built minimal).
    const words = alt(...Array.from({ length: 70 }, (_, i) => lit(`w${i}`)));
    const array = (word: Expr): Expr => {
      const item = alt(word, ref("arr"), seq(lit("("), ref("pair"), lit(")")));
      return seq(lit("["), repeat(seq(item, repeat(seq(lit(","), item), 0, Infinity)), 0, 1), lit("]"));
    };
    // "pair" is in the cycle too, and not a head: depth passes through it unchanged.
    const pair = seq(ref("arr"), lit(":"), ref("arr"));
    const big = grammar(ref("arr"), { arr: array(words), pair });
    const small = grammar(ref("arr"), { arr: array(ref("word")), word: words, pair });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 60 }), (depth, choices) => {
        const lazy = buildAutomaton(big, { maxRecursionDepth: depth });
        const minimal = buildAutomaton(small, { maxRecursionDepth: depth });
        let s = lazy.start;
        let t = minimal.start;
        for (const choice of choices) {
          expect(lazy.isAccepting(s)).toBe(minimal.isAccepting(t));
          expect(lazy.distToAccept(s)).toBe(minimal.distToAccept(t));
          const live: number[] = [];
          for (let b = 0; b < 256; b++) {
            const next = minimal.step(t, b);
            expect(lazy.step(s, b) >= 0, `byte ${b}`).toBe(next >= 0);
            if (next >= 0) live.push(b);
          }
          if (live.length === 0) return;
          // Opening brackets first when offered: walks reach the depth limit.
          const byte = choice % 3 === 0 && live.includes(0x5b) ? 0x5b : live[choice % live.length]!;
          s = lazy.step(s, byte);
          t = minimal.step(t, byte);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("inlines non-recursive rules", () => {
    const dfa = buildAutomaton(grammar(seq(ref("a"), ref("a")), { a: alt(lit("x"), lit("y")) }));
    expect(accepts(dfa, "xy")).toBe(true);
    expect(accepts(dfa, "x")).toBe(false);
  });

  it("rejects recursion without a base case, naming the rule", () => {
    const g = grammar(ref("loop"), { loop: seq(lit("("), ref("loop"), lit(")")) });
    expect(codeOf(() => buildAutomaton(g))).toBe("SCHEMA_UNSATISFIABLE");
    expect(() => buildAutomaton(g)).toThrow(/no base case.*'loop'/);
  });

  it("rejects empty languages and undefined rules with typed errors", () => {
    expect(codeOf(() => buildAutomaton(grammar(chars())))).toBe("SCHEMA_UNSATISFIABLE");
    expect(codeOf(() => buildAutomaton(grammar(jsonString(5, 3))))).toBe("SCHEMA_UNSATISFIABLE");
    expect(codeOf(() => buildAutomaton(grammar(jsonString(0, 3, { pattern: "^abcd$" }))))).toBe("SCHEMA_UNSATISFIABLE");
    expect(codeOf(() => buildAutomaton(grammar(ref("missing"))))).toBe("GRAMMAR_SYNTAX");
  });
});

describe("rules built on first use (eagerStates)", () => {
  // "big" is over the inlining size (many nodes), so it is called, not copied into the root.
  const words = Array.from({ length: 60 }, (_, i) => lit(`w${i}`));
  const g = grammar(alt(lit("a"), seq(lit("b"), ref("big"))), {
    big: seq(lit("["), repeat(alt(ref("item"), ...words), 0, 3), lit("]")),
    item: seq(lit("{"), jsonString(0, 8, { pattern: "^[a-z]+$" }), lit("}")),
  });
  it("accept exactly what eagerly built rules accept", () => {
    const eager = buildAutomaton(g, { eagerStates: Infinity });
    const lazy = buildAutomaton(g, { eagerStates: 0 });
    // Until a document reaches "big", only the start rule is built.
    expect(lazy.ruleCount).toBeLessThan(eager.ruleCount);
    for (const text of ["a", "b[]", 'b[{"ab"}w1]', "b[w29w3]", 'b[{"A"}]', "b[w1w1w1w1]", "b", 'b[{"abcdefghi"}]', "b[w30]"]) {
      expect(accepts(lazy, text), text).toBe(accepts(eager, text));
    }
  });
  it("build the rules nearest the start first, until the budget is spent", () => {
    // root -> c0 -> c1 -> ... -> c5, each rule over the inlining size.
    const chain: Record<string, Expr> = {};
    for (let i = 0; i < 6; i++) chain[`c${i}`] = seq(lit("("), alt(...words), i < 5 ? repeat(ref(`c${i + 1}`), 0, 1) : lit(""), lit(")"));
    const g2 = grammar(seq(lit("<"), ref("c0"), lit(">")), chain);
    const budgets = [0, 100, 200, Infinity];
    const built = budgets.map((eagerStates) => buildAutomaton(g2, { eagerStates }));
    const counts = built.map((a) => a.ruleCount);
    expect(counts[0]).toBe(1);
    expect(counts[3]).toBe(7);
    expect(counts[1]).toBeGreaterThan(counts[0]!);
    expect(counts[2]).toBeGreaterThan(counts[1]!);
    expect(counts[3]).toBeGreaterThan(counts[2]!);
    for (const text of ["<(w1)>", "<(w1(w2(w3(w4(w5(w6))))))>", "<(w1(w2(w3(w4(w5(w6(w7)))))))>", "<()>"]) {
      expect(built.map((a) => accepts(a, text)), text).toEqual(built.map(() => accepts(built[3]!, text)));
    }
  });
  it("build only the members of a recursive component a document enters, not the whole component", () => {
    // m0 -> m1 -> ... -> m9 -> m0: one recursive component of ten rules.
    const ring: Record<string, Expr> = {};
    for (let i = 0; i < 10; i++) ring[`m${i}`] = seq(lit(`(${i}`), repeat(seq(lit(","), ref(`m${(i + 1) % 10}`)), 0, 1), lit(")"));
    const g2 = grammar(seq(lit("<"), ref("m0"), lit(">")), ring);
    const lazy = buildAutomaton(g2, { eagerStates: 0 });
    const eager = buildAutomaton(g2, { eagerStates: Infinity });
    expect(accepts(lazy, "<(0)>")).toBe(true);
    // The start rule and m0: analysing m0 neither builds nor analyses m1..m9 (a call is weighed
    // by its callee's shortest text, read off the IR).
    expect(lazy.ruleCount).toBe(2);
    expect(accepts(lazy, "<(0,(1,(2))>")).toBe(false);
    expect(lazy.ruleCount).toBe(4);
    for (const text of ["<(0,(1,(2)))>", "<(0,(1,(2,(3,(4,(5,(6,(7)))))))))>", "<(0,(2))>", "<(0,(1,(2,(3,(4,(5,(6,(7,(8,(9))))))))))>", "<(0)"]) {
      expect(accepts(lazy, text), text).toBe(accepts(eager, text));
    }
  });
  it("report an error in a rule when a document reaches it, as a typed error", () => {
    // A rule whose NFA alone is over maxStates (15,000 optional copies of "ab").
    const tooBig = grammar(alt(lit("x"), seq(lit("y"), ref("big"))), { big: seq(lit("("), repeat(lit("ab"), 0, 15_000), lit(")")) });
    expect(codeOf(() => buildAutomaton(tooBig, { maxStates: 20_000, eagerStates: Infinity }))).toBe("AUTOMATON_TOO_LARGE");
    const lazy = buildAutomaton(tooBig, { maxStates: 20_000, eagerStates: 0 });
    expect(accepts(lazy, "x")).toBe(true);
    expect(codeOf(() => accepts(lazy, "y("))).toBe("AUTOMATON_TOO_LARGE");
  });
});

describe("limits", () => {
  it("fails with AUTOMATON_TOO_LARGE instead of growing without bound", () => {
    // A pattern whose determinization explodes: (a|b)*a(a|b){16} has 2^17 DFA states.
    expect(codeOf(() => buildAutomaton(grammar(jsonString(0, Infinity, { pattern: "^[ab]*a[ab]{16}$" })), { maxStates: 10_000 }))).toBe("AUTOMATON_TOO_LARGE");
  });

  it("determinizes a called rule only as far as documents go, and stops at maxStates", () => {
    // (a|b)*a(a|b){18} has 2^19 DFA states; a document visits one per byte.
    const ab = alt(lit("a"), lit("b"));
    const dfa = buildAutomaton(grammar(seq(repeat(ab, 0, Infinity), lit("a"), repeat(ab, 18, 18))), { maxStates: 20_000 });
    expect(accepts(dfa, `b${"a".repeat(19)}`)).toBe(true);
    expect(accepts(dfa, `a${"b".repeat(17)}`)).toBe(false);
    expect(dfa.ruleStates).toBeLessThan(100);
    // A long text of distinct windows needs a new state at nearly every byte: typed error, no hang.
    let seed = 7;
    const text = Array.from({ length: 60_000 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) & 1 ? "a" : "b").join("");
    expect(codeOf(() => accepts(dfa, text))).toBe("AUTOMATON_TOO_LARGE");
  });

  it("prints compile times of large repeats (informational)", () => {
    for (const max of [200, 1000, 5000]) {
      buildAutomaton(grammar(jsonString(0, max)));
      const t0 = performance.now();
      const dfa = buildAutomaton(grammar(jsonString(0, max)));
      console.log(`jsonString maxLength ${max}: ${dfa.ruleStates} states, ${dfa.numClasses} classes, ${(performance.now() - t0).toFixed(1)} ms (warm)`);
      expect(accepts(dfa, JSON.stringify("x".repeat(max)))).toBe(true);
      expect(accepts(dfa, JSON.stringify("x".repeat(max + 1)))).toBe(false);
    }
  });
});
