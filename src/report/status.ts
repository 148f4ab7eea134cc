/**
 * One status per document, shared by the CLI's progress bar and summary and by the report, so a
 * document is counted the same everywhere. The most serious condition wins:
 * failed (an error, no result) > invalid (the result does not satisfy the schema) > fabricated
 * (some value has no support in the text) > missing (some field was not stated) > ok.
 */
import type { FieldStatus } from "../ground/index.js";

/** A document's status in the report, from best to worst. */
export type DocumentStatus = "ok" | "missing" | "fabricated" | "invalid" | "failed";

export const DOCUMENT_STATUSES: readonly DocumentStatus[] = ["ok", "missing", "fabricated", "invalid", "failed"];
export const FIELD_STATUSES: readonly FieldStatus[] = ["found", "missing", "fabricated", "inferred", "invalid"];

/**
 * A document's status for the report: failed, invalid, or the worst field status (fabricated, missing)
 * otherwise ok.
 */
export function documentStatus(entry: {
  readonly result?: { readonly ok: boolean; readonly fields: readonly { readonly status: FieldStatus }[] };
  readonly error?: unknown;
}): DocumentStatus {
  const { result } = entry;
  if (!result || entry.error !== undefined) return "failed";
  if (!result.ok) return "invalid";
  if (result.fields.some((f) => f.status === "fabricated")) return "fabricated";
  if (result.fields.some((f) => f.status === "missing")) return "missing";
  return "ok";
}
