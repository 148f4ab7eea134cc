/**
 * Checks sampling options before they reach a native sampler, which would silently misread them
 * (a NaN temperature, a fractional top-k...). Shared by the native engines.
 */
import { checkInteger, checkNumber } from "../../util/index.js";
import type { SamplingOptions } from "../engine.js";

export function checkSampling({ temperature, topK, topP, minP, seed }: SamplingOptions): void {
  checkNumber("sampling.temperature", temperature, 0, Number.MAX_VALUE);
  checkInteger("sampling.topK", topK, 0, 2 ** 31 - 1);
  checkNumber("sampling.topP", topP, 0, 1);
  checkNumber("sampling.minP", minP, 0, 1);
  checkInteger("sampling.seed", seed, 0, Number.MAX_SAFE_INTEGER);
}
