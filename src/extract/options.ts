/**
 * Limits and range checks of the extraction options, applied before any work: a wrong type or
 * an out-of-range value is an OptionError naming the option, the value and the allowed range,
 * never a hang, a misleading message or a promise resolving to undefined. The defaults here are
 * the documented limits (README, "Limits").
 */
import { OptionError } from "../errors.js";
import { checkSampling } from "../engines/index.js";
import { checkInteger } from "../util/index.js";
import { checkGroundingOptions } from "../ground/index.js";
import type { BatchOptions, ExtractOptions, RetryMode } from "./types.js";

/** Default largest document, in UTF-8 bytes, checked before any tokenizing (256 KiB). */
export const DEFAULT_MAX_TEXT_BYTES = 262_144;
/** Characters a chunk shares with the previous one, unless `chunkOverlap` says otherwise. */
export const DEFAULT_CHUNK_OVERLAP = 200;
/** Ceilings of the numeric options. */
export const OPTION_RANGES = {
  maxTokens: [1, 1_048_576],
  retries: [0, 100],
  maxTextBytes: [1, 1_073_741_824],
  defaultMaxStringLength: [1, 1_000_000],
  concurrency: [1, 1024],
  chunkSize: [200, 1_073_741_824],
  chunkOverlap: [0, 536_870_911],
  passes: [1, 3],
} as const satisfies Record<string, readonly [number, number]>;

/** The overlap of chunks: `chunkOverlap`, or the default kept under half of `chunkSize`. */
export function chunkOverlapOf(o: ExtractOptions): number {
  return o.chunkOverlap ?? Math.min(DEFAULT_CHUNK_OVERLAP, Math.floor(((o.chunkSize ?? 0) - 1) / 2));
}

/** The values of `retryMode`, the default first. */
export const RETRY_MODES = ["resample", "feedback"] as const satisfies readonly RetryMode[];

export function checkExtractOptions(o: ExtractOptions & BatchOptions): void {
  for (const [option, [min, max]] of Object.entries(OPTION_RANGES)) {
    checkInteger(option, o[option as keyof typeof OPTION_RANGES], min, max);
  }
  if (o.chunkSize !== undefined && 2 * chunkOverlapOf(o) >= o.chunkSize) {
    throw new OptionError("chunkOverlap", o.chunkOverlap, `an integer under half of chunkSize (${o.chunkSize})`);
  }
  if (o.retryMode !== undefined && !(RETRY_MODES as readonly unknown[]).includes(o.retryMode)) throw new OptionError("retryMode", o.retryMode, RETRY_MODES.map((m) => JSON.stringify(m)).join(" or "));
  if (o.instruction !== undefined && typeof o.instruction !== "string") throw new OptionError("instruction", o.instruction, "a string");
  if (o.sampling !== undefined) checkSampling(o.sampling);
  if (o.grounding !== undefined) {
    if (typeof o.grounding !== "object" || o.grounding === null) throw new OptionError("grounding", o.grounding, "an object of grounding options");
    checkGroundingOptions(o.grounding);
  }
  if (o.examples !== undefined && !Array.isArray(o.examples)) throw new OptionError("examples", o.examples, "an array of { text, output }");
}
