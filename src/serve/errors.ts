/**
 * Errors as the service answers them: the same `{ error: { code, message } }` body as the CLI's
 * error records (src/records/record.ts), with an HTTP status chosen from the code (src/pool/failure.ts decides whose fault it is). A problem with the
 * request (schema, text, options) is a 4xx; an engine failure or a bug is a 5xx. Codes of the
 * service's own (overload, timeout, malformed request) complete the SDK's codes.
 */
import { PocketExtractError } from "../errors.js";
import type { RecordErrorCode } from "../records/index.js";
import { PoolFullError, isDocumentFault } from "../pool/index.js";

export type ServeErrorCode = RecordErrorCode | "REQUEST_INVALID" | "REQUEST_TOO_LARGE" | "OVERLOADED" | "TIMEOUT" | "NOT_FOUND" | "SHUTTING_DOWN";

/** An error the service answers with a status of its choosing. */
export class ServeError extends Error {
  override readonly name = "ServeError";

  constructor(
    readonly code: ServeErrorCode,
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface ErrorBody {
  readonly error: { readonly code: ServeErrorCode; readonly message: string };
}

const STATUS: Partial<Record<ServeErrorCode, number>> = {
  TEXT_TOO_LONG: 413,
  SCHEMA_TOO_LARGE: 413,
  AUTOMATON_TOO_LARGE: 422,
  MASK_BUDGET: 422,
  ENGINE_DISPOSED: 503,
};

/** Any thrown value as a status, a body, and for 429 the seconds to wait. */
export function describeError(err: unknown): { status: number; body: ErrorBody; retryAfterSeconds?: number } {
  if (err instanceof ServeError) return { status: err.status, body: bodyOf(err.code, err.message), retryAfterSeconds: err.retryAfterSeconds };
  if (err instanceof PoolFullError) return { status: 429, body: bodyOf("OVERLOADED", err.message), retryAfterSeconds: err.retryAfterSeconds };
  if (err instanceof PocketExtractError) return { status: STATUS[err.code] ?? (isDocumentFault(err) ? 400 : 500), body: bodyOf(err.code, err.message) };
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, body: bodyOf("INTERNAL", `internal error: ${message}`) };
}

function bodyOf(code: ServeErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}
