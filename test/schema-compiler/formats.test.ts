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
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { formatNames } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { notEnforced } from "../../bench/support/evaluate.js";
import { PocketExtractError } from "../../src/errors.js";
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

/** Strings of each format's language and near misses, of many lengths. */
const SAMPLES: Readonly<Record<string, readonly string[]>> = {
  date: ["2024-02-29", "2023-02-29", "1999-12-31", "2024-1-01"],
  time: ["23:59:59Z", "08:30:06.283185+01:00", "8:30:06Z", "23:59:60Z"],
  "date-time": ["1963-06-19T08:30:06.283185Z", "2024-02-29t23:59:59z", "1963-06-19 08:30:06Z"],
  duration: ["P4DT12H30M5S", "PT1S", "P1W", "P", "PT"],
  email: ["a@b.co", "joe.bloggs@example.com", "x@[127.0.0.1]", "a..b@c.d", "@b.c"],
  ipv4: ["192.168.0.1", "1.2.3.4", "256.1.1.1", "1.2.3"],
  ipv6: ["::1", "2001:db8::ff00:42:8329", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4", "1::2::3"],
  hostname: ["a", "example.com", "a-b.c-d.e", "-a.com", "www.example..com", `${"a".repeat(63)}.com`, `${"a".repeat(64)}.com`],
  uri: ["http://example.com/a?b=c#d", "urn:isbn:0451450523", "a:", "//no-scheme", "http://[::1]:80/"],
  "uri-reference": ["/a/b", "../x", "", "#frag", "http://example.com", "\\\\bad"],
  uuid: ["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eb8aa08aa9811eab4aa73b441d16380"],
};

/** The acceptor of a bounded format, or undefined when the automaton builder finds no string within the bounds (a typed error). */
function boundedAcceptor(schema: object): ReturnType<typeof acceptor> | undefined {
  try {
    return acceptor(schema, { mode: "jsonschema" });
  } catch (err) {
    if (err instanceof PocketExtractError && err.code === "SCHEMA_UNSATISFIABLE") return undefined;
    throw err;
  }
}

describe("a format cut to length bounds (its rule printed as a pattern)", () => {
  it("accepts exactly the format's strings within minLength/maxLength, with nothing checked after decoding", () => {
    for (const [format, samples] of Object.entries(SAMPLES)) {
      const plain = acceptor(schemaOf(format), { mode: "jsonschema" });
      for (const [minLength, maxLength] of [[0, 12], [5, 30], [10, Infinity], [1, 1]] as const) {
        const schema = { type: "string", format, minLength, ...(maxLength === Infinity ? {} : { maxLength }) };
        const { report } = compileSchema(schema, { mode: "jsonschema" });
        expect(report.validatedAfter, format).toEqual([]);
        const bounded = boundedAcceptor(schema);
        if (bounded === undefined) {
          // Nothing within the bounds: then no sample may be accepted by the plain format either.
          expect(samples.filter((s) => [...s].length >= minLength && [...s].length <= maxLength && plain.dfa(JSON.stringify(s))), format).toEqual([]);
          continue;
        }
        // Prefixes too: every length from 0 to the sample's own.
        for (const text of samples.flatMap((s) => Array.from({ length: s.length + 1 }, (_, n) => s.slice(0, n)))) {
          const length = [...text].length;
          const expected = plain.dfa(JSON.stringify(text)) && length >= minLength && length <= maxLength;
          const json = JSON.stringify(text);
          expect({ format, minLength, maxLength, text, dfa: bounded.dfa(json), ref: bounded.ref(json) }).toEqual({ format, minLength, maxLength, text, dfa: expected, ref: expected });
        }
      }
    }
  });

  it("a hostname is at most 253 characters, in the grammar", () => {
    const schema = schemaOf("hostname");
    const { report } = compileSchema(schema, { mode: "jsonschema" });
    expect(report.validatedAfter).toEqual([]);
    const accepts = acceptor(schema, { mode: "jsonschema" });
    const label = "a".repeat(62);
    const host = (length: number): string => `${[label, label, label, label].join(".")}.${"b".repeat(length - 4 * 63)}`;
    expect(host(253).length).toBe(253);
    expect(accepts.dfa(JSON.stringify(host(253)))).toBe(true);
    expect(accepts.dfa(JSON.stringify(host(254)))).toBe(false);
    expect(accepts.ref(JSON.stringify(host(254)))).toBe(false);
  });

  it("a minLength past the longest hostname is unsatisfiable", () => {
    expect(() => compileSchema({ type: "string", format: "hostname", minLength: 254 }, { mode: "jsonschema" })).toThrow(/minLength 254/);
  });
});

describe("format beside enum/const, decided per value as ajv-formats checks it", () => {
  const ajv = new Ajv2020({ strict: false, logger: false });
  addFormats(ajv);
  const values: unknown[] = [
    ...Object.values(SAMPLES).flat(), "http://test.example.org/a", "ftp://x.y.zz", "not a url", "1/2", "/a~1b", "0#", "{x}", "(", "[a-z]+",
    "2147483647", 2147483647, 2147483648, 1.5, -3, null, true, ["a"], { a: 1 },
  ];
  it.each([...formatNames, "iri", "idn-hostname", "no-such-format"])("%s", (format) => {
    const schema = { enum: values, format };
    const { report } = compileSchema(schema, { mode: "jsonschema" });
    const afterDecoding = report.validatedAfter.some((u) => u.keyword === "format");
    // Undecided only where ajv-formats has no check (iri, idn-*) and a value is a string.
    expect(afterDecoding).toBe(["iri", "idn-hostname"].includes(format));
    if (afterDecoding) return;
    const accepts = acceptor(schema, { mode: "jsonschema" });
    const validate = ajv.compile(schema);
    for (const v of values) {
      const text = JSON.stringify(v);
      expect({ format, v, dfa: accepts.dfa(text), ref: accepts.ref(text) }).toEqual({ format, v, dfa: validate(v), ref: validate(v) });
    }
  });
});

describe("formats negated (not, oneOf): exact for ipv4 and ipv6, whose grammar is ajv-formats' set", () => {
  const ajv = new Ajv2020({ strict: false, logger: false });
  addFormats(ajv);
  /** Strings near both formats: octets, hex groups, separators, and mixed forms. */
  const nearAddresses = fc.array(fc.constantFrom("0", "1", "01", "25", "255", "256", "9", ".", ":", "::", "a", "F", "ffff", "g", "1.2.3.4", "%"), { maxLength: 12 }).map((xs) => xs.join(""));
  const strings = fc.sample(fc.oneof(nearAddresses, fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), { numRuns: 4000, seed: 19 });
  const values: unknown[] = [...SAMPLES.ipv4!, ...SAMPLES.ipv6!, ...strings, 1, null, ["1.2.3.4"]];

  it.each([
    { not: { format: "ipv4" } },
    { not: { format: "ipv6" } },
    { type: "string", oneOf: [{ format: "ipv4" }, { format: "ipv6" }] },
    { type: "string", oneOf: [{ format: "no-such-format" }, { format: "ipv4" }, { format: "ipv6" }] },
    { anyOf: [{ format: "ipv6", not: { format: "ipv4" } }, { type: "number" }] },
    // Exclusions beside a format: its pattern form as a string token.
    { type: "string", format: "ipv4", not: { const: "1.2.3.4" } },
    { type: "string", format: "ipv6", not: { pattern: "^::" } },
  ])("%j", (schema) => {
    expect(compileSchema(schema, { mode: "jsonschema" }).report.validatedAfter).toEqual([]);
    const accepts = acceptor(schema, { mode: "jsonschema" });
    const validate = ajv.compile(schema);
    for (const v of values) {
      const text = JSON.stringify(v);
      expect({ v, dfa: accepts.dfa(text), ref: accepts.ref(text) }).toEqual({ v, dfa: validate(v), ref: validate(v) });
    }
  });

  it("a format refusing valid strings on the safe side has no exact negation: checked after decoding", () => {
    for (const format of ["hostname", "date-time", "email", "uuid"]) {
      expect(compileSchema({ not: { format } }, { mode: "jsonschema" }).report.validatedAfter.map((u) => u.keyword)).toEqual(["not"]);
    }
  });
});
