import { compileGrammar } from "./src/compile/index.js";
import { MaskComputer } from "./src/mask/mask-computer.js";
import { fixtureVocabulary } from "./test/support/fixture-vocab.js";
const vocab = await fixtureVocabulary();
const g = compileGrammar({ type: "object", properties: { a: { type: "string" }, b: { type: "string", maxLength: 64 } }, required: ["a", "b"] }, vocab, { mode: "jsonschema", format: "compact" }).tokens;
const m = g.matcher();
for (const id of vocab.encode('{"a":"hello')) m.accept(id);
const free = m.state;
const m2 = g.matcher();
for (const id of vocab.encode('{"a":"x","b":"hello')) m2.accept(id);
const bounded = m2.state;
const comp = new MaskComputer(g.dfa, g.analysis, g.index);
const out = new Uint32Array(2048);
for (const [name, s] of [["free", free], ["bounded", bounded]] as const) {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) { out.fill(0); const t = performance.now(); comp.compute(s, out); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(name, "visited", comp.lastVisited, "median us", (times[100] * 1000).toFixed(1), "min", (times[0]*1000).toFixed(1), "budget", g.analysis.plainBudget[s * 4]);
}
