import { describe, expect, it } from "vitest";
import { LoggedMap, LoggedSet, UndoLog } from "../../src/schema-compiler/undo-log.js";

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
