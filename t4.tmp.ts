import { readdirSync, readFileSync } from "node:fs";
import { compileSchema } from "./src/schema/index.js";
import { buildAutomaton } from "./src/automaton/index.js";
const dir = "/work/shared/corpora/json-schema-test-suite/draft2020-12";
for (const f of readdirSync(dir).filter(f=>f.endsWith(".json"))) {
  for (const g of JSON.parse(readFileSync(dir+"/"+f,"utf8"))) {
    for (const format of ["compact","flexible"] as const) {
    const t = performance.now(); let res = "";
    try { const c = compileSchema(g.schema, {mode:"jsonschema", format}); if (c.report.validatedAfter.length) { res = "after"; } else { const d = buildAutomaton(c.grammar); res = "states " + d.numStates; } } catch (e) { res = (e as any).code + " " + (e as Error).message.slice(0,100); }
    const ms = performance.now()-t; if (ms > 300 || res.startsWith("AUTO")) console.log(f, "|", g.description, format, ms.toFixed(0), res);
    }
  }
}
