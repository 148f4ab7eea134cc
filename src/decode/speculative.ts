/**
 * Grammar-aware speculative decoding, the drafting half: a draft is a guess of the next tokens
 * (prompt lookup over the document, then the grammar's forced runs after each guessed token),
 * checked token by token by the grammar before the engine sees it, so a draft that leaves the
 * grammar is cut where it leaves. The decode loop (generate.ts) verifies it in one forward pass.
 * Also here: the draft length, which adapts to how much of the drafts the model confirms.
 */
import type { Engine } from "../engines/index.js";
import type { Matcher } from "../mask/index.js";
import { MAX_NGRAM } from "./prompt-lookup.js";

/**
 * Which drafts speculative decoding tries (prompt lookup, held-back forced tokens, a draft model) and
 * how many tokens per pass.
 */
export interface SpeculativeOptions {
  /** Draft from the prompt (the document) and the output so far. Default true. */
  readonly promptLookup?: boolean;
  /** Draft the token a forced run held back at a token boundary (e.g. `":"` after a key). Default true. */
  readonly heldBack?: boolean;
  /**
   * A smaller model with the same vocabulary that drafts greedily where prompt lookup has no
   * guess (one forward pass of it per guessed token). Its sessions are opened and closed by the
   * decode loop; give each concurrent generation its own engine.
   */
  readonly draftModel?: Engine;
  /** Most guessed (not forced) tokens per verification. Default 8. */
  readonly maxDraft?: number;
}

/**
 * A drafter's guess of the next tokens, and the gate of guesses of its kind, which the decode loop
 * tells whether each verified guess was confirmed.
 */
export interface Proposal {
  readonly ids: readonly number[];
  readonly gate: DraftGate;
  /**
   * With `ids` empty: the guess the closed gate held back. The decode loop compares it with the
   * token the model writes, so a paused gate still learns, at no cost, when the model copies again.
   */
  readonly withheld?: number;
}

/** A guess a closed gate held back, to be compared with the token the model writes instead. */
export interface WithheldGuess {
  readonly id: number;
  readonly gate: DraftGate;
}

/** What buildDraft returns: the drafted tokens, or (when there are none) the guess a gate held back. */
export interface Draft {
  readonly entries: readonly DraftEntry[];
  readonly withheld: WithheldGuess | undefined;
}

/** Guesses what follows a context; asked again after each forced run. */
export interface Drafter {
  /**
   * Up to `limit` guesses of the tokens after `context` (confirmed output, then tokens drafted
   * this round); undefined when it has none or their gate is closed (asked before any costly
   * work). `mask` gives the grammar's mask after `context`.
   */
  propose(context: readonly number[], limit: number, mask: () => Uint32Array): Proposal | undefined | Promise<Proposal | undefined>;
  /**
   * False for guesses the grammar all but dictates (a held-back forced token): whether the model
   * confirms them says nothing of how far to trust the other drafters, so they leave the draft
   * length alone. Default true.
   */
  readonly paced?: boolean;
}

/** One drafted token: guessed (verified by sampling its row) or forced by the grammar. */
export interface DraftEntry {
  readonly id: number;
  readonly forced: boolean;
  /** A guess whose verification counts for the draft length (its drafter's `paced`). */
  readonly paced?: boolean;
  /** The gate that records this guess's verification (its proposal's); none when forced. */
  readonly gate?: DraftGate;
}

/** What drafting needs from the decode loop. */
export interface DraftContext {
  readonly matcher: Matcher;
  readonly eosIds: readonly number[];
  /** Confirmed output tokens. */
  readonly output: readonly number[];
  /**
   * The forced run the plain loop would take once `pending` more tokens are taken, accepted into
   * the matcher; empty (matcher unchanged) when it would sample instead.
   */
  forcedRun(pending: number): readonly number[];
  /**
   * Whether the token just accepted by the matcher, taken after `pending` more tokens, leaves room
   * to finish the document within the token budget (else the plain loop would withdraw it).
   */
  fits(pending: number): boolean;
}

/**
 * Builds a draft of at most `limit` guessed tokens from the current state, asking the drafters in
 * order until one has a guess. The matcher is back in its current state on return. Each guess
 * must be allowed by the grammar (and not end the document); after it, the forced runs the plain
 * loop would take are appended. A guess from an unpaced drafter ends the draft.
 */
export async function buildDraft(ctx: DraftContext, drafters: readonly Drafter[], limit: number, scratch: Uint32Array): Promise<Draft> {
  const { matcher } = ctx;
  const mark = matcher.length;
  const entries: DraftEntry[] = [];
  const context = [...ctx.output];
  let guessed = 0;
  let proposal: Proposal | undefined;
  let paced = true;
  let next = 0;
  let withheld: WithheldGuess | undefined;
  while (guessed < limit) {
    if (proposal === undefined || next >= proposal.ids.length) {
      proposal = undefined;
      next = 0;
      for (const drafter of drafters) {
        proposal = await drafter.propose(context, limit - guessed, () => {
          matcher.fillMask(scratch);
          return scratch;
        });
        paced = drafter.paced ?? true;
        if (proposal && proposal.ids.length > 0) break;
        if (proposal?.withheld !== undefined && entries.length === 0) withheld ??= { id: proposal.withheld, gate: proposal.gate };
      }
      if (!proposal || proposal.ids.length === 0) break;
    }
    const { ids, gate } = proposal;
    const id = ids[next++]!;
    if (ctx.eosIds.includes(id) || !matcher.accept(id)) break;
    if (!ctx.fits(entries.length)) {
      matcher.rollback(1);
      break;
    }
    entries.push({ id, forced: false, paced, gate });
    context.push(id);
    guessed++;
    if (matcher.isClosed()) break;
    let forcedAny = false;
    for (let run = ctx.forcedRun(entries.length); run.length > 0; run = ctx.forcedRun(entries.length)) {
      for (const f of run) {
        entries.push({ id: f, forced: true });
        context.push(f);
      }
      forcedAny = true;
    }
    // Forced text seldom continues the document where the guess came from: look up again.
    if (forcedAny) next = ids.length;
    if (matcher.isClosed()) break;
    // After a grammar guess (a key's `":"`) the context is the schema's, not the document's: a
    // lookup there finds the same punctuation elsewhere and guesses what followed it. The value's
    // first token is the model's to choose.
    if (!paced) break;
  }
  matcher.rollback(matcher.length - mark);
  return { entries, withheld: entries.length === 0 ? withheld : undefined };
}

/**
 * Draft length that follows acceptance: longer after fully confirmed drafts, cut to just past the
 * confirmed part otherwise. Whether to draft at all is each drafter's gate's call (DraftGate).
 */
export class DraftLength {
  private limit: number;

  constructor(private readonly max: number) {
    this.limit = Math.min(4, max);
  }

  /** Most guessed tokens to draft at this step. */
  next(): number {
    return this.limit;
  }

  /** Records a verification: `guessed` draft tokens, of which the first `accepted` were confirmed. */
  record(guessed: number, accepted: number): void {
    this.limit = accepted === guessed ? Math.min(this.max, this.limit + 2) : Math.max(1, accepted + 1);
  }
}

/** Confirmed share of verified guesses below which a gate backs off. */
const MIN_CONFIRMED_SHARE = 0.5;
/** How much of its record a gate keeps at each verification (older verifications fade). */
const RECORD_DECAY = 0.9;
/** A gate's record before any verification: this many guesses, half of them confirmed (a weak, neutral start). */
const PRIOR_GUESSES = 2;
/** Longest pause, 2^8 - 1 opportunities. */
const MAX_PAUSE_LEVEL = 8;

/**
 * Whether a drafter's guesses are worth verifying. A guess adds a row to its verification, about
 * half a forward pass (llama.cpp on CPU; more on a small model, whose output layer dominates), and
 * saves a pass only when confirmed, so guesses pay only while more than about half of them are
 * confirmed. The gate keeps a fading record of verified and confirmed guesses; while the confirmed
 * share is below half, each rejected guess pauses guessing for twice as many opportunities as the
 * last (1, 3, 7, ... up to 255), so a model that seldom writes the guess (random weights) verifies
 * almost none; a confirmed one lets the next opportunity through (copying comes in runs), without
 * shortening the next pause. Decisions depend on confirmations only, never on timings, so a run
 * is repeatable.
 */
export class DraftGate {
  private guessed = PRIOR_GUESSES;
  private confirmed = PRIOR_GUESSES * MIN_CONFIRMED_SHARE;
  private level = 0;
  private pause = 0;

  /** Whether to guess at this opportunity (a pause counts down). */
  open(): boolean {
    if (this.pause === 0) return true;
    this.pause--;
    return false;
  }

  /**
   * Records a guess held back while the gate was closed: whether the model wrote it anyway. It
   * counts in the record like a verified guess, and once the record's confirmed share is back at
   * half the gate reopens; a miss never lengthens the running pause (nothing was paid for it).
   * A single hit does not reopen it: a model that loops on its own output hits now and then.
   */
  observe(confirmed: boolean): void {
    this.count(confirmed);
    this.reopenIfPaying();
  }

  /** Records a verified guess: whether the model confirmed it. */
  record(confirmed: boolean): void {
    this.count(confirmed);
    if (this.reopenIfPaying()) return;
    if (confirmed) return; // open: a confirmed guess was verified, so no pause is running
    this.level = Math.min(this.level + 1, MAX_PAUSE_LEVEL);
    this.pause = 2 ** this.level - 1;
  }

  private count(confirmed: boolean): void {
    this.guessed = this.guessed * RECORD_DECAY + 1;
    this.confirmed = this.confirmed * RECORD_DECAY + (confirmed ? 1 : 0);
  }

  /** Opens the gate, pause and its level reset, when the record's confirmed share pays; whether it did. */
  private reopenIfPaying(): boolean {
    if (this.confirmed < MIN_CONFIRMED_SHARE * this.guessed) return false;
    this.level = 0;
    this.pause = 0;
    return true;
  }
}

/**
 * The gates of each kind of guess, kept from one generation to the next with the same model (the
 * extractor keeps one per engine): how often a model confirms a kind of guess is the model's
 * trait, so a model that never copies the document learns it once, not at every document.
 */
export class DraftRecord {
  readonly heldBack = new DraftGate();
  /**
   * Prompt lookup's, one per length of the match the guess continues (1..MAX_NGRAM tokens): a
   * longer match is stronger evidence, and models differ in which lengths they follow (one that
   * loops on its own output confirms long matches of it, not the document's one-token matches).
   */
  readonly promptLookup: readonly DraftGate[] = Array.from({ length: MAX_NGRAM }, () => new DraftGate());
  readonly draftModel = new DraftGate();
}
