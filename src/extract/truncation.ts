/**
 * Marks the fields that budget-aware completion cut short: every leaf that was not already
 * complete in the output written before the cut (those values were finished by the shortest
 * completion, not by the model).
 */
import type { FieldReport } from "../ground/index.js";
import { parsePartialJson } from "./partial-json.js";
import type { FieldResult } from "./types.js";

export function markTruncated(fields: FieldReport[], raw: string, cutAt: number | undefined): FieldResult[] {
  if (cutAt === undefined) return fields;
  const before = parsePartialJson(new TextDecoder().decode(new TextEncoder().encode(raw).subarray(0, cutAt)));
  return fields.map((f) => (hasPath(before, f.path) ? f : { ...f, truncated: true as const }));
}

function hasPath(root: unknown, path: readonly (string | number)[]): boolean {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in node)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}
