/**
 * Public types of grounding: source spans and per-field reports. Kept apart from the code so
 * that the extractor, the report and the CLI can import the shapes without pulling in the
 * alignment machinery.
 */

/**
 * A piece of the source text supporting a value. Offsets are UTF-16 code-unit offsets into the
 * ORIGINAL text (as `String.prototype.slice` uses them), `end` exclusive, and
 * `text === source.slice(start, end)` always holds.
 */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** exact: the value's characters occur verbatim; normalized: equal after normalization
   *  (case, width, spacing, punctuation, Chinese numerals, date/phone/amount forms);
   *  fuzzy: approximately equal (see `fuzzyThreshold`). */
  readonly match: "exact" | "normalized" | "fuzzy";
  /** 1 for exact, 0.9 for normalized (0.8 for a date whose year the text does not state),
   *  the similarity for fuzzy. */
  readonly score: number;
}

/**
 * - found: the value is supported by at least one span of the text.
 * - missing: null, absent, or empty where the schema allows it; the text did not state it.
 * - fabricated: a value with no support in the text.
 * - inferred: a boolean, an enum/const value not written in the text, or a field the schema marks
 *   as derived (`"x-pocket": { "derived": true }`): not expected to appear verbatim.
 * - invalid: the value failed validation at exactly this path (see `GroundOptions.issues`), or
 *   a required field came back null or absent (the schema is not satisfied; see `verify`).
 */
export type FieldStatus = "found" | "missing" | "fabricated" | "inferred" | "invalid";

/** One leaf field of a result: its path, value, grounding status and the source span it was found at. */
export interface FieldReport {
  readonly path: (string | number)[];
  readonly pointer: string;
  readonly status: FieldStatus;
  /** The value as extracted (undefined when absent). */
  readonly value: unknown;
  /** True when the schema admits neither null nor absence here: a null or absent value then
   *  means the extraction did not satisfy the schema (an empty string is `missing` but valid). */
  readonly required: boolean;
  /** The supporting spans, best first (at most 32). */
  readonly spans: Span[];
  readonly best?: Span;
  /** The fuzzy tier was not run for this value: the grounding's fuzzy work budget
   *  (`maxFuzzyWork`) was spent on earlier values. Exact and normalized matches were searched. */
  readonly fuzzySkipped?: true;
}
