import { compileSchema } from "./src/schema/index.js";
import { buildAutomaton, acceptsText } from "./src/automaton/index.js";
import { printGbnf } from "./src/grammar/index.js";
console.log(printGbnf(compileSchema({}, { mode: "jsonschema", maxAnyValueDepth: 1 }).grammar));
for (const format of ["compact","flexible"] as const) for (const d of [2,3,4]) {
  const c = compileSchema({}, { mode: "jsonschema", format, maxAnyValueDepth: d });
  const t = performance.now();
  try { const dfa = buildAutomaton(c.grammar); console.log(format, d, dfa.numStates, (performance.now()-t).toFixed(0)+"ms", acceptsText(dfa, '[{"a":[1]}]'), acceptsText(dfa, '[[[[1]]]]')); } catch (e) { console.log(format, d, (e as Error).message.slice(0,80), (performance.now()-t).toFixed(0)+"ms"); }
}
