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
  /** Whether the entries, all taken, complete the document (nothing is sampled after them). */
  readonly closes: boolean;
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
  const closes = matcher.isClosed();
  matcher.rollback(matcher.length - mark);
  return { entries, closes, withheld: entries.length === 0 ? withheld : undefined };
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

/** Confirmed share a gate requires when the engine does not say what a verified guess costs. */
const DEFAULT_BREAK_EVEN = 0.5;
/**
 * Bounds of the share a gate requires: the cost leaves out the drafted token's pass through the
 * blocks and rows drafted past a rejection, so no less than 0.3; and the fading record spans about
 * ten guesses, so past 0.95 a single rejection would close a gate on a model that copies nearly always.
 */
const MIN_BREAK_EVEN = 0.3;
const MAX_BREAK_EVEN = 0.95;
/** How much of its record a gate keeps at each verification (older verifications fade). */
const RECORD_DECAY = 0.9;
/** A gate's record before any verification: this many guesses, confirmed at the break-even share (a weak, neutral start). */
const PRIOR_GUESSES = 2;
/** Longest pause, 2^8 - 1 opportunities. */
const MAX_PAUSE_LEVEL = 8;

/**
 * The confirmed share at which guesses pay on an engine whose verified guess costs `verifyRowCost`
 * forward passes (Engine.verifyRowCost): a confirmed guess saves a pass and costs its row, a
 * rejected one costs its row, so guesses pay once the confirmed share reaches that cost. Clamped
 * to [0.3, 0.95]; a half when the engine does not say.
 */
export function breakEvenShare(verifyRowCost: number | undefined): number {
  if (verifyRowCost === undefined || !Number.isFinite(verifyRowCost)) return DEFAULT_BREAK_EVEN;
  return Math.min(MAX_BREAK_EVEN, Math.max(MIN_BREAK_EVEN, verifyRowCost));
}

/**
 * Whether a drafter's guesses are worth verifying. A guess adds a row to its verification, which
 * costs the engine a share of a forward pass, and saves a pass only when confirmed, so guesses
 * pay only while the confirmed share is at least that cost (breakEvenShare). The gate keeps a
 * fading record of verified and confirmed guesses; while the confirmed share is below break-even,
 * each rejected guess pauses guessing for twice as many opportunities as the last (1, 3, 7, ...
 * up to 255), so a model that seldom writes the guess (random weights) verifies almost none; a
 * confirmed one lets the next opportunity through (copying comes in runs), without shortening the
 * next pause. Decisions depend on confirmations and the model's shape only, never on timings, so a
 * run is repeatable.
 */
export class DraftGate {
  private guessed = PRIOR_GUESSES;
  private confirmed: number;
  private level = 0;
  private pause = 0;

  /** `breakEven`: the confirmed share at which this engine's guesses pay (breakEvenShare). */
  constructor(private readonly breakEven = DEFAULT_BREAK_EVEN) {
    this.confirmed = PRIOR_GUESSES * breakEven;
  }

  /** Whether to guess at this opportunity (a pause counts down). */
  open(): boolean {
    if (this.pause === 0) return true;
    this.pause--;
    return false;
  }

  /**
   * Records a guess held back while the gate was closed: whether the model wrote it anyway. It
   * counts in the record like a verified guess, and once the record's confirmed share is back at
   * break-even the gate reopens; a miss never lengthens the running pause (nothing was paid for it).
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
    if (this.confirmed < this.breakEven * this.guessed) return false;
    this.level = 0;
    this.pause = 0;
    return true;
  }
}

/**
 * The gates of each kind of guess, kept from one generation to the next with the same model (the
 * extractor keeps one per engine): how often a model confirms a kind of guess is the model's
 * trait, so a model that never copies the document learns it once, not at every document. All
 * gates require the break-even share of the engine's verification cost (breakEvenShare).
 */
export class DraftRecord {
  readonly heldBack: DraftGate;
  /**
   * Prompt lookup's, one per length of the match the guess continues (1..MAX_NGRAM tokens): a
   * longer match is stronger evidence, and models differ in which lengths they follow (one that
   * loops on its own output confirms long matches of it, not the document's one-token matches).
   */
  readonly promptLookup: readonly DraftGate[];
  readonly draftModel: DraftGate;

  /** `verifyRowCost`: the engine's (Engine.verifyRowCost); absent, guesses must be half confirmed. */
  constructor(verifyRowCost?: number) {
    const breakEven = breakEvenShare(verifyRowCost);
    this.heldBack = new DraftGate(breakEven);
    this.promptLookup = Array.from({ length: MAX_NGRAM }, () => new DraftGate(breakEven));
    this.draftModel = new DraftGate(breakEven);
  }
}
