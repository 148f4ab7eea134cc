/**
 * Everything grounding needs to know about a source text, computed once per text: the
 * width-folded copy (same offsets), the normalized view with its offset map, and the dates,
 * phone numbers and numbers found in it (times of day only mask the numbers inside them).
 * Grounding 20 fields against one 4,000-character text then costs lookups, not re-scans. A few recent texts are memoized, so callers that pass the
 * plain string repeatedly do not pay twice.
 */
import { findDates, type DateEntity } from "./dates.js";
import { foldWidth } from "./fold.js";
import { toUnits, type Units } from "./fuzzy.js";
import { normalizeWithMap, type NormalizedText } from "./normalize.js";
import { findNumbers, type NumberEntity } from "./numbers.js";
import { findPhones, type PhoneEntity } from "./phones.js";
import { findTimes } from "./times.js";

export interface PreparedText {
  readonly text: string;
  /** `text` with full-width ASCII folded to ASCII; same length, same offsets. */
  readonly folded: string;
  readonly normalized: NormalizedText;
  /** Units of the normalized text for fuzzy matching (fuzzy.ts). */
  readonly units: Units;
  readonly dates: readonly DateEntity[];
  readonly phones: readonly PhoneEntity[];
  readonly numbers: readonly NumberEntity[];
}

const MEMO_SIZE = 8;
const memo = new Map<string, PreparedText>();

export function prepareText(text: string): PreparedText {
  const hit = memo.get(text);
  if (hit) return hit;
  const folded = foldWidth(text);
  const dates = findDates(folded);
  const phones = findPhones(folded, dates);
  // Digits inside dates, phone numbers and times of day are not standalone numbers.
  const numbers = findNumbers(folded, [...dates, ...phones, ...findTimes(folded)]);
  const normalized = normalizeWithMap(text);
  const prepared: PreparedText = { text, folded, normalized, units: toUnits(normalized), dates, phones, numbers };
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(text, prepared);
  return prepared;
}
