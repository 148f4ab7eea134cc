/**
 * Range checks for numeric options, shared by the extractor and the engines, so every bad option
 * fails the same way: an OptionError naming the option, the value given and the allowed range.
 */
import { OptionError } from "../errors.js";

/** Throws unless `value` is undefined or an integer in [min, max]. */
export function checkInteger(option: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new OptionError(option, value, `an integer from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`);
  }
}

/** Throws unless `value` is undefined or a finite number in [min, max]. */
export function checkNumber(option: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !(value >= min && value <= max)) {
    throw new OptionError(option, value, max === Number.MAX_VALUE ? `a finite number >= ${min}` : `a number from ${min} to ${max}`);
  }
}
