/**
 * The subschemas an instance can meet: those reachable from the root through the keywords that
 * apply subschemas and through `$ref`, not through `definitions`/`$defs` alone. A definition no
 * `$ref` names constrains nothing, so its keywords belong in no compile report (an unsupported
 * keyword there must not make the schema look partly unenforced).
 *
 * Only local JSON-pointer references (`#`, `#/definitions/x`) are followed; a schema with any
 * other reference form (anchors, relative or absolute URIs, `$dynamicRef`) or with an `$id`
 * below the root, where a pointer would resolve against another base, is left undecided.
 */

import { forEachSubschema, isRecord } from "../schema/index.js";

const CONTAINERS = new Set(["definitions", "$defs"]);
const DYNAMIC_REFS = ["$dynamicRef", "$recursiveRef"];

/** The schema objects reachable from `root`, or undefined when its references cannot be followed for sure. */
export function reachableSubschemas(root: unknown): Set<object> | undefined {
  const reached = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isRecord(node) || reached.has(node)) continue;
    reached.add(node);
    if (node !== root && typeof node.$id === "string") return undefined;
    if (DYNAMIC_REFS.some((k) => k in node)) return undefined;
    if ("$ref" in node) {
      const target = resolveLocalPointer(root, node.$ref);
      if (target === undefined) return undefined;
      stack.push(target);
    }
    forEachSubschema(node, "", (child, ptr) => {
      if (!CONTAINERS.has(ptr.split("/")[1]!)) stack.push(child);
    });
  }
  return reached;
}

/** The value a `#`-rooted JSON pointer names in `root`, or undefined when `ref` is not one or names nothing. */
function resolveLocalPointer(root: unknown, ref: unknown): unknown {
  if (ref === "#") return root;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment)) node = node[Number(segment)];
    else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}
