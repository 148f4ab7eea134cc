/**
 * Array subschemas (already normalized to `prefixItems` + `items`): positional schemas, the
 * schema for the rest, and `minItems`/`maxItems`, all exact in the grammar. `uniqueItems` is
 * exact when it cannot fail (at most one item), when the items come from a small finite set of
 * primitive values (unique-items.ts), or when they are strings whose values stay infinite, which
 * the matcher keeps distinct (distinct-strings.ts); otherwise it is checked after decoding. `contains` is
 * exact as one hit among the items (contains.ts), except beside such distinct items, positional
 * items or `minContains`/`maxContains`.
 */

import { optional, repeat, type Expr } from "../grammar/index.js";
import { childPointer, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { containsBody } from "./contains.js";
import { cat } from "./format.js";
import { reportUse } from "./keyword-uses.js";
import type { CompileFn } from "./objects.js";
import { isOpenStringItem } from "./distinct-strings.js";
import { distinctItems, MAX_VALUES, primitiveValues } from "./unique-items.js";

export function compileArray(ctx: CompileContext, node: SchemaNode, instancePath: string, compile: CompileFn): Expr | null {
  const pointer = node.pointer;
  const minItems = node.get("minItems") ?? 0;
  let maxItems = node.get("maxItems") ?? Infinity;
  if (minItems > maxItems) return ctx.unsat("minItems > maxItems", "minItems", pointer);
  const prefixSchemas = node.get("prefixItems") ?? [];
  const itemPath = childPointer(instancePath, "*");
  const prefix: Expr[] = [];
  for (let i = 0; i < prefixSchemas.length && i < maxItems; i++) {
    const e = compile(prefixSchemas[i], childPointer(pointer, "prefixItems", i), itemPath);
    if (e === null) {
      maxItems = i; // no value fits position i: the array must end before it
      break;
    }
    prefix.push(e);
  }
  const items = prefix.length < prefixSchemas.length || maxItems <= prefix.length ? null : compile(node.get("items") ?? true, childPointer(pointer, "items"), itemPath);
  if (items === null) maxItems = Math.min(maxItems, prefix.length);
  if (minItems > maxItems) return ctx.unsat(`at least ${minItems} items required but at most ${maxItems} possible`, "minItems", pointer);
  // Strings kept distinct by the matcher: the plain array below, as a rule the automaton marks.
  let matcherDistinct = false;
  if (node.get("uniqueItems") === true && maxItems > 1) {
    const distinct = prefix.length === 0 && items !== null ? compileDistinct(ctx, items, minItems, maxItems) : undefined;
    // Beside `contains` an item may have to come from a finite set: a duplicate could be forced.
    matcherDistinct = distinct === undefined && prefix.length === 0 && items !== null && !node.has("contains") && isOpenStringItem(ctx, items);
    reportUse(ctx, pointer, "uniqueItems", distinct !== undefined || matcherDistinct, uniqueNote(distinct !== undefined, matcherDistinct));
    if (distinct !== undefined) {
      if (node.has("contains")) ctx.report.verdict(node.raw, "contains", false, "beside distinct items: checked after decoding", pointer);
      return distinct === null ? ctx.unsat(`fewer than ${minItems} distinct item values`, "uniqueItems", pointer) : cat(ctx.punct("["), distinct, ctx.punct("]"));
    }
  } else if (node.has("uniqueItems")) {
    reportUse(ctx, pointer, "uniqueItems", true, node.get("uniqueItems") === true ? "at most one item: nothing to repeat" : "false: no constraint");
  }
  // The item appears twice below (first item, then the repeated ones): a big one becomes a rule.
  const rest = items === null ? null : ctx.outline(items, "item");
  if (node.has("contains")) {
    const body = containsBody(ctx, node, rest, minItems, maxItems, instancePath, compile);
    if (body !== undefined) return body === null ? ctx.unsat("no array has an item satisfying contains", "contains", pointer) : cat(ctx.punct("["), body, ctx.punct("]"));
  }

  const sep = ctx.punct(",");
  // Built from the back: after position i, either stop (if i >= minItems) or continue.
  const k = prefix.length;
  let tail: Expr | null = rest === null || maxItems <= k ? null : repeat(cat(sep, rest), Math.max(0, minItems - k - (k === 0 ? 1 : 0)), maxItems - k - (k === 0 ? 1 : 0));
  const element = (i: number): Expr => (i < k ? prefix[i]! : rest!);
  const firstPos = k === 0 ? 0 : k - 1;
  if (k === 0) {
    tail = maxItems === 0 ? null : cat(element(0), tail);
    if (tail !== null && minItems === 0) tail = optional(tail);
  } else {
    for (let i = firstPos; i >= 0; i--) {
      const piece = cat(i === 0 ? null : sep, element(i), tail);
      tail = i >= minItems ? optional(piece) : piece;
    }
  }
  const array = cat(ctx.punct("["), tail, ctx.punct("]"));
  return matcherDistinct ? ctx.distinctArray(array) : array;
}

function uniqueNote(finite: boolean, matcher: boolean): string {
  if (finite) return "items from a finite set of values: the grammar writes each at most once";
  return matcher ? "strings with unbounded values: the matcher refuses an item equal to an earlier one" : "checked after decoding";
}

/** Distinct items when the item grammar is a small finite set of primitives (null: too few
 *  values for minItems), else undefined. */
function compileDistinct(ctx: CompileContext, items: Expr, minItems: number, maxItems: number): Expr | null | undefined {
  const values = primitiveValues(ctx, items);
  if (values === undefined || values.size > MAX_VALUES) return undefined;
  return distinctItems(ctx, [...values.values()], minItems, maxItems);
}
