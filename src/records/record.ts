/**
 * The output line format: one JSON object per input line, keyed by the input line number and the
 * document id, holding either the result (status, data, field statuses with spans, issues, raw
 * model output, stats) or a typed error. Also the input line format and its parsing: a malformed
 * line becomes an error record, never an exception.
 */
import { PocketExtractError, type ErrorCode } from "../errors.js";
import type { BatchResult, ExtractStats, FieldResult } from "../extract/index.js";
import { documentStatus, type DocumentStatus } from "../report/index.js";
import type { Issue } from "../validate/index.js";

/**
 * Error codes of the CLI's own: a line that is not an input document, a line over
 * `--max-line-bytes` (skipped unread), or an unexpected failure.
 */
export type RecordErrorCode = ErrorCode | "INPUT_INVALID" | "LINE_TOO_LONG" | "INTERNAL";

/** What ties a record to its input line: `--resume` matches all three against the input. */
export interface RecordKey {
  /** 1-based line number in the input. */
  readonly line: number;
  /** The input's id field, or the line number when the line has none (or was not read). */
  readonly id: string | number;
  /** SHA-256 (hex) of the input line's bytes without its newline. */
  readonly inputSha256: string;
}

export interface ResultRecord extends RecordKey {
  readonly status: Exclude<DocumentStatus, "failed">;
  readonly ok: boolean;
  readonly data: unknown;
  /** The parsed value, present only when `data` is null. */
  readonly partial?: unknown;
  readonly fields: readonly FieldResult[];
  readonly issues: readonly Issue[];
  readonly raw: string;
  readonly stats: ExtractStats;
  readonly error?: undefined;
}

export interface ErrorRecord extends RecordKey {
  readonly status: "failed";
  readonly error: { readonly code: RecordErrorCode; readonly message: string };
}

export type OutputRecord = ResultRecord | ErrorRecord;

export function recordOf(key: RecordKey, out: BatchResult<unknown>): OutputRecord {
  if (out.error) return errorRecord(key, out.error instanceof PocketExtractError ? out.error.code : "INTERNAL", out.error.message);
  const r = out.result;
  const status = documentStatus(out) as ResultRecord["status"];
  return {
    ...key,
    status,
    ok: r.ok,
    data: r.data,
    ...(r.ok ? {} : { partial: r.partial }),
    fields: r.fields,
    issues: r.issues,
    raw: r.raw,
    stats: r.stats,
  };
}

export function errorRecord(key: RecordKey, code: RecordErrorCode, message: string): ErrorRecord {
  return { ...key, status: "failed", error: { code, message } };
}

/** Reads a line of the output file back; undefined when it is not one of our records. */
export function parseRecord(text: string): OutputRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as { line?: unknown; id?: unknown; inputSha256?: unknown; status?: unknown; error?: { message?: unknown }; fields?: unknown; stats?: unknown };
  const wellFormed =
    Number.isSafeInteger(r.line) &&
    typeof r.inputSha256 === "string" &&
    (typeof r.id === "string" || typeof r.id === "number") &&
    (r.status === "failed" ? typeof r.error?.message === "string" : Array.isArray(r.fields) && typeof r.stats === "object");
  return wellFormed ? (value as OutputRecord) : undefined;
}

export type InputLine =
  | { readonly kind: "blank" }
  | { readonly kind: "document"; readonly id: string | number; readonly text: string }
  | { readonly kind: "invalid"; readonly id: string | number; readonly message: string };

/** An input line: a JSON object with the text (and optionally id) fields, or a JSON string. */
export function parseInputLine(text: string, line: number, fields: { readonly textField: string; readonly idField: string }): InputLine {
  if (text.trim() === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: "invalid", id: line, message: `line ${line} is not JSON: ${(err as Error).message}` };
  }
  if (typeof value === "string") return { kind: "document", id: line, text: value };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: line, message: `line ${line} must be a JSON object (or a JSON string), got ${Array.isArray(value) ? "an array" : String(value === null ? "null" : typeof value)}` };
  }
  const record = value as Record<string, unknown>;
  const rawId = record[fields.idField];
  if (rawId !== undefined && typeof rawId !== "string" && typeof rawId !== "number") {
    return { kind: "invalid", id: line, message: `line ${line}: "${fields.idField}" must be a string or a number` };
  }
  const id = rawId ?? line;
  const body = record[fields.textField];
  if (typeof body !== "string") {
    return { kind: "invalid", id, message: `line ${line}: "${fields.textField}" must be a string, got ${body === undefined ? "nothing" : body === null ? "null" : typeof body}` };
  }
  return { kind: "document", id, text: body };
}
