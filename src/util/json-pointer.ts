/**
 * JSON pointers (RFC 6901) for paths into a JSON value. Validation issues and grounding reports
 * carry both the array path (easy to walk) and the pointer (easy to compare and print); this is
 * the one place that converts between them.
 */

/** A path into a JSON value: object keys and array indices. */
export type JsonPath = readonly (string | number)[];

export function toPointer(path: JsonPath): string {
  let out = "";
  for (const seg of path) out += "/" + String(seg).replace(/~/g, "~0").replace(/\//g, "~1");
  return out;
}

/** Decodes a pointer; segments are turned into numbers where `value` holds an array there, so
 *  the path walks the actual data. */
export function fromPointer(pointer: string, value: unknown): (string | number)[] {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let node: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(seg)) {
      const i = Number(seg);
      path.push(i);
      node = node[i];
    } else {
      path.push(seg);
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return path;
}
