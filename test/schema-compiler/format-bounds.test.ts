import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor } from "./support/accept.js";

const JS = { mode: "jsonschema" } as const;

/** Texts per format, inside and outside it. */
const SAMPLES: Record<string, string[]> = {
  date: ["2020-01-31", "2020-02-30", "2024-02-29", "2021-12-01", "99-01-01", "2020-1-1"],
  time: ["12:30:00Z", "23:59:60Z", "12:30:00.123+01:00", "1:2:3Z", "12:30:00"],
  "date-time": ["2020-01-31T12:30:00Z", "2020-01-31t12:30:00.5+05:30", "2020-01-31 12:30:00Z", "2020-01-31T12:30:00.123456789Z"],
  duration: ["P1D", "PT1H30M", "P1Y2M3DT4H5M6S", "P", "1D", "P10W"],
  email: ["a@b.co", "first.last@example.com", "x@[127.0.0.1]", "no-at", "a@@b", "e@x.io"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", "ABCDEF01-2345-6789-abcd-ef0123456789"],
  ipv4: ["127.0.0.1", "256.0.0.1", "1.2.3", "10.0.0.255"],
  ipv6: ["::1", "fe80::1", "2001:db8::8a2e:370:7334", "1:2:3:4:5:6:7:8:9", "::ffff:10.0.0.1"],
  hostname: ["example.com", "a", "-bad.com", "x".repeat(63), `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`, `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`],
  uri: ["http://example.com/a?b#c", "https://x.io", "mailto:e@x.io", "/relative", "ht tp://x"],
  "uri-reference": ["/relative/path", "../up", "http://example.com", "a b", "#frag"],
};
const PATTERNS = [undefined, "^[a-z0-9]", "\\d$", "e", "^[^x]", "1|a", "\\:"];

describe("a format with length bounds or a pattern beside it", () => {
  it("is enforced exactly: the format's grammar, the bounds in code points and the pattern, all on one string", () => {
    const bare = new Map<string, ReturnType<typeof acceptor>>();
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(SAMPLES)),
        fc.constantFrom(0, 1, 3, 8),
        fc.constantFrom(Infinity, 5, 10, 20, 253),
        fc.constantFrom(...PATTERNS),
        (format, minLength, maxLength, pattern) => {
          fc.pre(minLength <= maxLength);
          const schema = { type: "string", format, minLength, ...(maxLength === Infinity ? {} : { maxLength }), ...(pattern === undefined ? {} : { pattern }) };
          const { report } = compileSchema(schema, JS);
          expect(report.validatedAfter, JSON.stringify(schema)).toEqual([]);
          let combined: ReturnType<typeof acceptor> | undefined;
          try {
            combined = acceptor(schema, JS);
          } catch (e) {
            // No text satisfies all (a uuid under maxLength 10): then no sample may be expected.
            if ((e as { code?: unknown }).code !== "SCHEMA_UNSATISFIABLE") throw e;
          }
          let formatOnly = bare.get(format);
          if (formatOnly === undefined) bare.set(format, (formatOnly = acceptor({ type: "string", format }, JS)));
          const re = pattern === undefined ? undefined : new RegExp(pattern.replace("\\:", ":"), "u");
          for (const s of SAMPLES[format]!) {
            const length = [...s].length;
            const hostnameLength = format !== "hostname" || length <= 253;
            const expected = formatOnly.dfa(JSON.stringify(s)) && length >= minLength && length <= maxLength && hostnameLength && (re === undefined || re.test(s));
            expect(combined?.dfa(JSON.stringify(s)) ?? false, `${JSON.stringify(schema)} on ${JSON.stringify(s)}`).toBe(expected);
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 300_000);

  it("stays checked after decoding when the pattern does not combine with the format (its own look-arounds)", () => {
    const { report } = compileSchema({ type: "string", format: "email", pattern: "^(?!x)[a-z]" }, JS);
    expect(report.validatedAfter.map((u) => u.keyword)).toEqual(["pattern"]);
  });
});
