/**
 * The format audit: a format the compile report calls enforced must be enforced by the grammar
 * exactly, per JSON-Schema-Test-Suite's format tests (draft2020-12/optional/format). An invalid
 * string the grammar accepts is allowed only when the report also lists the format as checked
 * after decoding (hostname's total length); a valid string it refuses only when it falls under a
 * departure documented in the grammar file and README (refused on the safe side, never the
 * other way). A defined format without a grammar must be reported as checked after decoding or
 * not enforced, so the MaskBench harness never counts it as enforced.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatNames } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { notEnforced } from "../../bench/support/evaluate.js";
import { KNOWN_FORMATS, SPEC_FORMATS, VALIDATOR_FORMATS } from "../../src/schema/index.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const DIR = join(import.meta.dirname, "../../../shared/corpora/json-schema-test-suite/draft2020-12/optional/format");

/** Valid strings the grammar refuses on purpose (see the grammar files' opening comments). */
const DEPARTURES: Readonly<Record<string, (s: string) => boolean>> = {
  // IDNA A-labels ("xn--") and any label with "--" in its 3rd and 4th characters.
  hostname: (s) => s.split(".").some((label) => label.slice(2, 4) === "--"),
  // A leap second is accepted with whole-hour offsets only.
  time: (s) => /:60(\.[0-9]+)?[+-][0-9]{2}:(?!00)/.test(s),
  "date-time": (s) => /:60(\.[0-9]+)?[+-][0-9]{2}:(?!00)/.test(s),
  // Quoted local parts.
  email: (s) => s.startsWith('"'),
};

const schemaOf = (format: string) => ({ type: "string", format });
const formatEntries = (uses: readonly { keyword: string }[]) => uses.filter((u) => u.keyword === "format").length;

describe("format keyword lists", () => {
  it("every defined format without a grammar is either checked by ajv-formats or reported as not enforced", () => {
    const ajvKnows = new Set<string>(formatNames);
    for (const f of VALIDATOR_FORMATS) expect(ajvKnows.has(f), f).toBe(true);
    for (const f of SPEC_FORMATS) {
      if (KNOWN_FORMATS.has(f) || VALIDATOR_FORMATS.has(f)) continue;
      expect(ajvKnows.has(f), `${f} is checked by ajv-formats: list it in VALIDATOR_FORMATS`).toBe(false);
    }
  });

  it.each([...SPEC_FORMATS].filter((f) => !KNOWN_FORMATS.has(f)))("%s is never reported as enforced", (format) => {
    const { report } = compileSchema(schemaOf(format), { mode: "jsonschema" });
    expect(formatEntries(report.enforced)).toBe(0);
    expect(notEnforced(report)).toContain("format");
  });

  it("an unknown, non-standard format stays an annotation the harness does not count", () => {
    const { report } = compileSchema(schemaOf("path"), { mode: "jsonschema" });
    expect(notEnforced(report)).toEqual([]);
  });
});

if (!existsSync(DIR)) {
  console.warn(`JSON-Schema-Test-Suite format tests not found at ${DIR}: format audit skipped`);
  describe.skip("format audit (corpus absent)", () => {
    it("needs ../shared/corpora/json-schema-test-suite", () => {});
  });
} else {
  describe("format audit against JSON-Schema-Test-Suite", () => {
    for (const file of readdirSync(DIR).filter((f) => f.endsWith(".json")).sort()) {
      it(file, () => {
        const groups = JSON.parse(readFileSync(join(DIR, file), "utf8")) as { schema: { format?: unknown }; tests: { description: string; data: unknown; valid: boolean }[] }[];
        const failures: string[] = [];
        for (const g of groups) {
          const format = g.schema.format;
          if (typeof format !== "string") continue;
          const schema = schemaOf(format);
          const { report } = compileSchema(schema, { mode: "jsonschema" });
          if (formatEntries(report.enforced) === 0) {
            if (SPEC_FORMATS.has(format)) expect(notEnforced(report), format).toContain("format");
            continue;
          }
          const partlyAfter = formatEntries(report.validatedAfter) > 0;
          const accepts = acceptor(schema, { mode: "jsonschema" });
          for (const t of g.tests) {
            if (typeof t.data !== "string") continue;
            const text = JSON.stringify(t.data);
            const got = accepts.dfa(text);
            if (got !== accepts.ref(text)) failures.push(`${format} ${text}: automaton and reference matcher disagree`);
            if (got === t.valid) continue;
            if (!t.valid && partlyAfter) continue;
            if (t.valid && DEPARTURES[format]?.(t.data) === true) continue;
            failures.push(`${format} ${text} (${t.description}): expected ${t.valid ? "accept" : "reject"}`);
          }
        }
        expect(failures).toEqual([]);
      });
    }
  });
}
