/**
 * Whose fault a failed extraction is. A document fault (a bad schema, an empty or too-long text,
 * an invalid option) fails the same way every time: an HTTP service answers it with a 4xx and a
 * queue records it at once instead of retrying. Anything else (an engine failure, a bug) may pass
 * on another try.
 */
import { PocketExtractError } from "../errors.js";

/** Families of codes that describe the request; new codes of these families stay document faults. */
const DOCUMENT_FAULT = /^(SCHEMA|TEXT|PATTERN|OPTION|INPUT|REQUEST|GRAMMAR|LIMIT|AUTOMATON|MASK_BUDGET)/;

export function isDocumentFault(err: unknown): boolean {
  return err instanceof PocketExtractError && DOCUMENT_FAULT.test(err.code);
}
