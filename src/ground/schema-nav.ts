/**
 * Navigating a JSON Schema: `$ref` resolution and union tests. Shared by the leaf walker and the
 * prompt's schema description so that both read a schema the same way, and the way the compiler
 * does: references are resolved by the schema compiler's resolver (`$id` base URIs, anchors,
 * pointers into embedded resources), not by a pointer walk of their own.
 */
import { SchemaError } from "../errors.js";
import { RefResolver, type JsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { isRecord } from "../util/index.js";

/** Longest chain of `$ref`s followed from one node (a reference cycle ends here). */
const MAX_REF_CHAIN = 32;

/** One resolver per root schema: it indexes the document once, and extractors reuse one schema
 *  object for thousands of documents. */
const resolvers = new WeakMap<JsonSchemaObject, RefResolver>();

function resolverFor(root: JsonSchemaObject): RefResolver {
  let resolver = resolvers.get(root);
  if (resolver === undefined) {
    // The same reading of `$schema` as the compiler's (CompileContext): draft 4 names ids `id`;
    // up to draft 7 an `$id` beside `$ref` is ignored.
    const uri = "$schema" in root ? String(root.$schema) : "";
    resolver = new RefResolver(root, /draft-0[34]/.test(uri), /draft-0[3-7]/.test(uri));
    resolvers.set(root, resolver);
  }
  return resolver;
}

/** The node `ref` (written in `from`) points at, or undefined for remote and dangling refs. */
function refTarget(root: JsonSchemaObject, ref: string, from: JsonSchemaObject): unknown {
  try {
    return resolverFor(root).resolve(ref, from, "").node;
  } catch (err) {
    if (err instanceof SchemaError) return undefined;
    throw err;
  }
}

/** Resolves the `$ref`s of `s` (a node of `root`); sibling keywords next to `$ref` (allowed
 *  since 2019-09: a description, x-pocket) are kept on top of the target.
 *  Returns undefined for booleans, remote refs and dangling refs. */
export function resolveSchema(root: JsonSchema | undefined, s: unknown, depth = 0): JsonSchemaObject | undefined {
  if (!isRecord(s)) return undefined;
  if (typeof s.$ref !== "string") return s;
  if (depth >= MAX_REF_CHAIN || !isRecord(root)) return undefined;
  const target = resolveSchema(root, refTarget(root, s.$ref, s), depth + 1);
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
