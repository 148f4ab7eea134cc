/**
 * The grounding options of `pocket-extract run` (--date-order, --currency, --no-number-suffixes):
 * their parseArgs definitions, help lines and the conversion to the SDK's GroundingOptions, kept
 * apart so the main argument parser only splices them in.
 */
import { DATE_ORDERS, type DateOrder, type GroundingOptions } from "../ground/index.js";
import { UsageError } from "./usage-error.js";

export const GROUNDING_OPTIONS = {
  "date-order": { type: "string" },
  currency: { type: "string" },
  "no-number-suffixes": { type: "boolean" },
} as const;

export const GROUNDING_OPTION_NAMES = Object.keys(GROUNDING_OPTIONS) as (keyof typeof GROUNDING_OPTIONS)[];

export const GROUNDING_HELP = `  --date-order <order>      how grounding reads 04/10/2026 and 26/03/15: auto (default: a date
                            with one valid reading as written, the rest as the text's clear dates
                            show, else English month first, Chinese year first), dmy, mdy, ymd, any
  --currency <code|none>    currency of amounts written without a mark (default: CNY for Chinese
                            texts, USD for English); "none" ignores currencies when grounding
  --no-number-suffixes      do not read $1.5M, 2.3k, 3万 as 1500000, 2300, 30000 when grounding
`;

export function groundingFromArgs(values: {
  readonly "date-order"?: string;
  readonly currency?: string;
  readonly "no-number-suffixes"?: boolean;
}): GroundingOptions {
  const order = values["date-order"];
  if (order !== undefined && !DATE_ORDERS.includes(order as DateOrder)) {
    throw new UsageError(`--date-order must be one of ${DATE_ORDERS.join(", ")}, got "${order}"`);
  }
  const currency = values.currency;
  if (currency !== undefined && currency !== "none" && !/^[A-Za-z]{3}$/.test(currency)) {
    throw new UsageError(`--currency must be a three-letter ISO 4217 code (USD, CNY, EUR ...) or "none", got "${currency}"`);
  }
  return {
    ...(order !== undefined && { dateOrder: order as DateOrder }),
    ...(currency !== undefined && { currency: currency === "none" ? false : currency.toUpperCase() }),
    ...(values["no-number-suffixes"] && { numberSuffixes: false }),
  };
}
