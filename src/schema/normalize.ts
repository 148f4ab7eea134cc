/**
 * Rewrites one schema node into the single dialect the compiler works on, so the rest of the
 * compiler handles one spelling per idea: draft-4 boolean `exclusiveMinimum/Maximum` become
 * numbers, draft-4 tuple `items: [...]` + `additionalItems` become `prefixItems` + `items`,
 * `const` becomes a one-value `enum`, OpenAPI `nullable: true` adds "null" to `type`.
 * Shallow: subschemas are normalized when they are compiled.
 */

import type { JsonSchemaObject } from "./types.js";

type Mutable = { [k: string]: unknown };

/** Each exclusive bound in its boolean (draft 4) form and the bound it turns into a number. */
const BOOLEAN_BOUNDS = [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const;

export function normalizeNode(node: JsonSchemaObject): JsonSchemaObject {
  // The compiler normalizes every node it compiles or merges, most of them many times over (the
  // oneOf and negation rewritings compile the same subschemas again): a node already in the
  // dialect is returned as it is, and nothing is allocated until a rewrite is needed.
  let out: Mutable | undefined;
  for (const [ex, bound] of BOOLEAN_BOUNDS) {
    const v = node[ex];
    if (typeof v === "boolean") {
      const o = (out ??= { ...node });
      delete o[ex];
      if (v && typeof node[bound] === "number") {
        o[ex] = node[bound];
        delete o[bound];
      }
    }
  }
  if (Array.isArray(node.items)) {
    const o = (out ??= { ...node });
    o.prefixItems = node.items;
    o.items = node.additionalItems ?? true;
    delete o.additionalItems;
  } else if ("additionalItems" in node && !("prefixItems" in node)) {
    // additionalItems without tuple items has no effect (draft 2019-09 and earlier).
    delete (out ??= { ...node }).additionalItems;
  }
  if ("const" in node) {
    const o = (out ??= { ...node });
    o.enum = "enum" in node && Array.isArray(node.enum) ? node.enum.filter((v) => jsonEqual(v, node.const)) : [node.const];
    delete o.const;
  }
  if (node.nullable === true && node.type !== undefined) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (!types.includes("null")) (out ??= { ...node }).type = [...types, "null"];
  }
  return out ?? node;
}

/** JSON Schema equality: numbers by value, objects regardless of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(ao[k], bo[k]));
}
