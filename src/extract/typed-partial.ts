/**
 * What a streamed partial may show: the parsed prefix of the output with what the schema's type
 * forbids left out, so that a partial is always a `DeepPartial<T>` of that type. A null stays
 * only where the schema admits null (elsewhere it is the extraction grammar's "not stated"
 * escape, which a partial shows as absent); a string still being written shows only where any
 * string fits (an enum or const value appears once complete) and once it has a character.
 */
import { collectLeaves, isNullType, unionBranches, type Leaf } from "../ground/index.js";
import type { JsonSchema, JsonSchemaObject } from "../schema/index.js";
import type { JsonPath } from "../util/index.js";
import type { JsonPrefix } from "./partial-json.js";

/** The partial value of a prefix parsed with growing strings; undefined when nothing shows yet. */
export function typedPartial(prefix: JsonPrefix, jsonSchema: JsonSchema): unknown {
  const root = prefix.value;
  if (root === undefined) return undefined;
  const openAt = prefix.openString ? prefix.open : undefined;
  for (const leaf of collectLeaves(root, jsonSchema)) {
    const hidden =
      (leaf.value === null && !admitsNull(leaf.schema)) ||
      (openAt !== undefined && samePath(leaf.path, openAt) && (leaf.value === "" || isChoice(leaf.schema)));
    if (!hidden) continue;
    if (leaf.path.length === 0) return undefined;
    remove(root, leaf);
  }
  return root;
}

/** Whether a value's (narrowed) schema admits null: a null type, or no constraint at all. */
function admitsNull(s: JsonSchemaObject | undefined): boolean {
  if (s === undefined) return true;
  const unconstrained = s.type === undefined && s.enum === undefined && !("const" in s) && !unionBranches(s);
  return unconstrained || isNullType(s);
}

function isChoice(s: JsonSchemaObject | undefined): boolean {
  return s !== undefined && (Array.isArray(s.enum) || "const" in s);
}

function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((seg, i) => seg === b[i]);
}

/** Removes a leaf from its container: a property from its object; from an array only its last
 *  item (the one still being written), so the indices of complete items never shift. */
function remove(root: unknown, leaf: Leaf): void {
  let parent = root as Record<string | number, unknown>;
  for (const seg of leaf.path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const key = leaf.path.at(-1);
  if (key === undefined) return; // the root itself has no container
  if (!Array.isArray(parent)) delete parent[key];
  else if (key === parent.length - 1) parent.pop();
}
