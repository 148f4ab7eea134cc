/**
 * Grounding: one report per leaf of an extracted value, saying whether the source text supports
 * it and where. Status rules, in order:
 *  - null, absent, empty string, empty array/object -> missing;
 *  - a validation issue at exactly this path (`options.issues`) -> invalid (spans still given);
 *  - booleans -> inferred (no alignment: "true" is not something a text says);
 *  - derived fields (`"x-pocket": {"derived": true}` on the field or an ancestor) -> inferred,
 *    with any spans that happen to support the value;
 *  - enum / const values -> found when written in the text (exact or normalized), else inferred;
 *  - strings and numbers -> found when aligned (align.ts), else fabricated.
 */
import { OptionError, PocketExtractError } from "../errors.js";
import { checkInteger } from "../util/index.js";
import { alignValue, type AlignOptions, type FuzzyBudget } from "./align.js";
import { datePolicy, DATE_ORDERS, type DateOrder } from "./dates.js";
import { defaultCurrency } from "./currency.js";
import { detectLanguage } from "../util/index.js";
import { collectLeaves, type Leaf } from "./leaves.js";
import { prepareText, type PreparedText } from "./prepared.js";
import type { JsonSchema } from "../schema/index.js";
import type { FieldReport, FieldStatus, Span } from "./types.js";

export interface GroundOptions {
  /** The JSON Schema the value was extracted with: tells required fields, enums, derived fields
   *  and declared properties the value lacks (reported as missing). Without it every leaf of
   *  the value is grounded as a plain value. */
  readonly schema?: JsonSchema;
  /** Validation issues (from `validate`); a leaf with an issue at its exact path is `invalid`. */
  readonly issues?: readonly { readonly pointer: string }[];
  /** How to read all-numeric dates (04/10/2026, 26/03/15) in the text; default "auto" (see
   *  `DateOrder`: single-reading dates as written, the rest by the text's unambiguous dates,
   *  else by language: English month first, Chinese year first). */
  readonly dateOrder?: DateOrder;
  /** Language of the text for the defaults above and below; default "auto" (detected the way
   *  the prompt language is). */
  readonly language?: "auto" | "zh" | "en";
  /** Read K/M/B, thousand/million/billion, 万/亿 after a number as multipliers too ($1.5M
   *  supports 1500000); default true. The plain number stays a reading either way. */
  readonly numberSuffixes?: boolean;
  /** Currency of amounts written without a mark, as an ISO code ("USD"); default by language
   *  (Chinese: CNY, English: USD). An amount value with a mark ($99.99) is found only on a text
   *  amount that can be in the same currency. false: currencies are not compared. */
  readonly currency?: string | false;
  /** Minimum similarity for a fuzzy match, in (0, 1]; default 0.8. */
  readonly fuzzyThreshold?: number;
  /** Minimum normalized length of a string value for fuzzy matching; default 4 (never below 3). */
  readonly minFuzzyLength?: number;
  /** Set false to disable the fuzzy tier entirely. */
  readonly fuzzy?: boolean;
  /** Work of the fuzzy tier for all values together, in (value units x text units) cells;
   *  default 1,000,000 (tens of milliseconds). Values past it are not fuzzy-searched and their
   *  reports say `fuzzySkipped`. */
  readonly maxFuzzyWork?: number;
}

/** The grounding options an extraction takes (`extract(…, { grounding })`, the CLI's
 *  --date-order, --currency, --no-number-suffixes). */
export type GroundingOptions = Pick<GroundOptions, "dateOrder" | "language" | "numberSuffixes" | "currency">;

export const DEFAULT_MAX_FUZZY_WORK = 1_000_000;
const DEFAULTS = { dateOrder: "auto", fuzzy: true, fuzzyThreshold: 0.8, minFuzzyLength: 4, numberSuffixes: true } as const;

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === "string") return v.trim().length === 0;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === "object" && Object.keys(v).length === 0;
}

function isChoice(leaf: Leaf): boolean {
  return Array.isArray(leaf.schema?.enum) || (leaf.schema !== undefined && "const" in leaf.schema);
}

function report(leaf: Leaf, status: FieldStatus, spans: Span[]): FieldReport {
  const base = { path: leaf.path, pointer: leaf.pointer, status, value: leaf.value, required: leaf.required, spans };
  return spans.length > 0 ? { ...base, best: spans[0] } : base;
}

function groundLeaf(leaf: Leaf, p: PreparedText, align: AlignOptions & { fuzzyBudget: FuzzyBudget }, invalid: ReadonlySet<string>): FieldReport {
  const v = leaf.value;
  if (isEmpty(v)) return report(leaf, "missing", []);
  const alignable = typeof v === "string" || typeof v === "number";
  if (typeof v === "boolean") return report(leaf, invalid.has(leaf.pointer) ? "invalid" : "inferred", []);
  const choice = isChoice(leaf);
  const skippedBefore = align.fuzzyBudget.skipped;
  const spans = alignable ? alignValue(v, p, choice ? { ...align, fuzzy: false } : align) : [];
  if (align.fuzzyBudget.skipped > skippedBefore) return { ...groundedReport(leaf, spans, choice, invalid), fuzzySkipped: true };
  return groundedReport(leaf, spans, choice, invalid);
}

function groundedReport(leaf: Leaf, spans: Span[], choice: boolean, invalid: ReadonlySet<string>): FieldReport {
  if (invalid.has(leaf.pointer)) return report(leaf, "invalid", spans);
  if (leaf.derived) return report(leaf, "inferred", spans);
  if (spans.length > 0) return report(leaf, "found", spans);
  return report(leaf, choice ? "inferred" : "fabricated", spans);
}

/**
 * Grounds every leaf of `value` in `text`. `text` may be a `PreparedText` (from `prepareText`)
 * to share the precomputed index across calls explicitly; plain strings are memoized too.
 * Never drops a leaf: the result has one report per leaf, in document order.
 * Throws PocketExtractError OPTION_INVALID for a fuzzyThreshold outside (0, 1], an unknown
 * dateOrder or language, or a currency that is not a three-letter code or false.
 */
export function groundFields(value: unknown, text: string | PreparedText, options: GroundOptions = {}): FieldReport[] {
  const p = typeof text === "string" ? prepareText(text) : text;
  checkInteger("maxFuzzyWork", options.maxFuzzyWork, 0, Number.MAX_SAFE_INTEGER);
  checkGroundingOptions(options);
  const language = !options.language || options.language === "auto" ? detectLanguage(p.text) : options.language;
  const align = {
    fuzzyBudget: { cells: options.maxFuzzyWork ?? DEFAULT_MAX_FUZZY_WORK, skipped: 0 },
    datePolicy: datePolicy(options.dateOrder ?? DEFAULTS.dateOrder, p.dates, language),
    numberSuffixes: options.numberSuffixes ?? DEFAULTS.numberSuffixes,
    currency: options.currency === undefined ? defaultCurrency(language) : options.currency,
    fuzzy: options.fuzzy ?? DEFAULTS.fuzzy,
    fuzzyThreshold: options.fuzzyThreshold ?? DEFAULTS.fuzzyThreshold,
    minFuzzyLength: options.minFuzzyLength ?? DEFAULTS.minFuzzyLength,
  };
  if (!(align.fuzzyThreshold > 0 && align.fuzzyThreshold <= 1)) {
    throw new PocketExtractError("OPTION_INVALID", `fuzzyThreshold must be in (0, 1], got ${align.fuzzyThreshold}`);
  }
  const invalid = new Set((options.issues ?? []).map((i) => i.pointer));
  return collectLeaves(value, options.schema).map((leaf) => groundLeaf(leaf, p, align, invalid));
}

/** The grounding options' own checks (also run by the extractor before any decoding). */
export function checkGroundingOptions(o: GroundingOptions): void {
  if (o.dateOrder !== undefined && !DATE_ORDERS.includes(o.dateOrder)) {
    throw new OptionError("dateOrder", o.dateOrder, `one of ${DATE_ORDERS.map((d) => `"${d}"`).join(", ")}`);
  }
  if (o.language !== undefined && !["auto", "zh", "en"].includes(o.language)) throw new OptionError("language", o.language, `"auto", "zh" or "en"`);
  if (o.numberSuffixes !== undefined && typeof o.numberSuffixes !== "boolean") throw new OptionError("numberSuffixes", o.numberSuffixes, "a boolean");
  if (o.currency !== undefined && o.currency !== false && !(typeof o.currency === "string" && /^[A-Z]{3}$/.test(o.currency))) {
    throw new OptionError("currency", o.currency, `an ISO 4217 code such as "USD", or false`);
  }
}
