/**
 * The check every engine runs on EngineSession.feedRows' `rows`: the indices of the fed ids whose
 * next-token logits are kept (a draft's forced tokens are fed without one).
 */
import { PocketExtractError } from "../errors.js";

/** Throws unless `rows` are increasing indices into a batch of `length` ids, at least one. */
export function checkRows(rows: readonly number[], length: number): void {
  const valid = rows.length > 0 && rows.every((r, i) => Number.isInteger(r) && r >= 0 && r < length && (i === 0 || r > rows[i - 1]!));
  if (!valid) throw new PocketExtractError("ENGINE_FAILED", `feedRows: rows must be increasing indices within 0..${length - 1}, got [${rows.join(", ")}]`);
}
