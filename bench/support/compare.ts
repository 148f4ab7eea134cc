/**
 * Side-by-side measurement of our engine and XGrammar-WASM on the same schemas, instances and
 * token ids: compile time, per-token cost (mask + check + accept) on the first pass after a fresh
 * compile (cold) and on a second pass over the same compiled grammar (warm), mask-only cost in
 * characteristic states, and the choice of MaskBench schemas both engines handle.
 */
import type { CompiledGrammar as XgCompiledGrammar } from "@mlc-ai/web-xgrammar";
import { buildAutomaton } from "../../src/automaton/index.js";
import { TokenGrammar, type CompiledGrammar, type CompileGrammarOptions } from "../../src/mask/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { listMaskbench, loadMaskbench, sampleNames } from "./corpus.js";
import { driveMatcher } from "./drive.js";
import { compileUncached } from "./evaluate.js";
import type { BenchCase } from "./extraction-set.js";
import { COMPACT_SEPARATORS } from "./python-json.js";
import { median, Samples } from "./stats.js";
import { driveXGrammar, type XGrammar, type XgJsonFormat } from "./xgrammar.js";

/** Compact output, JSON Schema semantics: the same language for both engines. */
export const OUR_FORMAT: CompileGrammarOptions = { mode: "jsonschema", format: "compact" };
export const XG_FORMAT: XgJsonFormat = { anyWhitespace: false, separators: [",", ":"], strict: false };

export interface PreparedCase extends BenchCase {
  readonly ids: readonly (readonly number[])[];
}

export interface EngineRun {
  readonly compileMs: number[];
  readonly cold: Samples;
  readonly warm: Samples;
}

export const prepare = (cases: readonly BenchCase[], vocabulary: Vocabulary): PreparedCase[] => cases.map((c) => prepareCase(c, vocabulary));

const prepareCase = (c: BenchCase, vocabulary: Vocabulary): PreparedCase => ({ ...c, ids: c.texts.map((t) => vocabulary.encode(t)) });

const newRun = (): EngineRun => ({ compileMs: [], cold: new Samples(), warm: new Samples() });

/** Our engine: fresh compile per case, then two passes over its instances. */
export function runOurs(cases: readonly PreparedCase[], vocabulary: Vocabulary): EngineRun {
  const run = newRun();
  const eos = vocabulary.eosIds[0]!;
  for (const c of cases) {
    const t0 = performance.now();
    const compiled = compileUncached(c.schema, vocabulary, OUR_FORMAT, true);
    run.compileMs.push(performance.now() - t0);
    const mask = new Uint32Array(compiled.tokens.maskWords);
    for (const samples of [run.cold, run.warm]) {
      for (const ids of c.ids) {
        const outcome = driveMatcher(compiled.tokens.matcher(), ids, mask, eos, { token: samples });
        if (outcome.rejectedAt >= 0 || !outcome.complete) throw new Error(`ours: ${c.name} refused an instance it accepted during selection`);
      }
    }
  }
  return run;
}

/** XGrammar: fresh compile per case (its compile cache is off), then two passes over its instances. */
export async function runTheirs(cases: readonly PreparedCase[], xg: XGrammar, eosId: number): Promise<EngineRun> {
  const run = newRun();
  for (const c of cases) {
    const t0 = performance.now();
    const compiled = await xg.compileJsonSchema(c.schema, XG_FORMAT);
    run.compileMs.push(performance.now() - t0);
    for (const samples of [run.cold, run.warm]) {
      for (const ids of c.ids) {
        const matcher = await xg.matcher(compiled);
        const outcome = await driveXGrammar(matcher, ids, eosId, samples);
        matcher.dispose();
        if (outcome.rejectedAt >= 0 || !outcome.complete) throw new Error(`xgrammar: ${c.name} refused an instance it accepted during selection`);
      }
    }
    compiled.dispose();
  }
  return run;
}

/** Why candidate MaskBench schemas were left out of the side-by-side set. */
export interface SelectionReport {
  tried: number;
  noValidInstance: number;
  oursCompileError: number;
  oursRejected: number;
  xgCompileError: number;
  xgRejected: number;
  /** XGrammar compiles slower than `slowMs` (they stay in the set; listed for the record). */
  xgSlow: string[];
}

/**
 * The first `count` MaskBench files of a seeded shuffle that both engines compile and whose valid
 * instances (compact serialization) both accept.
 */
export async function selectMaskbenchCases(
  dir: string,
  count: number,
  seed: number,
  vocabulary: Vocabulary,
  xg: XGrammar,
  slowMs = 2000,
): Promise<{ cases: PreparedCase[]; report: SelectionReport }> {
  const report: SelectionReport = { tried: 0, noValidInstance: 0, oursCompileError: 0, oursRejected: 0, xgCompileError: 0, xgRejected: 0, xgSlow: [] };
  const cases: PreparedCase[] = [];
  const eos = vocabulary.eosIds[0]!;
  for (const name of sampleNames(listMaskbench(dir) ?? [], undefined, seed)) {
    if (cases.length >= count) break;
    report.tried++;
    const file = loadMaskbench(dir, name, COMPACT_SEPARATORS);
    const candidate = prepareCase({ name, schema: file.schema, texts: file.tests.filter((t) => t.valid).map((t) => t.text) }, vocabulary);
    if (candidate.texts.length === 0) {
      report.noValidInstance++;
      continue;
    }
    let ours: CompiledGrammar;
    try {
      ours = compileUncached(candidate.schema, vocabulary, OUR_FORMAT, true);
    } catch {
      report.oursCompileError++;
      continue;
    }
    const mask = new Uint32Array(ours.tokens.maskWords);
    if (!candidate.ids.every((ids) => accepted(driveMatcher(ours.tokens.matcher(), ids, mask, eos, {})))) {
      report.oursRejected++;
      continue;
    }
    let theirs: XgCompiledGrammar;
    const t0 = performance.now();
    try {
      theirs = await xg.compileJsonSchema(candidate.schema, XG_FORMAT);
    } catch {
      report.xgCompileError++;
      continue;
    }
    if (performance.now() - t0 > slowMs) report.xgSlow.push(`${name} (${Math.round(performance.now() - t0)} ms)`);
    let allAccepted = true;
    for (const ids of candidate.ids) {
      const matcher = await xg.matcher(theirs);
      allAccepted &&= accepted(await driveXGrammar(matcher, ids, eos));
      matcher.dispose();
    }
    theirs.dispose();
    if (!allAccepted) {
      report.xgRejected++;
      continue;
    }
    cases.push(candidate);
  }
  return { cases, report };
}

const accepted = (o: { rejectedAt: number; complete: boolean }): boolean => o.rejectedAt < 0 && o.complete;

export interface ProbeRow {
  readonly state: string;
  /** Our mask computed from scratch (fresh TokenGrammar, empty cache), median µs. */
  readonly oursColdUs: number;
  /** Our mask served from the per-state cache, median µs. */
  readonly oursWarmUs: number;
  /** XGrammar's first bitmask in that state, median over fresh matchers, µs. */
  readonly theirsFirstUs: number;
  /** XGrammar's bitmask, repeated, median µs. */
  readonly theirsUs: number;
}

/** Mask-only cost after each prefix of `states` (prefix text -> state), medians over `repeats`. */
export async function probeMasks(
  schema: unknown,
  states: ReadonlyArray<readonly [string, string]>,
  vocabulary: Vocabulary,
  xg: XGrammar,
  repeats: number,
): Promise<ProbeRow[]> {
  const compiled = compileUncached(schema, vocabulary, OUR_FORMAT, true);
  const theirs = await xg.compileJsonSchema(schema, XG_FORMAT);
  const mask = new Uint32Array(compiled.tokens.maskWords);
  const rows: ProbeRow[] = [];
  for (const [state, prefix] of states) {
    const ids = vocabulary.encode(prefix);
    const oursCold: number[] = [];
    const oursWarm: number[] = [];
    const theirsFirst: number[] = [];
    const theirsRepeat: number[] = [];
    for (let r = 0; r < repeats; r++) {
      // A fresh automaton too: its states are built on demand, so a reused one would be warm.
      const matcher = new TokenGrammar(buildAutomaton(compiled.grammar), vocabulary).matcher();
      if (!ids.every((id) => matcher.accept(id))) throw new Error(`ours: probe prefix ${JSON.stringify(prefix)} refused`);
      oursCold.push(timeUs(() => matcher.fillMask(mask)));
      for (let k = 0; k < 20; k++) oursWarm.push(timeUs(() => matcher.fillMask(mask)));
      const xm = await xg.matcher(theirs);
      if (!ids.every((id) => xm.acceptToken(id))) throw new Error(`xgrammar: probe prefix ${JSON.stringify(prefix)} refused`);
      for (let k = 0; k < 21; k++) {
        const t0 = performance.now();
        await xm.getNextTokenBitmask();
        (k === 0 ? theirsFirst : theirsRepeat).push((performance.now() - t0) * 1000);
      }
      xm.dispose();
    }
    rows.push({ state, oursColdUs: median(oursCold), oursWarmUs: median(oursWarm), theirsFirstUs: median(theirsFirst), theirsUs: median(theirsRepeat) });
  }
  theirs.dispose();
  return rows;
}

function timeUs(f: () => void): number {
  const t0 = performance.now();
  f();
  return (performance.now() - t0) * 1000;
}
