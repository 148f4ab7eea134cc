/**
 * `$ref` resolution inside one document. Indexes every schema resource (`$id`, or `id` in
 * draft 4) and anchor (`$anchor`, or draft-7 `$id: "#name"`) with its base URI, then resolves a
 * reference against the base in effect where it appears: JSON pointers (`#/$defs/a`, `#`,
 * pointers into embedded resources) and anchors. Anything outside the document is a remote
 * reference and is rejected with SCHEMA_REF.
 */

import { SchemaError } from "../errors.js";
import { isRecord } from "../util/index.js";
import { forEachSubschema } from "./keywords.js";
import type { SchemaNode } from "./node.js";

const DEFAULT_BASE = "https://pocket-extract.invalid/schema.json";

export interface Resolved {
  readonly node: unknown;
  /** JSON pointer of the target within the whole document. */
  readonly pointer: string;
}

const withoutFragment = (uri: string): string => uri.replace(/#.*$/, "");

export class RefResolver {
  private readonly resources = new Map<string, Resolved>();
  private readonly anchors = new Map<string, Resolved>();
  /** Base URIs by node: the document's nodes, and the nodes a compile built from them. A Map, not a
   *  WeakMap: a resolver serves one compile, or one root schema it keeps alive anyway (the built
   *  nodes are only kept for a base other than the document's, see inheritBase). */
  private readonly bases = new Map<object, string>();

  /** `legacy`: draft 7 and earlier, where `$id` beside `$ref` is ignored; `draft4Ids`: `id` instead of `$id`. */
  constructor(root: unknown, private readonly draft4Ids: boolean, private readonly legacy: boolean) {
    const seen = new Set<object>();
    const stack: [unknown, string, string][] = [[root, "", DEFAULT_BASE]];
    this.resources.set(DEFAULT_BASE, { node: root, pointer: "" });
    while (stack.length > 0) {
      const [node, ptr, parentBase] = stack.pop()!;
      if (!isRecord(node) || seen.has(node)) continue;
      seen.add(node);
      let base = parentBase;
      const id = this.legacy && "$ref" in node ? undefined : this.draft4Ids ? node.id : node.$id;
      if (typeof id === "string") {
        const resolved = safeUrl(id, parentBase);
        if (resolved !== undefined) {
          if (id.startsWith("#") && id.length > 1) {
            this.anchors.set(resolved, { node, pointer: ptr });
          } else {
            base = withoutFragment(resolved);
            this.resources.set(base, { node, pointer: ptr });
          }
        }
      }
      if (typeof node.$anchor === "string") this.anchors.set(`${base}#${node.$anchor}`, { node, pointer: ptr });
      this.bases.set(node, base);
      forEachSubschema(node, ptr, (child, childPtr) => stack.push([child, childPtr, base]));
    }
  }

  /** Base URI in effect inside `node` (nodes the compiler built itself use the document base). */
  baseOf(node: object): string {
    return this.bases.get(node) ?? DEFAULT_BASE;
  }

  /** Lets a merged node inherit the base of the node it was built from. */
  inheritBase(merged: object, from: object): void {
    // No entry for the document base, which baseOf answers without one: most schemas have no
    // `$id` and this runs for every node the compiler builds.
    if (this.bases.has(merged)) return;
    const base = this.baseOf(from);
    if (base !== DEFAULT_BASE) this.bases.set(merged, base);
  }

  /** The target of the node's `$ref`, undefined when it has no string `$ref`. */
  refTarget(node: SchemaNode): Resolved | undefined {
    const ref = node.peek("$ref");
    return ref === undefined ? undefined : this.resolve(ref, node.raw, node.pointer);
  }

  resolve(ref: string, from: object, pointer: string): Resolved {
    const uri = safeUrl(ref, this.baseOf(from));
    if (uri === undefined) throw new SchemaError("SCHEMA_REF", `"${ref}" is not a valid URI reference`, { keyword: "$ref", pointer });
    const doc = withoutFragment(uri);
    const resource = this.resources.get(doc);
    if (resource === undefined) {
      throw new SchemaError("SCHEMA_REF", `remote reference "${ref}" (resolves to ${doc}) is not supported; only references inside the schema document`, { keyword: "$ref", pointer });
    }
    const hash = uri.slice(doc.length);
    let fragment: string;
    try {
      fragment = decodeURIComponent(hash.slice(1));
    } catch {
      throw new SchemaError("SCHEMA_REF", `"${ref}" has a malformed percent-encoding`, { keyword: "$ref", pointer });
    }
    if (fragment === "") return resource;
    if (!fragment.startsWith("/")) {
      const anchor = this.anchors.get(`${doc}#${fragment}`);
      if (anchor === undefined) throw new SchemaError("SCHEMA_REF", `anchor "#${fragment}" of "${ref}" not found`, { keyword: "$ref", pointer });
      return anchor;
    }
    let node: unknown = resource.node;
    for (const raw of fragment.slice(1).split("/")) {
      const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (Array.isArray(node) && /^\d+$/.test(seg) && Number(seg) < node.length) node = node[Number(seg)];
      else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, seg)) node = node[seg];
      else throw new SchemaError("SCHEMA_REF", `"${ref}" does not point into the document`, { keyword: "$ref", pointer });
    }
    return { node, pointer: resource.pointer + fragment };
  }
}

function safeUrl(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}
