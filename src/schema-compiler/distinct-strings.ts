/**
 * `uniqueItems` over strings that have no finite set of values: the matcher keeps the items
 * distinct (Grammar.distinctArrays, mask/distinct-items.ts), which is exact only when a
 * duplicate can always be avoided. It can when, from every prefix of an item, infinitely many
 * values remain: then closing the item on a value used before is the only move to refuse, and
 * the array can always be finished (minItems included) with fresh values. A string with no
 * maxLength, no pattern and no excluded patterns has that property (finitely many excluded
 * names take finitely many values away); anything else stays checked after decoding.
 */

import type { Expr } from "../grammar/index.js";
import type { CompileContext } from "./context.js";

/** True when the item grammar is one string whose values stay infinite from every prefix. */
export function isOpenStringItem(ctx: CompileContext, item: Expr): boolean {
  const seen = new Set<string>();
  let e = item;
  while (e.kind === "ref") {
    if (seen.has(e.name)) return false;
    seen.add(e.name);
    const body = ctx.rules.get(e.name);
    if (body === undefined) return false;
    e = body;
  }
  return e.kind === "jsonString" && e.maxLength === Infinity && e.pattern === undefined && e.excludePatterns === undefined && e.substringOf === undefined;
}
