/**
 * `contains` in the grammar: an array of n items (minItems <= n <= maxItems), every one
 * satisfying `items` (S), at least one also satisfying `contains` (a hit, H = S and C). Choosing
 * the position of one hit (a items before it, b after) gives
 *   S^a H S^b, with max(1, minItems) <= a + b + 1 <= maxItems,
 * a union over the a that matter (H lies inside S, so any hit may be the chosen one and no
 * "not C" is needed). Unbounded on both sides this is S* H S*; a bound makes it one alternative
 * per position up to the bound, and past MAX_HIT_POSITIONS of them `contains` is left to the
 * check after decoding. minContains/maxContains (counting the hits) stay there too.
 */

import { repeat, type Expr } from "../grammar/index.js";
import { childPointer, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat, union } from "./format.js";
import type { CompileFn } from "./objects.js";

/** Most alternatives (hit positions) the bounded form may spell (each repeats the item up to the bound). */
export const MAX_HIT_POSITIONS = 64;

/**
 * The array body (between the brackets) for `node`'s `contains` over the item grammar `item`
 * (null: no item allowed), from minItems to maxItems items; null when no array qualifies;
 * undefined when the grammar cannot say it (then reported checked after decoding).
 */
export function containsBody(ctx: CompileContext, node: SchemaNode, item: Expr | null, minItems: number, maxItems: number, instancePath: string, compile: CompileFn): Expr | null | undefined {
  const positional = (node.get("prefixItems") ?? []).length > 0;
  const counted = node.has("minContains") || node.has("maxContains");
  const body = positional || counted ? undefined : hitsSpelled(ctx, item === null ? null : compileHit(ctx, node, instancePath, compile), item, minItems, maxItems);
  const note = body !== undefined ? "one item written as items and contains together, at any position" : counted ? "minContains/maxContains: checked after decoding" : positional ? "with prefixItems: checked after decoding" : `more than ${MAX_HIT_POSITIONS} hit positions: checked after decoding`;
  ctx.report.verdict(node.raw, "contains", body !== undefined, note, node.pointer);
  return body;
}

/** The hit's grammar: the item schema and `contains` together (null: no item can be a hit). */
function compileHit(ctx: CompileContext, node: SchemaNode, instancePath: string, compile: CompileFn): Expr | null {
  const both = { allOf: [node.get("items") ?? true, node.get("contains") ?? true] };
  ctx.resolver.inheritBase(both, node.raw);
  return compile(both, childPointer(node.pointer, "contains"), childPointer(instancePath, "*"));
}

/** S^a H S^b over the item `item` (S) and the hit `hit` (H), by position of the hit (see above). */
function hitsSpelled(ctx: CompileContext, hit: Expr | null, item: Expr | null, minItems: number, maxItems: number): Expr | null | undefined {
  const least = Math.max(1, minItems);
  if (hit === null || item === null || least > maxItems) return null;
  const one = ctx.outline(hit, "hit");
  const sep = ctx.punct(",");
  const before = (lo: number, hi: number): Expr | null => (hi === 0 ? null : repeat(cat(item, sep), lo, hi));
  const after = (lo: number, hi: number): Expr | null => (hi === 0 ? null : repeat(cat(sep, item), lo, hi));
  // Exact counts before the hit up to `open`; from `open` on, any count (unbounded arrays only).
  const open = maxItems === Infinity ? least - 1 : maxItems;
  if (open + (maxItems === Infinity ? 1 : 0) > MAX_HIT_POSITIONS) return undefined;
  const parts: (Expr | null)[] = [];
  for (let a = 0; a < open; a++) parts.push(cat(before(a, a), one, after(Math.max(0, least - 1 - a), maxItems - 1 - a)));
  if (maxItems === Infinity) parts.push(cat(before(open, Infinity), one, after(0, Infinity)));
  return union(parts);
}
