/**
 * `uniqueItems` in the grammar when the items come from a small finite set of values (an enum, a
 * const, booleans, null): an array of distinct values is then a regular language, whose state is
 * the set of values used so far. After each item comes any value not used yet. Spelled inline,
 * that is a tree of the ordered choices, whose size is the number of distinct prefixes: the
 * cheapest to build up to MAX_PREFIXES (six values with no maxItems). Past that, each set of used
 * values becomes a rule of its own, which the automaton shares instead of copying it once per
 * order of the same items: the size is then the number of sets (nine values with no maxItems are
 * 512 sets but 986,410 prefixes), at a cost per rule (about 0.1 ms for each set on a first
 * compile); beyond MAX_SETS it is left to the check after decoding.
 *
 * Values are compared by their canonical JSON text, which is their identity here: the item
 * grammar is a union of one spelling per primitive (values.ts: the canonical text, for a number
 * followed by zeros that keep its value), so two different texts are two different values.
 */

import { empty, type Expr } from "../grammar/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";

/** Most item prefixes (ordered selections of distinct values) the inline tree may spell. */
const MAX_PREFIXES = 2000;
/** Most sets of used values spelled as rules (with at most maxItems values each). */
const MAX_SETS = 512;
/** Most values (the set of used ones is a bit mask). */
export const MAX_VALUES = 30;

/**
 * The item grammar's values when it is a finite union of primitive values (following rule
 * references): each value's canonical text and its spellings, else undefined.
 */
export function primitiveValues(ctx: CompileContext, item: Expr): Map<string, Expr> | undefined {
  const out = new Map<string, Expr>();
  const seen = new Set<string>();
  const visit = (e: Expr): boolean => {
    if (e.kind === "alt") return e.items.every(visit);
    if (e.kind === "ref") {
      if (seen.has(e.name)) return false;
      seen.add(e.name);
      const body = ctx.rules.get(e.name);
      return body !== undefined && visit(body);
    }
    const text = canonicalText(e);
    if (text === undefined) return false;
    out.set(text, e);
    return true;
  };
  return visit(item) ? out : undefined;
}

/** The canonical text of a primitive's spelling: a literal, or a number literal followed by
 *  zeros (values.ts numberExpr); undefined for anything else. */
function canonicalText(e: Expr): string | undefined {
  const [head, ...tail] = e.kind === "seq" ? e.items : [e];
  if (head?.kind !== "lit" || !isPrimitiveText(head.text)) return undefined;
  if (tail.length === 0) return head.text;
  return typeof JSON.parse(head.text) === "number" && tail.every(onlyZeros) ? head.text : undefined;
}

function isPrimitiveText(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v === null || typeof v !== "object";
  } catch {
    return false;
  }
}

/** Spells nothing but "." and "0" (a zero fraction or trailing zeros). */
function onlyZeros(e: Expr): boolean {
  switch (e.kind) {
    case "lit":
      return /^[.0]*$/.test(e.text);
    case "seq":
    case "alt":
      return e.items.every(onlyZeros);
    case "repeat":
      return onlyZeros(e.item);
    default:
      return false;
  }
}

/** Number of selections (`ordered`: sequences, else sets) of at most `maxLength` distinct values
 *  out of n (stops counting past `limit`). */
function selectionCount(n: number, maxLength: number, ordered: boolean, limit: number): number {
  let total = 1;
  let layer = 1;
  for (let j = 1; j <= Math.min(n, maxLength) && total <= limit; j++) {
    layer = ordered ? layer * (n - j + 1) : (layer * (n - j + 1)) / j;
    total += layer;
  }
  return total;
}

/** The array body (between the brackets) of distinct values (each given by its spellings), from
 *  minItems to maxItems of them; undefined past the size limits. */
export function distinctItems(ctx: CompileContext, items: readonly Expr[], minItems: number, maxItems: number): Expr | null | undefined {
  const inline = selectionCount(items.length, maxItems, true, MAX_PREFIXES) <= MAX_PREFIXES;
  if (!inline && selectionCount(items.length, maxItems, false, MAX_SETS) > MAX_SETS) return undefined;
  const sep = ctx.punct(",");
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
    const body = union(parts);
    const expr = inline || body === null ? body : ctx.outline(body, "distinct-items");
    bySet.set(used, expr);
    return expr;
  };
  return rest(0, 0);
}
