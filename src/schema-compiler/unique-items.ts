/**
 * `uniqueItems` in the grammar when the items come from a small finite set of values (an enum, a
 * const, booleans, null): an array of distinct values is then a regular language, whose state is
 * the set of values used so far. The grammar spells it as a tree of the ordered choices (after
 * each item, any value not used yet), so its size is the number of distinct prefixes; beyond
 * MAX_PREFIXES (six values with no maxItems, more with a small maxItems) it is left to the check
 * after decoding.
 *
 * Values are compared by their JSON text, which is their identity here: the item grammar is a
 * union of literals, each the canonical text of one primitive (values.ts), so two different
 * texts are two different values.
 */

import { empty, lit, type Expr } from "../grammar/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";

/** Most item prefixes (ordered selections of distinct values) the tree may spell. */
export const MAX_PREFIXES = 2000;
/** Most values (the set of used ones is a bit mask). */
export const MAX_VALUES = 30;

/**
 * The item grammar's values when it is a finite union of primitive literals (following rule
 * references), else undefined.
 */
export function primitiveLiterals(ctx: CompileContext, item: Expr): string[] | undefined {
  const out = new Set<string>();
  const seen = new Set<string>();
  const visit = (e: Expr): boolean => {
    switch (e.kind) {
      case "lit":
        if (!isPrimitiveText(e.text)) return false;
        out.add(e.text);
        return true;
      case "alt":
        return e.items.every(visit);
      case "ref": {
        if (seen.has(e.name)) return false;
        seen.add(e.name);
        const body = ctx.rules.get(e.name);
        return body !== undefined && visit(body);
      }
      default:
        return false;
    }
  };
  return visit(item) ? [...out] : undefined;
}

function isPrimitiveText(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v === null || typeof v !== "object";
  } catch {
    return false;
  }
}

/** Number of ordered selections of at most `maxLength` distinct values out of n (stops counting past `limit`). */
export function prefixCount(n: number, maxLength: number, limit = MAX_PREFIXES): number {
  let total = 1;
  let layer = 1;
  for (let j = 1; j <= Math.min(n, maxLength) && total <= limit; j++) {
    layer *= n - j + 1;
    total += layer;
  }
  return total;
}

/** The array body (between the brackets) of distinct `values`, from minItems to maxItems of them. */
export function distinctItems(ctx: CompileContext, values: readonly string[], minItems: number, maxItems: number): Expr | null {
  const sep = ctx.punct(",");
  const items = values.map((v) => lit(v));
  const bySet = new Map<number, Expr | null>();
  // After `count` items using the set `used` (a bit per value): stop, or one more unused value.
  const rest = (used: number, count: number): Expr | null => {
    const known = bySet.get(used);
    if (known !== undefined) return known;
    const parts: (Expr | null)[] = [count >= minItems ? empty() : null];
    if (count < maxItems) {
      items.forEach((item, i) => {
        if (used & (1 << i)) return;
        const after = rest(used | (1 << i), count + 1);
        if (after !== null) parts.push(cat(count > 0 ? sep : null, item, after));
      });
    }
    const expr = union(parts);
    bySet.set(used, expr);
    return expr;
  };
  return rest(0, 0);
}
