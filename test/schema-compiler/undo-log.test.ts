import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { LoggedMap, LoggedSet, UndoLog } from "../../src/schema-compiler/undo-log.js";
import { acceptor } from "./support/accept.js";

describe("UndoLog", () => {
  it("rolls maps and sets back to a mark, nested marks included, keeping what came before", () => {
    const log = new UndoLog();
    const map = new LoggedMap<string, number>(log);
    const set = new LoggedSet<string>(log);
    map.set("a", 1);
    set.add("x");
    const outer = log.mark();
    map.set("a", 2);
    map.set("b", 3);
    set.add("y");
    const inner = log.mark();
    map.delete("a");
    map.set("c", 4);
    set.delete("x");
    log.rollBack(inner);
    // "a", deleted and restored, comes back last.
    expect([...map]).toEqual([["b", 3], ["a", 2]]);
    expect([...set]).toEqual(["y", "x"]);
    map.clear();
    set.clear();
    log.rollBack(outer);
    expect(new Map(map)).toEqual(new Map([["a", 1]]));
    expect([...set]).toEqual(["x"]);
    // A later mark's roll back after an earlier one's is a no-op.
    log.rollBack(inner);
    expect([...map]).toEqual([["a", 1]]);
  });
});

describe("a rewriting rolled back past a size limit", () => {
  // The dependent-schema rewriting declares a, b and c in each alternative: past
  // maxSchemaProperties 4 it gives way to the schema as written, and the number rules the
  // attempt imported (json.gbnf) go with it; the fallback's numbers must bring them back.
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { a: { type: "number" }, b: { type: "string" } },
    dependentSchemas: { a: { properties: { c: { type: "number" } }, required: ["c"] } },
  };

  it("leaves a grammar whose library rules are all defined", () => {
    const options = { mode: "jsonschema", format: "compact", maxSchemaProperties: 4 } as const;
    const { grammar, report } = compileSchema(schema, options);
    expect(report.validatedAfter.map((v) => v.keyword)).toContain("dependentSchemas");
    const acc = acceptor(schema, options);
    expect(acc.dfa('{"a":1.5,"b":"x"}')).toBe(true);
    expect(acc.dfa('{"a":-2e3}')).toBe(true);
    expect(acc.dfa('{"a":"1"}')).toBe(false);
    expect([...grammar.rules.keys()].filter((name) => name.startsWith("json-")).length).toBeGreaterThan(0);
  });
});
