/**
 * Drives one of our Matchers over a token sequence the way a decoder would: at each token fill
 * the mask, check the token's bit, accept it; times every step (fill + check + accept) and,
 * optionally, the fill alone. Also checks the mask against `accept` (a token the mask forbids
 * must be refused, one it allows must be taken) and the end-of-generation bit against
 * `isComplete()`: a disagreement is an engine bug, reported as a mismatch.
 */
import type { Matcher } from "../../src/mask/index.js";
import { hasBit } from "../../src/util/bitset.js";
import type { Samples } from "./stats.js";

export interface DriveOutcome {
  /** Index of the first token refused (by the mask or by accept), or -1 when every token was taken. */
  readonly rejectedAt: number;
  /** Whether the document was complete after the last accepted token. */
  readonly complete: boolean;
  /** Engine inconsistencies seen on the way (mask vs accept, eos bit vs isComplete). */
  readonly mismatches: readonly string[];
}

export interface DriveTimings {
  /** Microseconds per token: fill mask + check + accept. */
  readonly token?: Samples;
  /** Microseconds per fillMask call alone. */
  readonly mask?: Samples;
}

/** Thrown between tokens when the caller's deadline has passed. */
export class DeadlineExceeded extends Error {}

export function driveMatcher(
  matcher: Matcher,
  ids: readonly number[],
  mask: Uint32Array,
  eosId: number,
  timings: DriveTimings,
  deadline = Infinity,
): DriveOutcome {
  const mismatches: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const t0 = performance.now();
    matcher.fillMask(mask);
    const t1 = performance.now();
    const allowed = hasBit(mask, id);
    const accepted = allowed && matcher.accept(id);
    const t2 = performance.now();
    timings.token?.push((t2 - t0) * 1000);
    timings.mask?.push((t1 - t0) * 1000);
    if (!accepted) {
      if (allowed) mismatches.push(`token ${i} (id ${id}): mask allows it but accept() refused it`);
      else if (matcher.accept(id)) mismatches.push(`token ${i} (id ${id}): mask forbids it but accept() took it`);
      return { rejectedAt: i, complete: false, mismatches };
    }
    if (t2 > deadline) throw new DeadlineExceeded();
  }
  matcher.fillMask(mask);
  const complete = matcher.isComplete();
  if (hasBit(mask, eosId) !== complete) mismatches.push(`end of document: eos bit ${hasBit(mask, eosId)} but isComplete() ${complete}`);
  return { rejectedAt: -1, complete, mismatches };
}
