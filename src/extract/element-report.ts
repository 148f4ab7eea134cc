/**
 * The report of one complete element of a streamed array, made as soon as the element is
 * complete: null escapes resolved, validated against the JSON Schema and grounded in the text,
 * with pointers into the whole document (`/people/2/name`). The element is verified inside a
 * skeleton of the document that holds only it, at its own index, so `$ref`s, tuple positions and
 * annotations resolve as in the final verification; reports about the rest of the skeleton are
 * left out. The schema's own validation (zod refinements) needs the whole document: it runs on
 * the final result only.
 */
import type { GroundingOptions } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { toPointer, type JsonPath } from "../util/index.js";
import { typedPartial } from "./typed-partial.js";
import type { DeepPartial, StreamElement } from "./types.js";
import { verifyParsed } from "./verify-output.js";

export interface ElementToReport {
  /** The element as parsed from the output (null escapes still in). */
  readonly element: unknown;
  /** Path of the streamed array in the document. */
  readonly arrayPath: JsonPath;
  readonly index: number;
  readonly text: string;
  readonly jsonSchema: JsonSchema;
  readonly grounding: GroundingOptions;
}

export function elementReport<E>(o: ElementToReport): StreamElement<E> {
  const path = [...o.arrayPath, o.index];
  const checked = verifyParsed<unknown>(skeleton(o.arrayPath, o.index, o.element), { text: o.text, jsonSchema: o.jsonSchema, grounding: o.grounding });
  const pointer = toPointer(path);
  const inside = (p: string): boolean => p === pointer || p.startsWith(`${pointer}/`);
  const fields = checked.fields.filter((f) => inside(f.pointer));
  const issues = checked.issues.filter((i) => inside(i.pointer));
  const shaped = typedPartial({ value: skeleton(o.arrayPath, o.index, structuredClone(o.element)), open: undefined, openString: false }, o.jsonSchema);
  const parts = {
    index: o.index,
    fields,
    issues,
    grounded: !fields.some((f) => f.status === "fabricated"),
    partial: at(shaped, path) as DeepPartial<E>,
  };
  const ok = issues.length === 0 && !fields.some((f) => f.status === "invalid");
  return ok ? { ...parts, ok, data: at(checked.value, path) as E } : { ...parts, ok, data: null };
}

/** The document with only `element`, at `index` of the array at `arrayPath` (a sparse array). */
function skeleton(arrayPath: JsonPath, index: number, element: unknown): unknown {
  const items: unknown[] = [];
  items[index] = element;
  return arrayPath.reduceRight<unknown>((inner, key) => Object.fromEntries([[key, inner]]), items);
}

function at(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}
