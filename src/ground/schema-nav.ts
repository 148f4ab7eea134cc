/**
 * Navigating a JSON Schema: `$ref` resolution and union tests. Shared by the leaf walker and the
 * prompt's schema description so that both read a schema the same way, and the way the compiler
 * does: keyword values are read through the typed SchemaNode (`peek`, so a malformed value reads
 * as absent instead of throwing), and references are resolved by the schema model's resolver
 * (`$id` base URIs, anchors, pointers into embedded resources) under the compiler's draft rules.
 */
import { SchemaError } from "../errors.js";
import { RefResolver, SchemaNode, detectDraft, type JsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { isRecord } from "../util/index.js";

/** Longest chain of `$ref`s followed from one node (a reference cycle ends here). */
const MAX_REF_CHAIN = 32;

/** One resolver per root schema: it indexes the document once, and extractors reuse one schema
 *  object for thousands of documents. */
const resolvers = new WeakMap<JsonSchemaObject, RefResolver>();

function resolverFor(root: JsonSchemaObject): RefResolver {
  let resolver = resolvers.get(root);
  if (resolver === undefined) {
    const draft = detectDraft(root);
    resolver = new RefResolver(root, draft.draft4Ids, draft.legacyRefs);
    resolvers.set(root, resolver);
  }
  return resolver;
}

/** The node the `$ref` of `node` (a node of `root`) points at, or undefined for remote and dangling refs. */
function refTarget(root: JsonSchemaObject, node: SchemaNode): unknown {
  try {
    return resolverFor(root).refTarget(node)?.node;
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
  const node = new SchemaNode(s, "");
  if (node.peek("$ref") === undefined) return s;
  if (depth >= MAX_REF_CHAIN || !isRecord(root)) return undefined;
  const target = resolveSchema(root, refTarget(root, node), depth + 1);
  const { $ref: _ref, ...siblings } = s;
  return target ? { ...target, ...siblings } : undefined;
}

/** The `anyOf` or `oneOf` branches of a schema, or undefined. */
export function unionBranches(s: JsonSchemaObject): readonly unknown[] | undefined {
  const node = new SchemaNode(s, "");
  return node.peek("anyOf") ?? node.peek("oneOf");
}

/** True when the schema's `type` is or includes "null" (or const/enum null, OpenAPI nullable). */
export function isNullType(s: JsonSchemaObject): boolean {
  const node = new SchemaNode(s, "");
  return node.peek("type")?.has("null") === true || node.peek("const") === null || node.peek("nullable") === true || node.peek("enum")?.includes(null) === true;
}
