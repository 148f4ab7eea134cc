/**
 * JSON-Schema-Test-Suite (draft2020-12 and draft7) in JSON Schema mode: for every group whose
 * keywords the compiler enforces (compiles, and nothing in the report is "validatedAfter"), the
 * automaton must accept each valid instance and reject each invalid one, in compact format
 * (JSON.stringify) and flexible format (JSON.stringify(x, null, 2)). Instances are serialized
 * with keys in schema order (the order the grammar writes). The reference matcher must agree.
 * Excluded and counted: groups the compiler rejects (remote refs, ...), groups with keywords
 * checked after decoding, groups whose automaton exceeds the builder's budget, and (2020-12)
 * groups with `format`, which the compiler asserts by design where 2020-12 only annotates. Object instances with keys outside that order and Unicode-escape equivalences are
 * not at issue: JSON.stringify writes the canonical form the grammar expects.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PocketExtractError, SchemaError } from "../../src/errors.js";
import { compileSchema } from "../../src/schema-compiler/index.js";
import { acceptor, reorder, schemaKeyOrder } from "./support/accept.js";

const ROOT = join(import.meta.dirname, "../../../shared/corpora/json-schema-test-suite");
const DRAFTS = { "draft2020-12": "https://json-schema.org/draft/2020-12/schema", draft7: "http://json-schema.org/draft-07/schema#" } as const;

interface Group {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

if (!existsSync(ROOT)) {
  console.warn(`JSON-Schema-Test-Suite not found at ${ROOT}: suite skipped`);
  describe.skip("JSON-Schema-Test-Suite (corpus absent)", () => {
    it("needs ../shared/corpora/json-schema-test-suite", () => {});
  });
} else {
  describe("JSON-Schema-Test-Suite", () => {
    for (const [draft, uri] of Object.entries(DRAFTS)) {
      const dir = join(ROOT, draft);
      const counts = { groups: 0, enforced: 0, tests: 0, passed: 0, excludedRejected: 0, excludedValidatedAfter: 0, excludedAutomaton: 0, excludedFormat: 0, excludedMetaSchema: 0 };
      const rejectedBy = new Map<string, number>();
      const afterBy = new Map<string, number>();
      afterAll(() => {
        console.log(
          `JSON-Schema-Test-Suite ${draft}: ${counts.groups} groups; ${counts.enforced} enforced (${counts.passed}/${counts.tests} tests pass in both formats); ` +
            `excluded: ${counts.excludedRejected} rejected at compile ${JSON.stringify(Object.fromEntries(rejectedBy))}, ` +
            `${counts.excludedValidatedAfter} with keywords checked after decoding ${JSON.stringify(Object.fromEntries(afterBy))}, ` +
            `${counts.excludedAutomaton} over the automaton size budget, ${counts.excludedFormat} asserting format by design, ${counts.excludedMetaSchema} with a custom meta-schema`,
        );
      });
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
        it(`${draft}/${file}`, () => {
          const failures: string[] = [];
          const groups = JSON.parse(readFileSync(join(dir, file), "utf8")) as Group[];
          for (const g of groups) {
            counts.groups++;
            // A custom meta-schema may turn vocabularies off (vocabulary.json); the compiler assumes the standard ones.
            const metaSchema = typeof g.schema === "object" && g.schema !== null && "$schema" in g.schema ? String(g.schema.$schema) : uri;
            if (!Object.values(DRAFTS).includes(metaSchema as (typeof DRAFTS)[keyof typeof DRAFTS])) {
              counts.excludedMetaSchema++;
              continue;
            }
            const schema = typeof g.schema === "object" && g.schema !== null && !("$schema" in g.schema) ? { $schema: uri, ...g.schema } : g.schema;
            let report;
            try {
              report = compileSchema(schema, { mode: "jsonschema" }).report;
            } catch (err) {
              if (!(err instanceof PocketExtractError)) throw err;
              const key = `${err.code}${err instanceof SchemaError && err.keyword ? `:${err.keyword}` : ""}`;
              // An unsatisfiable schema is enforced: every instance must be invalid.
              if (err.code === "SCHEMA_UNSATISFIABLE") {
                counts.enforced++;
                for (const t of g.tests) {
                  counts.tests++;
                  if (t.valid) failures.push(`${file} / ${g.description} / ${t.description}: valid, but compile says unsatisfiable`);
                  else counts.passed++;
                }
                continue;
              }
              counts.excludedRejected++;
              rejectedBy.set(key, (rejectedBy.get(key) ?? 0) + 1);
              continue;
            }
            // Draft 2019-09+ makes format an annotation; we assert it by design, so those groups differ.
            if (report.enforced.some((u) => u.keyword === "format" && u.note?.startsWith("asserted"))) {
              counts.excludedFormat++;
              continue;
            }
            if (report.validatedAfter.length > 0) {
              counts.excludedValidatedAfter++;
              for (const k of new Set(report.validatedAfter.map((u) => u.keyword))) afterBy.set(k, (afterBy.get(k) ?? 0) + 1);
              continue;
            }
            let compact, flexible;
            try {
              compact = acceptor(schema, { mode: "jsonschema" });
              flexible = acceptor(schema, { mode: "jsonschema", format: "flexible" });
            } catch (err) {
              if (!(err instanceof PocketExtractError)) throw err;
              counts.excludedAutomaton++;
              continue;
            }
            counts.enforced++;
            const rank = schemaKeyOrder(g.schema);
            for (const t of g.tests) {
              counts.tests++;
              const data = reorder(t.data, rank);
              const where = `${file} / ${g.description} / ${t.description}`;
              const texts: [string, string, typeof compact][] = [["compact", JSON.stringify(data), compact], ["flexible", JSON.stringify(data, null, 2), flexible]];
              let ok = true;
              for (const [fmt, text, acc] of texts) {
                const viaDfa = acc.dfa(text);
                const viaRef = acc.ref(text);
                if (viaDfa !== t.valid) failures.push(`${where} [${fmt}]: expected ${t.valid ? "accept" : "reject"} of ${text.slice(0, 120)}`);
                if (viaDfa !== viaRef) failures.push(`${where} [${fmt}]: automaton ${viaDfa} but reference matcher ${viaRef}`);
                ok &&= viaDfa === t.valid && viaRef === viaDfa;
              }
              if (ok) counts.passed++;
            }
          }
          if (failures.length > 0) console.log(failures.slice(0, 60).join("\n"));
          expect(failures).toEqual([]);
          // Recursive groups build large automata (and the machine may be shared): allow minutes.
        }, 300_000);
      }
    }
  });
}
