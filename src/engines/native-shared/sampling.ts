/**
 * Checks sampling options before they reach a native sampler, which would silently misread them
 * (a NaN temperature, a fractional top-k...). Shared by the native engines.
 */
import { PocketExtractError } from "../../errors.js";
import type { SamplingOptions } from "../engine.js";

export function checkSampling({ temperature = 0, topK = 0, topP = 1, seed = 0 }: SamplingOptions): void {
  const bad = (what: string): never => {
    throw new PocketExtractError("OPTION_INVALID", `sampling: ${what}`);
  };
  if (!(temperature >= 0 && Number.isFinite(temperature))) bad(`temperature must be a finite number >= 0, got ${temperature}`);
  if (!(Number.isInteger(topK) && topK >= 0)) bad(`topK must be an integer >= 0, got ${topK}`);
  if (!(topP >= 0 && topP <= 1)) bad(`topP must be within [0, 1], got ${topP}`);
  if (!(Number.isSafeInteger(seed) && seed >= 0)) bad(`seed must be a non-negative safe integer, got ${seed}`);
}
