/**
 * The first computed mask in the characteristic states of bench:mask's probe schema, ours only
 * (no XGrammar load), with what it did: states built and trie nodes visited:
 *
 *   npx tsx bench/probe-first-mask.ts [--repeats N]
 *
 * Each repeat builds a fresh automaton (its states are built on demand, so a reused one would be
 * warm); medians over the repeats.
 */
import { parseArgs } from "node:util";
import { buildAutomaton } from "../src/automaton/index.js";
import { TokenGrammar } from "../src/mask/index.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { OUR_FORMAT } from "./support/compare.js";
import { compileUncached } from "./support/evaluate.js";
import { PROBE_SCHEMA, PROBE_STATES } from "./support/extraction-set.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";
import { warmUp } from "./support/warm-up.js";

const { values } = parseArgs({ options: { repeats: { type: "string", default: "41" } } });
const vocabulary = await fixtureVocabulary();
warmUp(vocabulary);
const compiled = compileUncached(PROBE_SCHEMA, vocabulary, OUR_FORMAT, true);
const mask = new Uint32Array(compiled.tokens.maskWords);
const rows: string[][] = [];
for (const [state, prefix] of PROBE_STATES) {
  const ids = vocabulary.encode(prefix);
  const us: number[] = [];
  const built: number[] = [];
  for (let r = 0; r < Number(values.repeats); r++) {
    const automaton = buildAutomaton(compiled.grammar);
    const matcher = new TokenGrammar(automaton, vocabulary).matcher();
    if (!ids.every((id) => matcher.accept(id))) throw new Error(`probe prefix ${JSON.stringify(prefix)} refused`);
    const states = automaton.numStates;
    const t0 = performance.now();
    matcher.fillMask(mask);
    us.push((performance.now() - t0) * 1000);
    built.push(automaton.numStates - states);
  }
  rows.push([state, fmt(median(us)), fmt(Math.min(...us)), String(median(built))]);
}
console.log(formatTable(["state", "first mask us (median)", "min", "states built"], rows));
