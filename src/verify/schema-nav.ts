/**
 * Navigating a JSON Schema: local `$ref` resolution and object tests. Shared by the leaf walker
 * and the prompt's schema description so that both read a schema the same way.
 */
import type { JsonSchema, JsonSchemaObject } from "./types.js";

export const isSchemaObject = (x: unknown): x is JsonSchemaObject => typeof x === "object" && x !== null && !Array.isArray(x);

/** Resolves local `$ref`s ("#/$defs/X", "#/definitions/X") against `root`; sibling keywords
 *  next to `$ref` (allowed since 2019-09: a description, x-pocket) are kept on top of the target.
 *  Returns undefined for booleans, non-local refs and dangling refs. */
export function resolveSchema(root: JsonSchema | undefined, s: unknown, depth = 0): JsonSchemaObject | undefined {
  if (!isSchemaObject(s)) return undefined;
  if (typeof s.$ref !== "string") return s;
  if (!s.$ref.startsWith("#") || depth >= 32 || !isSchemaObject(root)) return undefined;
  let node: unknown = root;
  for (const raw of s.$ref.slice(1).split("/").slice(1)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isSchemaObject(node) ? node[seg] : undefined;
  }
  const target = resolveSchema(root, node, depth + 1);
  const { $ref: _ref, ...siblings } = s;
  return target ? { ...target, ...siblings } : undefined;
}

/** The `anyOf` or `oneOf` branches of a schema, or undefined. */
export function unionBranches(s: JsonSchemaObject): readonly unknown[] | undefined {
  return Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
}

/** True when the schema's `type` is or includes "null" (or const/enum null, OpenAPI nullable). */
export function isNullType(s: JsonSchemaObject): boolean {
  return s.type === "null" || s.const === null || s.nullable === true || (Array.isArray(s.type) && s.type.includes("null")) || (Array.isArray(s.enum) && s.enum.includes(null));
}
