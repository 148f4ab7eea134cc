/**
 * `--schema file.ts` loading (issue 15, items 8 and 12). `#__proto__`, `#constructor`,
 * `#prototype` and other names that are not own exports of the module are refused with
 * SCHEMA_EXPORT (they used to pick Object.prototype and compile a schema accepting anything).
 * And jiti's transpile cache is off: a poisoned "cached" module planted where the shared cache
 * used to live ({tmpdir}/jiti, with the exact name and trailer jiti would look for) does not run.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createJiti } from "jiti";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../cli/support/harness.js";
import { runCliProcess, typedLine } from "./support/cli-process.js";

const BOUNDS = { maxRssMb: 600, maxMs: 60_000 };
const SCHEMA_MODULE = `export const Person = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };\n`;

describe("--schema module exports", () => {
  it.each(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__esModule"])("#%s -> SCHEMA_EXPORT, exit 2", async (name) => {
    const dir = scratchDir();
    const file = join(dir, "schema.ts");
    writeFileSync(file, SCHEMA_MODULE);
    const outcome = await runCliProcess(["inspect", "--schema", `${file}#${name}`], BOUNDS);
    expect(outcome.code).toBe(2);
    const typed = typedLine(outcome);
    expect(typed, outcome.stderr).toMatchObject({ code: "SCHEMA_EXPORT", path: file });
    expect(typed!.message).toContain(`no export "${name}" (exports: Person)`);
  });

  it("#Person still loads", async () => {
    const file = join(scratchDir(), "schema.ts");
    writeFileSync(file, SCHEMA_MODULE);
    const outcome = await runCliProcess(["inspect", "--schema", `${file}#Person`], BOUNDS);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toContain("== grammar (GBNF)");
  });
});

describe("jiti transpile cache", () => {
  it("a poisoned module planted in the old shared cache ({tmpdir}/jiti) does not run", async () => {
    const dir = scratchDir();
    const file = join(dir, "schema.ts");
    writeFileSync(file, SCHEMA_MODULE);
    // Let jiti name the cache entry it would use for this file (same options as the CLI), in a private folder.
    const probe = join(dir, "probe-cache");
    await createJiti(pathToFileURL(file).href, { interopDefault: false, fsCache: probe }).import(file);
    const [entry] = readdirSync(probe);
    expect(entry).toBeDefined();
    const cached = readFileSync(join(probe, entry!), "utf8");
    const trailer = cached.slice(cached.lastIndexOf(" /* v"));
    // The same entry, poisoned, where the default cache lived: a schema folder without node_modules -> {tmpdir}/jiti.
    const marker = join(dir, "poison-ran");
    const shared = join(tmpdir(), "jiti");
    mkdirSync(shared, { recursive: true });
    const planted = join(shared, entry!);
    writeFileSync(planted, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nmodule.exports = { Person: ${JSON.stringify({ type: "string" })} };${trailer}`);

    const outcome = await runCliProcess(["inspect", "--schema", `${file}#Person`], BOUNDS).finally(() => rmSync(planted, { force: true }));
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(outcome.stdout).toContain('"required"'); // the real module's schema, not the planted one
  });
});
