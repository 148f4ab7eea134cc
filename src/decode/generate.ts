/**
 * The constrained decode loop, engine-agnostic: mask -> sample -> accept, with jump-forward of
 * grammar-forced tokens (fed to the engine in one batch with the sampled token, never sampled),
 * eos only where the document is complete, cancellation, and budget-aware completion: if taking a
 * sampled token would leave too few tokens to finish the document within `maxTokens`, the token is
 * withdrawn and the shortest completion is appended instead, so the output is always complete.
 *
 * Speculative decoding (engines with `feedRows`): a draft (speculative.ts) is fed with the pending
 * tokens in one forward pass that keeps logits where the plain loop would sample (before each
 * guessed token and after the draft; the grammar's forced tokens need none); the rows are then
 * sampled in order, each under the mask of the matcher advanced along what was taken so far,
 * exactly as the plain loop would sample them, and the first choice that differs from the draft
 * ends the round (it becomes the next pending token; the rest of the draft is rolled back in the
 * engine, and its rows' masks are never computed). Every output token is
 * one choice from its own row's distribution, drawn in output order, so the output is the plain
 * loop's: token for token with greedy decoding, and with the same seed when sampling (as far as
 * the engine's batched logits equal its one-token logits; llama.cpp's differ in the last bits, so
 * two tokens within that much of each other may swap). For a
 * deterministic draft this is speculative sampling's accept/resample rule: a draft token is kept
 * with probability p(token), and otherwise the choice comes from p without it, renormalized.
 */
import { PocketExtractError } from "../errors.js";
import type { EngineSession } from "../engines/index.js";
import type { Matcher, TokenGrammar } from "../mask/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { hasBit } from "../util/index.js";
import { DraftModel } from "./draft-model.js";
import { PromptLookup } from "./prompt-lookup.js";
import { buildDraft, type Draft, type DraftContext, type DraftEntry, type DraftGate, DraftLength, type Drafter, DraftRecord, type SpeculativeOptions } from "./speculative.js";

/** Options of one generation: token budget, forced runs, sampling, speculative decoding, abort signal. */
export interface GenerateOptions {
  /** Most output tokens (sampled + forced; the end-of-generation token is not counted). Default 512. */
  readonly maxTokens?: number;
  /** Use grammar-forced tokens without sampling (default true). */
  readonly jumpForward?: boolean;
  readonly signal?: AbortSignal;
  /** Called after every accepted step with all output bytes so far (for streaming). */
  readonly onProgress?: (output: Uint8Array) => void;
  /**
   * Speculative decoding where the engine session supports it (`feedRows`); the output is the same
   * either way. Default false (one token per forward pass) until its gain on CPU is positive.
   */
  readonly speculative?: boolean | SpeculativeOptions;
  /**
   * How often this model confirmed each kind of draft in earlier generations (the Extractor keeps
   * one per engine, made for its Engine.verifyRowCost), so drafting starts where the last
   * generation left it; default a fresh record that requires guesses to be half confirmed.
   */
  readonly draftRecord?: DraftRecord;
}

/**
 * Why generation ended: the end-of-generation token, the grammar closed the document, or the token
 * budget ran out (completed validly).
 */
export type StopReason = "eos" | "closed" | "budget";

/**
 * Counts and timings of one generation: tokens sampled, forced by the grammar and appended by budget-
 * aware completion, and why it stopped.
 */
export interface GenerateStats {
  readonly tokensSampled: number;
  readonly tokensForced: number;
  /** Tokens appended by budget-aware completion. */
  readonly tokensCompleted: number;
  /** Draft tokens guessed (not forced) and sent to the engine for verification. */
  readonly tokensDrafted: number;
  /** Draft tokens the model confirmed (each saved a forward pass). */
  readonly tokensAccepted: number;
  /** Engine forward passes, the prompt's included. */
  readonly forwardPasses: number;
  readonly maskMs: number;
  readonly engineMs: number;
  readonly totalMs: number;
  /** Time from the start (prefill included) to the first sampled token. */
  readonly timeToFirstTokenMs: number | undefined;
  readonly stopReason: StopReason;
}

/** What generate returns: the output tokens and exact bytes, and its stats. */
export interface GenerateResult {
  readonly tokens: readonly number[];
  /** The exact output bytes (UTF-8 JSON text). */
  readonly bytes: Uint8Array;
  readonly text: string;
  /** Byte offset where budget-aware completion took over, if it did. */
  readonly cutAt: number | undefined;
  readonly stats: GenerateStats;
}

export const DEFAULT_MAX_TOKENS = 512;

/**
 * The engine-agnostic constrained generation loop: samples under the matcher's masks, takes forced
 * runs without sampling, and completes validly when the budget runs out.
 */
export async function generate(
  session: EngineSession,
  grammar: TokenGrammar,
  promptIds: readonly number[],
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const matcher = grammar.matcher();
  const minimum = matcher.remainingMinimum();
  if (!Number.isInteger(maxTokens) || maxTokens < minimum) {
    throw new PocketExtractError(
      "OPTION_INVALID",
      `maxTokens ${maxTokens} is too small: the shortest document this schema allows takes ${minimum} tokens`,
    );
  }
  const started = performance.now();
  /** The mask of the row being sampled (the engine reads it before the next one is written). */
  const mask = new Uint32Array(grammar.maskWords);
  /** Where drafters read the grammar's mask at a drafted position. */
  const draftMask = new Uint32Array(grammar.maskWords);
  const tokens: number[] = [];
  const output = new ByteSink();
  const eosIds = grammar.index.eosIds;
  let toFeed: number[] = [];
  let sampled = 0;
  let forced = 0;
  let completed = 0;
  let drafted = 0;
  let accepted = 0;
  let passes = 0;
  let maskMs = 0;
  let engineMs = 0;
  let firstTokenAt: number | undefined;
  let cutAt: number | undefined;
  let stopReason: StopReason = "closed";

  const take = (ids: readonly number[]): void => {
    for (const id of ids) {
      tokens.push(id);
      output.push(grammar.vocabulary.bytes(id));
    }
    options.onProgress?.(output.view());
  };

  // The forced run the loop takes once `pending` more tokens are taken, accepted into the matcher.
  const forcedRun = (pending: number): readonly number[] => {
    if (options.jumpForward === false) return [];
    const run = matcher.forced();
    const base = tokens.length + pending;
    if (run.tokens.length === 0 || base + run.tokens.length > maxTokens) return [];
    const before = matcher.length;
    let ok = true;
    for (const id of run.tokens) ok = ok && matcher.accept(id);
    if (ok && base + run.tokens.length + matcher.remainingMinimum() <= maxTokens) return run.tokens;
    matcher.rollback(matcher.length - before);
    return [];
  };

  // Takes a token the engine chose: the end of the document, a withdrawal for budget-aware
  // completion, or one more sampled token (pending until fed). False when generation is over.
  const takeChosen = (id: number): boolean => {
    firstTokenAt ??= performance.now();
    if (!matcher.accept(id)) throw engineBrokeMask(id);
    if (eosIds.includes(id)) {
      stopReason = "eos";
      return false;
    }
    if (tokens.length + 1 + matcher.remainingMinimum() > maxTokens) {
      // This token would strand the document: withdraw it and finish the shortest way instead.
      matcher.rollback(1);
      const completion = matcher.shortestCompletion();
      for (const c of completion.tokens) matcher.accept(c);
      cutAt = output.length;
      completed = completion.tokens.length;
      take(completion.tokens);
      stopReason = "budget";
      return false;
    }
    sampled++;
    toFeed.push(id);
    take([id]);
    return true;
  };

  const speculation = speculationFor(session, options, promptIds, matcher, grammar.vocabulary);
  const draftContext: DraftContext = {
    matcher,
    eosIds,
    output: tokens,
    forcedRun,
    fits: (pending) => tokens.length + pending + 1 + matcher.remainingMinimum() <= maxTokens,
  };

  // Verifies a draft in one forward pass; false when generation is over.
  const verify = async ({ entries, closes }: Draft): Promise<boolean> => {
    let t0 = performance.now();
    const pending = toFeed.length;
    const fed = session.feedRows!([...toFeed, ...entries.map((e) => e.id)], sampledRows(entries, closes).map((at) => pending - 1 + at));
    toFeed = [];
    passes++;
    // The first row's mask is computed while the engine runs the forward pass (the first entry is
    // a guess); each later row's only once the row before it confirmed its guess.
    const maskTime = timed(() => matcher.fillMask(mask));
    maskMs += maskTime;
    await fed;
    engineMs += performance.now() - t0 - maskTime;
    let at = 0;
    let row = 0;
    let confirmed = 0;
    let pacedGuessed = 0;
    let pacedConfirmed = 0;
    let going = true;
    for (; ; at++) {
      const entry = entries[at];
      if (entry?.forced) {
        matcher.accept(entry.id);
        forced++;
        take([entry.id]);
        continue;
      }
      if (entry === undefined && closes) break;
      if (entry?.paced) pacedGuessed++;
      if (row > 0) maskMs += timed(() => matcher.fillMask(mask));
      t0 = performance.now();
      const id = await session.sampleRow!(row++, mask);
      engineMs += performance.now() - t0;
      entry?.gate?.record(id === entry.id);
      going = takeChosen(id);
      if (!going || entry === undefined || id !== entry.id) break;
      confirmed++;
      if (entry.paced) pacedConfirmed++;
      toFeed.pop(); // already fed with the draft
    }
    // Every guess sent counts, also those after the first rejection (never sampled).
    drafted += entries.filter((e) => !e.forced).length;
    accepted += confirmed;
    if (pacedGuessed > 0) speculation?.length.record(pacedGuessed, pacedConfirmed);
    // The draft entries after the last one taken are in the engine's context: drop them.
    const rejected = entries.length - at;
    if (rejected > 0 && going) await session.rollback!(rejected);
    return going;
  };

  try {
    await decodeAll();
  } finally {
    await speculation?.draftModel?.close();
  }
  async function decodeAll(): Promise<void> {
    // Prefill on its own, so engines can tell the prompt (and reuse its cache) from the output.
    let t0 = performance.now();
    await session.feed(promptIds);
    passes++;
    engineMs += performance.now() - t0;

    for (;;) {
      if (options.signal?.aborted) throw new PocketExtractError("ABORTED", "generation aborted", { cause: options.signal.reason });
      if (matcher.isClosed()) break;

      const run = forcedRun(0);
      if (run.length > 0) {
        forced += run.length;
        toFeed.push(...run);
        take(run);
        continue;
      }

      const limit = speculation && toFeed.length > 0 ? speculation.length.next() : 0;
      speculation?.lookup?.catchUp(tokens);
      const draft = limit > 0 ? await buildDraft(draftContext, speculation!.drafters, limit, draftMask) : NO_DRAFT;
      if (draft.entries.length > 0) {
        if (!(await verify(draft))) break;
        continue;
      }
      const { withheld } = draft;

      t0 = performance.now();
      // The mask is computed while the engine runs the forward pass.
      let maskTime = 0;
      const fillMask = (): void => {
        const maskStart = performance.now();
        matcher.fillMask(mask);
        maskTime = performance.now() - maskStart;
      };
      let id: number;
      if (toFeed.length > 0 && session.feedAndSample) {
        // Fed and sampled in one engine call: one return from the engine per token.
        passes++;
        const feeding = toFeed;
        toFeed = [];
        id = await session.feedAndSample(feeding, mask, fillMask);
      } else {
        const fed = toFeed.length > 0 ? session.feed(toFeed) : undefined;
        if (fed) passes++;
        toFeed = [];
        fillMask();
        await fed;
        id = await session.sample(mask);
      }
      maskMs += maskTime;
      engineMs += performance.now() - t0 - maskTime;
      withheld?.gate.observe(id === withheld.id);
      if (!takeChosen(id)) break;
    }
  }

  const bytes = output.view().slice();
  return {
    tokens,
    bytes,
    text: new TextDecoder().decode(bytes),
    cutAt,
    stats: {
      tokensSampled: sampled,
      tokensForced: forced,
      tokensCompleted: completed,
      tokensDrafted: drafted,
      tokensAccepted: accepted,
      forwardPasses: passes,
      maskMs,
      engineMs,
      totalMs: performance.now() - started,
      timeToFirstTokenMs: firstTokenAt === undefined ? undefined : firstTokenAt - started,
      stopReason,
    },
  };
}

interface Speculation {
  readonly drafters: readonly Drafter[];
  readonly lookup: PromptLookup | undefined;
  readonly draftModel: DraftModel | undefined;
  readonly length: DraftLength;
}

/**
 * The drafters and draft length, when speculation is asked for and the session can verify drafts.
 * Off unless asked: on CPU llama.cpp the measured gain is not yet positive (bench:speculative).
 */
function speculationFor(
  session: EngineSession,
  { speculative: option, draftRecord: record = new DraftRecord() }: GenerateOptions,
  promptIds: readonly number[],
  matcher: Matcher,
  vocabulary: Vocabulary,
): Speculation | undefined {
  if (option === undefined || option === false || !session.feedRows || !session.sampleRow || !session.rollback) return undefined;
  const settings = typeof option === "object" ? option : {};
  const maxDraft = settings.maxDraft ?? DEFAULT_MAX_DRAFT;
  if (!(Number.isInteger(maxDraft) && maxDraft >= 1)) throw new PocketExtractError("OPTION_INVALID", `speculative.maxDraft must be a positive integer, got ${maxDraft}`);
  const lookup = settings.promptLookup === false ? undefined : new PromptLookup(promptIds);
  const draftModel = settings.draftModel ? new DraftModel(settings.draftModel, promptIds, record.draftModel) : undefined;
  const heldBack = settings.heldBack === false ? undefined : heldBackDrafter(matcher, vocabulary, record.heldBack);
  const drafters = [heldBack, lookup && lookupDrafter(lookup, record.promptLookup), draftModel].filter((d): d is Drafter => d !== undefined);
  return drafters.length > 0 ? { drafters, lookup, draftModel, length: new DraftLength(maxDraft) } : undefined;
}

const DEFAULT_MAX_DRAFT = 8;
const NO_DRAFT: Draft = { entries: [], closes: false, withheld: undefined };

/**
 * Where a draft's verification samples, as positions in it (position i: before `entries[i]`, the
 * last one after the draft): before each guessed token, and after the draft unless it completes
 * the document. A forced token is taken as the grammar dictates, so its position gets no row.
 */
function sampledRows(entries: readonly DraftEntry[], closes: boolean): number[] {
  const rows: number[] = [];
  entries.forEach((entry, i) => {
    if (!entry.forced) rows.push(i);
  });
  if (!closes) rows.push(entries.length);
  return rows;
}

/** Milliseconds `work` took. */
function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * Drafts the token the grammar's forced run held back at a token boundary (`"` then `:` are
 * forced after a key, but `":"` may merge with the value's first characters): the model writes
 * it nearly always, so it is worth a verified guess. Where the grammar allows a single token that
 * merges it with the opening of a string, array or object (`":"`, `":["`), that is the guess: the
 * tokenizer's split of what most values look like.
 */
function heldBackDrafter(matcher: Matcher, vocabulary: Vocabulary, gate: DraftGate): Drafter {
  const merges = new Map<number, readonly number[]>();
  return {
    paced: false,
    propose: (_context, _limit, mask) => {
      const id = matcher.forced().heldBack;
      if (id === undefined || !gate.open()) return undefined;
      let candidates = merges.get(id);
      if (!candidates) merges.set(id, (candidates = openingMerges(vocabulary, id)));
      const allowed = candidates.length > 0 ? mask() : undefined;
      const merged = candidates.find((m) => hasBit(allowed!, m));
      return { ids: [merged ?? id], gate };
    },
  };
}

/**
 * Prompt lookup as a drafter, gated by the length of the match its guess continues: an opportunity
 * is a lookup that finds a match (a lookup costs microseconds, a verified guess a row).
 */
function lookupDrafter(lookup: PromptLookup, gates: readonly DraftGate[]): Drafter {
  return {
    propose: (context, limit) => {
      const match = lookup.propose(context, limit);
      if (!match) return undefined;
      const gate = gates[match.length - 1]!;
      return gate.open() ? { ids: match.following, gate } : { ids: [], gate, withheld: match.following[0] };
    },
  };
}

/** Openings a JSON value may start with, longest first. */
const VALUE_OPENINGS = ['["', '{"', '"', "[", "{"];

/** Single tokens that spell token `id` followed by a value's opening, longest opening first. */
function openingMerges(vocabulary: Vocabulary, id: number): number[] {
  const bytes = vocabulary.bytes(id);
  const text = new TextDecoder().decode(bytes);
  const merges: number[] = [];
  for (const opening of VALUE_OPENINGS) {
    try {
      const [merged, ...more] = vocabulary.encode(text + opening);
      // The merge must spell the held-back bytes first (a partial UTF-8 character would not).
      const spelled = merged === undefined ? undefined : vocabulary.bytes(merged);
      if (more.length === 0 && spelled && spelled.length > bytes.length && bytes.every((b, i) => spelled[i] === b) && !merges.includes(merged!)) merges.push(merged!);
    } catch {
      return merges; // a vocabulary without an encoder: the held-back token alone
    }
  }
  return merges;
}

function engineBrokeMask(id: number): PocketExtractError {
  return new PocketExtractError("ENGINE_FAILED", `the engine sampled token ${id}, which the mask forbids`);
}

/** Growable byte buffer for the output. */
class ByteSink {
  private buf = new Uint8Array(256);
  length = 0;

  push(bytes: Uint8Array): void {
    if (this.length + bytes.length > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.length + bytes.length));
      bigger.set(this.buf.subarray(0, this.length));
      this.buf = bigger;
    }
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
