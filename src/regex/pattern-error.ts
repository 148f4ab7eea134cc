/**
 * The error a regex pattern raises: PATTERN_INVALID for syntax errors, PATTERN_UNSUPPORTED for
 * valid ECMAScript constructs outside the supported subset (look-arounds, back-references, word
 * boundaries, anchors inside the pattern). Carries the pattern and the offending position.
 */
import { PocketExtractError, type ErrorCode } from "../errors.js";

export class PatternError extends PocketExtractError {
  constructor(
    code: Extract<ErrorCode, "PATTERN_INVALID" | "PATTERN_UNSUPPORTED">,
    readonly pattern: string,
    readonly position: number,
    detail: string,
  ) {
    super(code, `${detail} at position ${position} in pattern ${JSON.stringify(pattern)}`);
  }
}
