/**
 * Speculative decoding (src/decode/speculative.ts, prompt-lookup.ts and the verification round in
 * generate.ts) gives exactly the output of plain decoding: property tests over random schemas,
 * documents, token budgets, seeds and sampling settings, on the tiny and the pocket-shaped GGUF
 * through llama.cpp (where drafts are verified in one batch and rejected ones cut from the KV
 * cache) and on the random test engine; and on real extraction outputs (the grounding set's gold
 * values replayed by the scripted engine), where drafts are mostly confirmed and the forward
 * passes drop. With sampling, every output token is still one draw from its own row in output
 * order, so the same seed gives the same tokens: the distribution is preserved draw for draw.
 * llama.cpp's batched and one-token logits can differ in their last bits (test/support/near-tie.ts),
 * so there a greedy divergence passes only at a near-tie of the two tokens, checked by recomputing
 * the logits the plain loop's way, and a sampled one only rarely. Also: the gates that
 * stop drafting guesses a model seldom confirms, and their record kept across an extractor's documents.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pocketDraftRecord, replay, replayCases } from "../../bench/support/replay.js";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";
import { compileGrammar } from "../../src/mask/index.js";
import { generate, type GenerateOptions } from "../../src/decode/index.js";
import { createExtractor, type Extractor } from "../../src/index.js";
import { breakEvenShare, DraftGate, DraftLength, DraftRecord } from "../../src/decode/speculative.js";
import type { Engine, EngineSession, SamplingOptions } from "../../src/engines/engine.js";
import { createLlamaEngine } from "../../src/engines/llama/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { buildPrompt } from "../../src/prompt/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { NEAR_TIE, ReferenceLogits } from "../support/near-tie.js";

type Schema = Record<string, unknown>;

const WORDS = ["Ada", "Lovelace", "order", "A-1029", "3", "boxes", "paid", "2026-03-15", "¥1,299.00", "王小明", "购买了", "门店", "London", "Baker", "Street", "total", "qty"];

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.integer({ min: 4, max: 24 }).map((max) => ({ type: "string", maxLength: max })),
  fc.tuple(fc.integer({ min: -50, max: 50 }), fc.nat(5000)).map(([lo, span]) => ({ type: "integer", minimum: lo, maximum: lo + span })),
  fc.constant({ type: "number" }),
  fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: ["string", "null"], maxLength: 16 }),
);

const schemaArb: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 2, depthIdentifier: "schema" },
    leaf,
    fc
      .uniqueArray(fc.tuple(fc.constantFrom("name", "date", "total", "items", "city", "qty"), tie("node"), fc.boolean()), { minLength: 1, maxLength: 4, selector: (t) => t[0] })
      .map((props) => ({
        type: "object",
        properties: Object.fromEntries(props.map(([k, s]) => [k, s])),
        required: props.filter(([, , r]) => r).map(([k]) => k),
        additionalProperties: false,
      })),
    fc.tuple(tie("node"), fc.nat(2)).map(([items, extra]) => ({ type: "array", items, maxItems: 1 + extra })),
  ),
})).node.map((s) => (s.type === "object" ? s : { type: "object", properties: { value: s }, required: ["value"], additionalProperties: false }));

const samplingArb: fc.Arbitrary<SamplingOptions> = fc.oneof(
  fc.constant({}),
  fc.record({ temperature: fc.constantFrom(0.7, 1.2), topP: fc.constantFrom(1, 0.9), topK: fc.constantFrom(0, 40), seed: fc.nat(1000) }),
);

const caseArb = fc.record({
  schema: schemaArb,
  document: fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 30 }).map((w) => w.join(" ")),
  maxTokens: fc.integer({ min: 8, max: 60 }),
  maxDraft: fc.integer({ min: 1, max: 8 }),
  sampling: samplingArb,
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** Output tokens, stop reason and cut, or the error code; the forward passes it took; the prompt. */
async function decode(engine: Engine, vocabulary: Vocabulary, c: Case, speculative: GenerateOptions["speculative"]) {
  const grammar = compileGrammar(c.schema, vocabulary).tokens;
  const promptIds = vocabulary.encode(buildPrompt({ jsonSchema: c.schema, text: c.document, language: "en" }).full);
  const session = await engine.createSession({ sampling: c.sampling });
  try {
    const r = await generate(session, grammar, promptIds, { maxTokens: c.maxTokens, speculative });
    return { outcome: { tokens: r.tokens, stop: r.stats.stopReason, cutAt: r.cutAt }, stats: r.stats, promptIds };
  } catch (err) {
    return { outcome: { error: (err as { code?: string }).code ?? String(err) }, stats: undefined, promptIds };
  } finally {
    await session.close();
  }
}

type Decoded = Awaited<ReturnType<typeof decode>>;

/** Reference logit gaps of the greedy divergences accepted as near-ties, logged by each llama.cpp test. */
/** What a test watches a verification do; each hook runs before the call it names is passed on. */
interface VerificationHooks {
  feedRows?: (ids: readonly number[], rows: readonly number[]) => void;
  sampleRow?: () => void;
  rollback?: () => void;
}

/** A scripted engine writing `script`, whose sessions report their verification calls to `hooks`. */
function observedScriptedEngine(script: string, hooks: VerificationHooks): Engine {
  const engine = new ScriptedEngine({ vocabulary, script, canonical: true });
  return {
    ...engine,
    vocabulary,
    name: engine.name,
    contextLength: undefined,
    dispose: () => engine.dispose(),
    createSession: async (): Promise<EngineSession> => {
      const s = await engine.createSession();
      return {
        feed: (ids) => s.feed(ids),
        sample: (mask) => s.sample(mask),
        feedRows: (ids, rows) => (hooks.feedRows?.(ids, rows), s.feedRows!(ids, rows)),
        sampleRow: (row, mask) => (hooks.sampleRow?.(), s.sampleRow!(row, mask)),
        rollback: (n) => (hooks.rollback?.(), s.rollback!(n)),
        close: () => s.close(),
      };
    },
  };
}

const nearTies: number[] = [];

/**
 * The same outcome; or, given the llama.cpp reference of the model (greedy cases), a divergence
 * where the two chosen tokens' logits are within batch rounding of each other (near-tie.ts).
 */
async function expectSameGreedy(spec: Decoded, plain: Decoded, reference?: () => Promise<ReferenceLogits>): Promise<void> {
  const [plainTokens, specTokens] = [plain.outcome.tokens, spec.outcome.tokens];
  if (reference && plainTokens && specTokens && !isDeepStrictEqual(spec.outcome, plain.outcome)) {
    const gap = await (await reference()).gapAtDivergence({ promptIds: plain.promptIds, plain: plainTokens, speculative: specTokens });
    expect(gap, `greedy outputs differ: ${plainTokens} vs ${specTokens}`).toBeDefined();
    expect(gap!, "the greedy outputs part at a logit gap wider than batch rounding").toBeLessThanOrEqual(NEAR_TIE);
    nearTies.push(gap!);
    return;
  }
  expect(spec.outcome).toEqual(plain.outcome);
}

/** Logs the near-ties a test accepted (empty on most runs). */
function reportNearTies(test: string): void {
  if (nearTies.length > 0) console.warn(`speculative.test (${test}): ${nearTies.length} greedy case(s) parted at a near-tie, reference gaps ${nearTies.map((g) => g.toExponential(2)).join(", ")}`);
  nearTies.length = 0;
}

/** Draft tokens verified across a property's runs: a property whose runs drafted nothing proves nothing. */
const totals = { drafted: 0, accepted: 0 };

/**
 * `engine` gives the engine for each of the two runs (test engines number their sessions'
 * streams). With `warm`, a first plain run fills the KV cache, so both compared runs reuse the
 * cached prompt and evaluate only its last token: llama.cpp's logits for that token alone and
 * within the whole prompt's batch can differ in their last bits, which moves a rare sampled draw
 * (also without speculation), so comparing a cold run with a warm one would test the cache.
 */
async function checkSameOutput(
  engine: () => Engine,
  vocabulary: Vocabulary,
  c: Case,
  warm = false,
  sampledDiverged?: (c: Case) => void,
  reference?: () => Promise<ReferenceLogits>,
): Promise<void> {
  if (warm) await decode(engine(), vocabulary, c, false);
  const plain = await decode(engine(), vocabulary, c, false);
  const spec = await decode(engine(), vocabulary, c, { maxDraft: c.maxDraft });
  if (sampledDiverged && c.sampling.temperature !== undefined && !isDeepStrictEqual(spec.outcome, plain.outcome)) {
    sampledDiverged(c);
    return;
  }
  await expectSameGreedy(spec, plain, reference);
  if (plain.stats && spec.stats) {
    expect(plain.stats.tokensDrafted).toBe(0);
    expect(spec.stats.tokensAccepted).toBeLessThanOrEqual(spec.stats.tokensDrafted);
    // Each verification pass yields its confirmed tokens plus one: never more passes than plain.
    expect(spec.stats.forwardPasses).toBeLessThanOrEqual(plain.stats.forwardPasses);
    totals.drafted += spec.stats.tokensDrafted;
    totals.accepted += spec.stats.tokensAccepted;
  }
}

/** Runs a property and checks that its runs verified drafts. */
async function assertDrafting(property: fc.IAsyncProperty<[Case]> | fc.IAsyncProperty<[Case, number]>, numRuns: number): Promise<void> {
  totals.drafted = 0;
  totals.accepted = 0;
  await fc.assert(property as fc.IAsyncProperty<[Case]>, { numRuns });
  expect(totals.drafted).toBeGreaterThan(numRuns / 10);
}

let vocabulary: Vocabulary;
beforeAll(async () => {
  vocabulary = await fixtureVocabulary();
});

describe("speculative decoding gives the plain loop's output", () => {
  it("random engine: 200 random schemas, documents, budgets and seeds", async () => {
    await assertDrafting(
      fc.asyncProperty(caseArb, fc.nat(10000), async (c, seed) => {
        await checkSameOutput(() => new RandomEngine({ vocabulary, seed, eosProbability: 0.3 }), vocabulary, c);
      }),
      200,
    );
  }, 300_000);

  describe("llama.cpp", () => {
    const engines: Partial<Record<"tiny" | "pocket" | "drafter", Engine>> = {};
    // Loaded on the first greedy divergence only (most runs have none).
    const references = new Map<"tiny" | "pocket", Promise<ReferenceLogits>>();
    const reference = (preset: "tiny" | "pocket") => async (): Promise<ReferenceLogits> => {
      if (!references.has(preset)) references.set(preset, ensureGgufFixture(preset).then((path) => ReferenceLogits.load(path)));
      return references.get(preset)!;
    };
    beforeAll(async () => {
      engines.tiny = await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny"), contextLength: 1024, threads: 1, vocabulary });
      engines.drafter = await createLlamaEngine({ modelPath: await ensureGgufFixture("tiny"), contextLength: 1024, threads: 1, vocabulary });
      engines.pocket = await createLlamaEngine({ modelPath: await ensureGgufFixture("pocket"), contextLength: 1024, threads: 1, vocabulary });
    }, 300_000);
    afterAll(async () => {
      await engines.tiny?.dispose();
      await engines.pocket?.dispose();
      await engines.drafter?.dispose();
      for (const loaded of references.values()) (await loaded).dispose();
    });

    it("each reports what a verified row costs by its shape: nearly a pass for the tiny model, a fifth for the pocket-shaped one", () => {
      expect(engines.tiny!.verifyRowCost).toBeGreaterThan(0.98);
      expect(engines.tiny!.verifyRowCost).toBeLessThan(0.99);
      expect(engines.pocket!.verifyRowCost).toBeGreaterThan(0.19);
      expect(engines.pocket!.verifyRowCost).toBeLessThan(0.2);
    });

    it("tiny drafting for itself (draft model): 40 greedy cases, same output, every draft confirmed", async () => {
      let drafted = 0;
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(caseArb, async (c0) => {
          const c = { ...c0, sampling: {} };
          await decode(engines.tiny!, vocabulary, c, false); // warm: both compared runs reuse the cached prompt
          const plain = await decode(engines.tiny!, vocabulary, c, false);
          const spec = await decode(engines.tiny!, vocabulary, c, { promptLookup: false, heldBack: false, draftModel: engines.drafter!, maxDraft: c.maxDraft });
          await expectSameGreedy(spec, plain, reference("tiny"));
          drafted += spec.stats?.tokensDrafted ?? 0;
          accepted += spec.stats?.tokensAccepted ?? 0;
        }),
        { numRuns: 40 },
      );
      reportNearTies("tiny drafting for itself");
      expect(drafted).toBeGreaterThan(40);
      // Greedy drafts of the same weights: every guess is the target's own choice.
      expect(accepted / drafted).toBeGreaterThan(0.99);
    }, 600_000);

    it("tiny drafting for the pocket-shaped GGUF (draft model, prompt lookup on too): 4 greedy cases, same output", async () => {
      const short = caseArb.map((c) => ({ ...c, document: c.document.slice(0, 40), maxTokens: Math.min(c.maxTokens, 16), sampling: {} }));
      let drafted = 0;
      await fc.assert(
        fc.asyncProperty(short, async (c) => {
          await decode(engines.pocket!, vocabulary, c, false);
          const plain = await decode(engines.pocket!, vocabulary, c, false);
          const spec = await decode(engines.pocket!, vocabulary, c, { draftModel: engines.drafter!, maxDraft: c.maxDraft });
          await expectSameGreedy(spec, plain, reference("pocket"));
          drafted += spec.stats?.tokensDrafted ?? 0;
        }),
        { numRuns: 4 },
      );
      reportNearTies("tiny drafting for the pocket-shaped GGUF");
      // Over the runs, not per case: a case whose grammar leaves one free choice (an enum) has
      // nothing to draft after it.
      expect(drafted).toBeGreaterThan(0);
    }, 600_000);

    // A verification batch's logits can differ from one-token logits in their last bits, which moves
    // a sampled draw that lands within that much of a boundary: rare, and never systematic (a
    // wrong accept/resample rule would change most sampled cases). Greedy cases agree or part at a near-tie.
    it("tiny GGUF: 150 random cases, greedy and sampled (a sampled case may rarely diverge)", async () => {
      const diverged: Case[] = [];
      await assertDrafting(fc.asyncProperty(caseArb, (c) => checkSameOutput(() => engines.tiny!, vocabulary, c, true, (d) => diverged.push(d), reference("tiny"))), 150);
      reportNearTies("tiny GGUF, 150 cases");
      if (diverged.length > 0) console.warn(`speculative.test: ${diverged.length} of 150 cases diverged at a sampled draw`);
      expect(diverged.length).toBeLessThanOrEqual(2);
    }, 600_000);

    // Greedy only: on this Q8_0 model llama.cpp's batched and one-token logits can differ in their
    // last bits (as they do without speculation when a session reuses a cached prompt prefix),
    // enough to move a sampled draw that lands at a boundary; the sampled distribution is unchanged.
    it("pocket-shaped GGUF: 6 random cases, greedy", async () => {
      const short = caseArb.map((c) => ({ ...c, document: c.document.slice(0, 40), maxTokens: Math.min(c.maxTokens, 16), sampling: {} }));
      await assertDrafting(fc.asyncProperty(short, (c) => checkSameOutput(() => engines.pocket!, vocabulary, c, true, undefined, reference("pocket"))), 6);
      reportNearTies("pocket-shaped GGUF, 6 cases");
    }, 600_000);
  });
});

describe("speculative decoding on real extraction outputs (grounding set gold values, zh and en, replayed)", () => {
  it("same output as plain decoding, most drafts confirmed, at most one forward pass per two output tokens", async () => {
    const cases = replayCases();
    expect(cases.length).toBeGreaterThan(40);
    // A fresh draft record per case, and one record across the cases as an extractor keeps it
    // (gates paused on one case start the next one paused); the records of the model the gold
    // outputs stand for, the pocket-shaped one, whose gates require the share its shape gives.
    const kept = pocketDraftRecord(vocabulary);
    for (const record of [() => pocketDraftRecord(vocabulary), () => kept]) {
      let passes = 0;
      let outputTokens = 0;
      let drafted = 0;
      let accepted = 0;
      for (const c of cases) {
        const plain = await replay(c, vocabulary, { speculative: false, maxTokens: 300 });
        const spec = await replay(c, vocabulary, { speculative: true, maxTokens: 300, draftRecord: record() });
        expect(spec.text, c.id).toBe(plain.text);
        expect(JSON.parse(spec.text), c.id).toEqual(JSON.parse(c.output));
        passes += spec.stats.forwardPasses - 1; // the prompt's pass excluded
        outputTokens += spec.tokens.length;
        drafted += spec.stats.tokensDrafted;
        accepted += spec.stats.tokensAccepted;
      }
      expect(accepted / drafted).toBeGreaterThan(0.5);
      // At most one forward pass per two output tokens (#21's target; 0.469 fresh and 0.463 kept
      // when this was written, 0.479 and 0.483 when every gate required half confirmed).
      expect(passes / outputTokens).toBeLessThanOrEqual(0.5);
    }
  }, 300_000);

  it("a verification keeps logits rows only where a token is sampled, writes masks only for the rows it samples, and counts every guess it sent", async () => {
    /** Per verification round: rows kept and sampled, masks written from its pass to its last draw, whether a rollback followed. */
    const rounds: { kept: number; sampled: number; maskStart: number; masks: number; rolledBack: boolean }[] = [];
    const count = { masks: 0 };
    let forcedInDrafts = 0;
    let cutShort = 0;
    for (const c of replayCases()) {
      const roundsBefore = rounds.length;
      const recorded = observedScriptedEngine(c.output, {
        feedRows: (ids, rows) => {
          // Drafted ids without a row of their own (the last one's is the row after the draft): forced by the grammar.
          forcedInDrafts += ids.length - 1 - rows[0]! - (rows.length - 1);
          rounds.push({ kept: rows.length, sampled: 0, maskStart: count.masks, masks: 0, rolledBack: false });
        },
        sampleRow: () => {
          const round = rounds.at(-1)!;
          round.sampled++;
          round.masks = count.masks - round.maskStart;
        },
        rollback: () => (rounds.at(-1)!.rolledBack = true),
      });
      const r = await replay(c, vocabulary, { speculative: true, maxTokens: 300, draftRecord: pocketDraftRecord(vocabulary) }, recorded, count);
      expect(JSON.parse(r.text), c.id).toEqual(JSON.parse(c.output));
      // Guesses sent: one row before each, and one after the draft unless it closes the document
      // (only a last round can). Those after a rejection are never sampled but were sent.
      const mine = rounds.slice(roundsBefore);
      const rowsBeforeGuesses = mine.reduce((sum, round) => sum + round.kept - 1, 0);
      expect(r.stats.tokensDrafted - rowsBeforeGuesses, c.id).toBeGreaterThanOrEqual(0);
      expect(r.stats.tokensDrafted - rowsBeforeGuesses, c.id).toBeLessThanOrEqual(1);
      cutShort += mine.filter((round) => round.sampled < round.kept - 1).length;
    }
    expect(rounds.length).toBeGreaterThan(100);
    // Rounds whose rejected guess had guesses after it: what the count must include.
    expect(cutShort).toBeGreaterThan(0);
    expect(rounds.some((round) => round.rolledBack)).toBe(true);
    // Drafts hold forced tokens (a guess's closing quote, the next key), and those get no row.
    expect(forcedInDrafts).toBeGreaterThan(0);
    for (const round of rounds) {
      // One mask per draw: none for the rows past a rejection.
      expect(round.masks).toBe(round.sampled);
      // A round the model confirmed to the end samples every row it kept.
      if (!round.rolledBack) expect(round.sampled).toBe(round.kept);
    }
  });

  it("after a key, the held-back guess is the token the value opens with (`\":\"` before a string): drafted and confirmed", async () => {
    const c = replayCases().find((r) => r.output.includes('":"'))!;
    const merged = vocabulary.encode('":"');
    expect(merged).toHaveLength(1);
    const drafts: number[][] = [];
    const rejected: number[] = [];
    const recorded = observedScriptedEngine(c.output, {
      feedRows: (ids, rows) => drafts.push(ids.slice(rows[0]! + 1)),
      rollback: () => rejected.push(drafts.length - 1),
    });
    await replay(c, vocabulary, { speculative: true, maxTokens: 300 }, recorded);
    const withMerge = drafts.flatMap((d, i) => (d.includes(merged[0]!) ? [i] : []));
    expect(withMerge.length).toBeGreaterThan(0);
    // A round whose draft ends with the merged opening is not cut back (the model wrote it).
    expect(withMerge.filter((i) => drafts[i]![drafts[i]!.length - 1] === merged[0] && rejected.includes(i))).toEqual([]);
  });
});

describe("draft length", () => {
  it("grows to the maximum while drafts are confirmed, and falls to just past the confirmed part", () => {
    const length = new DraftLength(8);
    for (let i = 0; i < 5; i++) length.record(length.next(), length.next());
    expect(length.next()).toBe(8);
    length.record(8, 2);
    expect(length.next()).toBe(3);
  });
});

describe("draft gate (the held-back guess)", () => {
  /**
   * Opportunities at which the gate let a guess through, over `steps`, when `confirms(i)` says
   * whether the i-th verified guess is confirmed; the gate requires `breakEven` confirmed.
   */
  const run = (steps: number, confirms: (i: number) => boolean, breakEven?: number): number => {
    const gate = new DraftGate(breakEven);
    let verified = 0;
    for (let step = 0; step < steps; step++) {
      if (!gate.open()) continue;
      gate.record(confirms(verified++));
    }
    return verified;
  };

  it("a guess the model confirms less than half of the time is verified ever more rarely (pauses doubling up to 255)", () => {
    // 2 of every 5 confirmed: the share settles near 0.4.
    const verified = run(2000, (i) => i % 5 < 2);
    expect(verified).toBeLessThan(40);
    expect(verified).toBeGreaterThan(8); // it keeps probing
  });

  it("a guess the model never confirms is verified at doubling intervals: 1, 3, 7, ... then once per 256 opportunities", () => {
    // 8 verifications before the longest pause (510 opportunities), then one per 256.
    expect(run(2000, () => false)).toBe(8 + Math.ceil((2000 - 510) / 256));
  });

  it("a confirmed guess lets the next opportunity through even while the share is low: a run of copying is followed", () => {
    const gate = new DraftGate();
    for (let i = 0; i < 6; i++) gate.record(false);
    while (!gate.open());
    gate.record(true);
    expect(gate.open()).toBe(true);
  });

  it("a guess the model usually confirms is verified at nearly every opportunity", () => {
    // 4 of every 5 confirmed.
    expect(run(2000, (i) => i % 5 !== 4)).toBeGreaterThan(1990);
  });

  it("the share it requires is the engine's break-even: 4 in 5 confirmed pays where a row costs half a pass, not where it costs nearly a whole one", () => {
    // The tiny GGUF's lookups of 4-token matches: about 4 in 5 confirmed.
    const fourInFive = (i: number): boolean => i % 5 !== 4;
    expect(run(2000, fourInFive, breakEvenShare(0.5))).toBe(2000);
    expect(run(2000, fourInFive, breakEvenShare(0.98))).toBeLessThan(100); // the tiny GGUF's shape
    // Where a row costs a fifth of a pass (the pocket shape), 2 in 5 confirmed still pays.
    const twoInFive = (i: number): boolean => i % 5 < 2;
    expect(run(2000, twoInFive, breakEvenShare(0.19))).toBe(2000);
    expect(run(2000, twoInFive, breakEvenShare(0.5))).toBeLessThan(40);
  });

  it("a withheld guess the model writes anyway counts: once half are confirmed again, the gate reopens", () => {
    const gate = new DraftGate();
    for (let i = 0; i < 6; i++) gate.record(false);
    expect(gate.open()).toBe(false);
    gate.observe(true);
    expect(gate.open()).toBe(false); // one hit is not a run of copying
    for (let i = 0; i < 8; i++) gate.observe(true);
    expect(gate.open()).toBe(true);
  });

  it("a withheld guess the model does not write leaves the running pause as it was", () => {
    const paused = (observeMisses: boolean): number => {
      const gate = new DraftGate();
      for (let i = 0; i < 4; i++) gate.record(false);
      let waited = 0;
      while (!gate.open()) {
        waited++;
        if (observeMisses) gate.observe(false);
      }
      return waited;
    };
    expect(paused(false)).toBe(15);
    expect(paused(true)).toBe(15);
  });

  it("reopens once the model confirms again", () => {
    const gate = new DraftGate();
    for (let i = 0; i < 6; i++) gate.record(false);
    let waited = 0;
    while (!gate.open()) waited++;
    expect(waited).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) gate.record(true);
    expect(gate.open()).toBe(true);
  });
});

describe("draft record (kept across generations with one model)", () => {
  /** Guesses drafted over `documents` random-schema documents decoded by a random-choice engine, whose guesses are rarely confirmed. */
  const draftedOver = async (documents: number, record: () => DraftRecord | undefined): Promise<number> => {
    const engine = new RandomEngine({ vocabulary, seed: 7, eosProbability: 0.3 });
    const cases = fc.sample(caseArb, { seed: 11, numRuns: documents });
    let drafted = 0;
    for (const c of cases) {
      const grammar = compileGrammar(c.schema, vocabulary).tokens;
      const promptIds = vocabulary.encode(buildPrompt({ jsonSchema: c.schema, text: c.document, language: "en" }).full);
      const session = await engine.createSession({ sampling: c.sampling });
      try {
        drafted += (await generate(session, grammar, promptIds, { maxTokens: c.maxTokens, speculative: { maxDraft: c.maxDraft }, draftRecord: record() })).stats.tokensDrafted;
      } catch {
        // A case whose budget is below its schema's minimum drafts nothing either way.
      } finally {
        await session.close();
      }
    }
    return drafted;
  };

  it("a model that seldom confirms the guesses drafts far less once the record carries over from document to document", async () => {
    const shared = new DraftRecord();
    const fresh = await draftedOver(60, () => undefined);
    const carried = await draftedOver(60, () => shared);
    expect(fresh).toBeGreaterThan(60);
    expect(carried).toBeLessThan(fresh / 2);
  }, 120_000);

  it("an extractor keeps one record across its documents (compared with a new extractor per document)", async () => {
    const schema = { type: "object", properties: { name: { type: "string", maxLength: 12 }, qty: { type: "integer", minimum: 0, maximum: 500 } }, required: ["name", "qty"], additionalProperties: false };
    const documents = Array.from({ length: 30 }, (_, i) => `order A-${1000 + i}: ${i % 7} boxes for Ada Lovelace, London`);
    const draftedBy = async (extractorFor: () => Promise<Extractor>): Promise<number> => {
      let drafted = 0;
      for (const text of documents) drafted += (await (await extractorFor()).extract(schema, text, { speculative: true, maxTokens: 40 })).stats.tokensDrafted;
      return drafted;
    };
    const engine = (): RandomEngine => new RandomEngine({ vocabulary, seed: 5, eosProbability: 0.3 });
    const freshEngine = engine();
    const perDocument = await draftedBy(() => createExtractor({ engine: freshEngine }));
    const one = await createExtractor({ engine: engine() });
    const shared = await draftedBy(async () => one);
    expect(perDocument).toBeGreaterThan(30);
    expect(shared).toBeLessThan(perDocument / 2);
  }, 120_000);

  it("an extractor's gates require the break-even of its engine's verified-row cost", async () => {
    // Gold outputs, about 7 in 10 guesses confirmed: that pays where a row costs half a pass (an
    // engine that does not say), not where it costs nearly a whole one (the tiny GGUF's shape),
    // whose gates let far fewer guesses through to be rejected (61 against 22 when written).
    class CostlyRows extends ScriptedEngine {
      readonly verifyRowCost = 0.98;
    }
    const cases = replayCases().slice(0, 12);
    const options = { vocabulary, script: (prompt: string) => cases.find((c) => prompt.includes(c.text))!.output, canonical: true };
    /** Guesses verified and rejected over the cases. */
    const rejected = async (engine: Engine): Promise<number> => {
      const extractor = await createExtractor({ engine });
      let total = 0;
      for (const c of cases) {
        const { stats } = await extractor.extract(c.schema, c.text, { speculative: true, maxTokens: 300 });
        total += stats.tokensDrafted - stats.tokensAccepted;
      }
      return total;
    };
    const halfPass = await rejected(new ScriptedEngine(options));
    const wholePass = await rejected(new CostlyRows(options));
    expect(halfPass).toBeGreaterThan(30);
    expect(wholePass).toBeLessThan(halfPass / 2);
  }, 120_000);
});
