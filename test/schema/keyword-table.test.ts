/**
 * The keyword table is the one list of JSON Schema keywords: every entry has a handling and a
 * value kind, refused keywords say why, the derived facts agree with the table, and no other
 * source file keeps a list of keywords of its own.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultClass, forEachSubschema, isAnnotationKeyword, KEYWORDS, keywordSpec, REFUSED, type Keyword } from "../../src/schema/index.js";

const SRC = join(import.meta.dirname, "../../src");
const TABLE_FILE = join(SRC, "schema/keywords.ts");
const keywords = Object.keys(KEYWORDS) as Keyword[];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the keyword table", () => {
  it("gives every keyword a handling and a value kind", () => {
    for (const k of keywords) {
      const spec = KEYWORDS[k];
      expect(["enforced", "validatedAfter", "annotation", "refused"], k).toContain(spec.handling);
      expect(typeof spec.value, k).toBe("string");
    }
  });

  it("says why each refused keyword is refused", () => {
    expect(REFUSED).toEqual(["$dynamicRef", "$recursiveRef"]);
    for (const k of REFUSED) expect(keywordSpec(k)?.note).toBe("dynamic scope");
  });

  it("reports unknown, vendor and refused keywords by their default class", () => {
    expect(defaultClass("minProperties")).toEqual({ cls: "enforced" });
    expect(defaultClass("dependentRequired")).toEqual({ cls: "validatedAfter" });
    expect(defaultClass("title")).toEqual({ cls: "annotation" });
    expect(defaultClass("$dynamicRef")).toEqual({ cls: "validatedAfter", note: "rejected when compiled" });
    expect(defaultClass("x-anything")).toEqual({ cls: "annotation", note: "vendor extension, ignored" });
    expect(defaultClass("colour")).toEqual({ cls: "annotation", note: "unknown keyword, ignored" });
    expect(isAnnotationKeyword("$defs")).toBe(true);
    expect(isAnnotationKeyword("not")).toBe(false);
  });

  it("pairs every bound with an opposite bound on the other side of the same type", () => {
    for (const k of keywords) {
      const spec = keywordSpec(k)!;
      if (spec.opposite === undefined) continue;
      const other = keywordSpec(spec.opposite);
      expect(other?.instance, k).toBe(spec.instance);
      expect(other?.bound, k).not.toBe(spec.bound);
      expect(other?.opposite, k).toBe(k);
    }
  });

  it("visits the subschemas of every keyword whose value holds subschemas", () => {
    const holders = keywords.filter((k) => ["schema", "schemas", "schemaList", "schemaMap", "items", "dependencies"].includes(KEYWORDS[k].value));
    const child = {};
    for (const k of holders) {
      const kind = KEYWORDS[k].value;
      const value = kind === "schema" || kind === "items" ? child : kind === "schemas" || kind === "schemaList" ? [child] : { a: child };
      const seen: string[] = [];
      forEachSubschema({ [k]: value }, "", (node, ptr) => {
        if (node === child) seen.push(ptr);
      });
      expect(seen.length, k).toBe(1);
    }
  });

  it("is the only list of keywords in src (no array or set literal names three table keywords)", () => {
    const known = new Set<string>(keywords);
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file === TABLE_FILE) continue;
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\[([^[\]]*)\]/g)) {
        const names = [...m[1]!.matchAll(/"([^"]+)"/g)].map((n) => n[1]!).filter((n) => known.has(n));
        if (names.length >= 3) offenders.push(`${file.slice(SRC.length + 1)}: ${names.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
