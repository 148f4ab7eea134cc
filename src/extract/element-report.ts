/**
 * The report of one complete element of a streamed array, made as soon as the element is
 * complete: null escapes resolved, validated against the JSON Schema and grounded in the text,
 * with pointers into the whole document (`/people/2/name`). The element is verified inside a
 * skeleton of the document that holds only it, at its own index, so `$ref`s, tuple positions and
 * annotations resolve as in the final verification; reports about the rest of the skeleton are
 * left out. A long document's elements come from the merge of its chunks: mergedElementReport.
 * The schema's own validation (zod refinements) needs the whole document: it runs on the final
 * result only.
 */
import type { GroundingOptions } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { toPointer, type JsonPath } from "../util/index.js";
import { typedPartial } from "./typed-partial.js";
import { validate, type Issue } from "../validate/index.js";
import type { DeepPartial, FieldResult, StreamElement } from "./types.js";
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
  const checked = verifyParsed<unknown>(skeleton(o.arrayPath, o.index, o.element), { text: o.text, jsonSchema: o.jsonSchema, grounding: o.grounding });
  const inside = within([...o.arrayPath, o.index]);
  return reportOf<E>(o, at(checked.value, [...o.arrayPath, o.index]), checked.fields.filter(inside), checked.issues.filter(inside));
}

/** An element of a long document's merged array (already verified in its chunk, null escapes
 *  resolved): its fields' reports come from the merge, spans in the whole text's offsets; it is
 *  validated here, and its fields marked invalid as the final result marks them. */
export function mergedElementReport<E>(o: Omit<ElementToReport, "text" | "grounding"> & { readonly fields: readonly FieldResult[] }): StreamElement<E> {
  const inside = within([...o.arrayPath, o.index]);
  const issues = validate(skeleton(o.arrayPath, o.index, o.element), o.jsonSchema).issues.filter(inside);
  const invalidAt = new Set(issues.map((i) => i.pointer));
  const fields = o.fields
    .filter(inside)
    .map((f): FieldResult => (invalidAt.has(f.pointer) || (f.required && (f.value === null || f.value === undefined)) ? { ...f, status: "invalid" } : f));
  return reportOf<E>(o, o.element, fields, issues);
}

function reportOf<E>(o: Pick<ElementToReport, "element" | "arrayPath" | "index" | "jsonSchema">, value: unknown, fields: readonly FieldResult[], issues: readonly Issue[]): StreamElement<E> {
  const path = [...o.arrayPath, o.index];
  const shaped = typedPartial({ value: skeleton(o.arrayPath, o.index, structuredClone(o.element)), open: undefined, openString: false }, o.jsonSchema);
  const parts = {
    index: o.index,
    fields,
    issues,
    grounded: !fields.some((f) => f.status === "fabricated"),
    partial: at(shaped, path) as DeepPartial<E>,
  };
  const ok = issues.length === 0 && !fields.some((f) => f.status === "invalid");
  return ok ? { ...parts, ok, data: value as E } : { ...parts, ok, data: null };
}

/** Whether a pointer is at or under `path`. */
function within(path: JsonPath): (report: { readonly pointer: string }) => boolean {
  const pointer = toPointer(path);
  return (r) => r.pointer === pointer || r.pointer.startsWith(`${pointer}/`);
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
