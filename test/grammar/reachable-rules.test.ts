/**
 * reachableRules keeps exactly the rules the start rule reaches, in their order, and a compiled
 * schema carries no rule its start cannot reach (library imports bring whole grammar files).
 */
import { describe, expect, it } from "vitest";
import { alt, lit, reachableRules, ref, repeat, seq, type Expr } from "../../src/grammar/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";

describe("reachableRules", () => {
  it("keeps the rules reached through seq, alt, repeat and recursion, in their order", () => {
    const rules = new Map<string, Expr>([
      ["unused", ref("leaf")],
      ["root", seq(lit("["), alt(ref("item"), lit("x")), lit("]"))],
      ["leaf", lit("a")],
      ["item", repeat(ref("item-body"), 0, 3)],
      ["item-body", alt(ref("leaf"), ref("item"))],
      ["orphan-cycle", ref("orphan-cycle")],
    ]);
    expect([...reachableRules({ start: "root", rules }).keys()]).toEqual(["root", "leaf", "item", "item-body"]);
  });

  it("leaves a compiled schema only rules its start reaches", () => {
    for (const mode of ["jsonschema", "extraction"] as const) {
      const { grammar } = compileSchema({ type: "object", properties: { a: { type: "string" }, b: {} } }, { mode });
      expect(grammar.rules.has("json-1-root")).toBe(false);
      expect(reachableRules(grammar).size).toBe(grammar.rules.size);
    }
  });
});
