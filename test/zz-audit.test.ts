import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "vitest";
import { compileSchema } from "../src/schema-compiler/index.js";
import { acceptor } from "../test/schema-compiler/support/accept.js";
const DIR = "/work/shared/corpora/json-schema-test-suite/draft2020-12/optional/format";
it("audit", () => {
  for (const f of readdirSync(DIR)) {
    const groups = JSON.parse(readFileSync(join(DIR, f), "utf8"));
    for (const g of groups) {
      const fmt = g.schema.format; if (typeof fmt !== "string") continue;
      const schema = { type: "string", format: fmt };
      const rep = compileSchema(schema, { mode: "jsonschema" }).report;
      const cls = rep.enforced.some(u => u.keyword === "format") ? "enforced" : rep.validatedAfter.some(u=>u.keyword==="format") ? "after" : "annotation";
      if (cls !== "enforced") { console.log(`${fmt}: ${cls}`); continue; }
      const acc = acceptor(schema, { mode: "jsonschema" });
      let bad = 0, n = 0;
      for (const t of g.tests) { if (typeof t.data !== "string") continue; n++;
        const got = acc.dfa(JSON.stringify(t.data));
        if (got !== t.valid) { bad++; console.log(`  ${fmt} MISMATCH expected ${t.valid} got ${got}: ${JSON.stringify(t.data)} (${t.description})`); } }
      console.log(`${fmt}: enforced, ${n - bad}/${n} agree`);
    }
  }
});
