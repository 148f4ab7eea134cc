/**
 * Array subschemas (already normalized to `prefixItems` + `items`): positional schemas, the
 * schema for the rest, and `minItems`/`maxItems`, all exact in the grammar. `uniqueItems`,
 * `contains`, `minContains` and `maxContains` are checked after decoding.
 */

import { optional, repeat, type Expr } from "../grammar/index.js";
import { childPointer, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import type { CompileFn } from "./objects.js";

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
  // The item appears twice below (first item, then the repeated ones): a big one becomes a rule.
  const rest = items === null ? null : ctx.outline(items, "item");
  if (rest === null) maxItems = Math.min(maxItems, prefix.length);
  if (minItems > maxItems) return ctx.unsat(`at least ${minItems} items required but at most ${maxItems} possible`, "minItems", pointer);

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
  return cat(ctx.punct("["), tail, ctx.punct("]"));
}
