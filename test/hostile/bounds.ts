/**
 * Time and memory bounds for the hostile tests: each case runs the attack once and states how
 * long and how much extra peak memory it may take. The bounds are generous (a hang or a blow-up
 * is orders of magnitude past them); they are limits, not performance assertions.
 */
import { expect } from "vitest";
import { PocketExtractError } from "../../src/errors.js";

export interface Bounds {
  readonly ms: number;
  readonly rssMB: number;
}

/** Runs `attack`, asserts it stayed within `bounds`, returns what it returned or threw. */
export async function withinBounds<T>(bounds: Bounds, attack: () => T | Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const peakBefore = process.resourceUsage().maxRSS / 1024;
  const started = performance.now();
  let value: T | undefined;
  let error: unknown;
  try {
    value = await attack();
  } catch (err) {
    error = err;
  }
  const ms = performance.now() - started;
  const peakGrowth = process.resourceUsage().maxRSS / 1024 - peakBefore;
  expect(ms, `took ${ms.toFixed(0)} ms`).toBeLessThan(bounds.ms);
  expect(peakGrowth, `peak RSS grew ${peakGrowth.toFixed(0)} MB`).toBeLessThan(bounds.rssMB);
  return { value, error, ms };
}

/** Asserts `error` is a PocketExtractError with `code` and returns it. */
export function expectCode(error: unknown, code: string): PocketExtractError {
  expect(error, String(error)).toBeInstanceOf(PocketExtractError);
  expect((error as PocketExtractError).code).toBe(code);
  return error as PocketExtractError;
}
