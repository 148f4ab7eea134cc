/**
 * Turns the output decoded so far into stream events: a "partial" event when the typed partial
 * (growing strings, see typed-partial.ts) differs from the last one sent, and an "element" event
 * for each element of the streamed array that has become complete, once, with its report.
 * One instance per generation attempt.
 */
import { resolveSchema, unionBranches } from "../ground/index.js";
import type { GroundingOptions } from "../ground/index.js";
import { OptionError } from "../errors.js";
import { SchemaNode, type JsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { isRecord, type JsonPath } from "../util/index.js";
import { elementReport, mergedElementReport } from "./element-report.js";
import type { SettledChunks } from "./long-document/index.js";
import type { StreamSink } from "./extract-stream.js";
import { parseJsonPrefix, type JsonPrefix } from "./partial-json.js";
import { typedPartial } from "./typed-partial.js";
import type { DeepPartial, ElementEvent, PartialEvent, StreamElement, StreamEvent } from "./types.js";

export interface ProgressContext {
  readonly jsonSchema: JsonSchema;
  readonly text: string;
  readonly grounding: GroundingOptions;
  /** The `elements` option: a top-level array property, or undefined for a root array. */
  readonly elements: string | undefined;
  /** 1 for the first generation, 2... for retries. */
  readonly attempt: number;
}

export class StreamProgress<T, E> {
  /** Path of the array whose elements are reported; undefined when there is none. */
  readonly arrayPath: JsonPath | undefined;
  private lastPartial: string | undefined;
  private elementsSent = 0;

  constructor(private readonly c: ProgressContext) {
    this.arrayPath = streamedArray(c.jsonSchema, c.elements);
  }

  /** The events the output so far (`raw`: whole UTF-8 characters only) adds. */
  update(raw: string): StreamEvent<T, E>[] {
    const prefix = parseJsonPrefix(raw, { growingStrings: true });
    // Elements first: typedPartial edits the parsed value in place.
    const elements = this.completedElements(prefix);
    const events: (PartialEvent<T> | ElementEvent<E>)[] = [];
    const partial = typedPartial(prefix, this.c.jsonSchema);
    const key = JSON.stringify(partial);
    if (partial !== undefined && key !== this.lastPartial) {
      this.lastPartial = key;
      events.push({ type: "partial", partial: partial as DeepPartial<T>, raw, attempt: this.c.attempt });
    }
    for (const element of elements) events.push({ type: "element", element, attempt: this.c.attempt });
    // Element events exist only where there is an array to stream, that is where E is not never.
    return events as StreamEvent<T, E>[];
  }

  private completedElements(prefix: JsonPrefix): StreamElement<E>[] {
    const path = this.arrayPath;
    if (path === undefined) return [];
    const items = path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), prefix.value);
    if (!Array.isArray(items)) return [];
    // The item the output is still writing, if the open path runs through one.
    const open = prefix.open;
    const writing = open !== undefined && open.length > path.length && path.every((seg, i) => open[i] === seg) ? (open[path.length] as number) : Infinity;
    const complete = Math.min(items.length, writing);
    const out: StreamElement<E>[] = [];
    for (; this.elementsSent < complete; this.elementsSent++) {
      const index = this.elementsSent;
      out.push(elementReport<E>({ element: items[index], arrayPath: path, index, text: this.c.text, jsonSchema: this.c.jsonSchema, grounding: this.c.grounding }));
    }
    return out;
  }
}

/** The path of the array a stream reports the elements of: the root when it is an array and no
 *  property is named, else the named top-level property, which must be an array. Keywords are
 *  read through the typed SchemaNode, as the compiler reads them. */
function streamedArray(jsonSchema: JsonSchema, elements: unknown): JsonPath | undefined {
  const root = resolveSchema(jsonSchema, jsonSchema);
  if (elements === undefined) return root && admitsArray(jsonSchema, root) ? [] : undefined;
  const properties = root ? (new SchemaNode(root, "").peek("properties") ?? new Map<string, unknown>()) : new Map<string, unknown>();
  const names = [...properties].flatMap(([name, sub]) => {
    const s = resolveSchema(jsonSchema, sub);
    return s !== undefined && admitsArray(jsonSchema, s) ? [name] : [];
  });
  if (typeof elements !== "string" || !names.includes(elements)) {
    throw new OptionError("elements", elements, `the name of a top-level array property of the schema (${names.map((n) => JSON.stringify(n)).join(", ") || "it has none"})`);
  }
  return [elements];
}

/** An array type, an untyped schema with array keywords, or a union with such a branch. */
function admitsArray(root: JsonSchema, s: JsonSchemaObject, depth = 0): boolean {
  const node = new SchemaNode(s, "");
  const type = node.peek("type");
  if (type?.has("array") === true) return true;
  if (type === undefined && (node.has("items") || node.has("prefixItems"))) return true;
  return depth < 8 && (unionBranches(s) ?? []).some((b) => {
    const r = resolveSchema(root, b);
    return r !== undefined && admitsArray(root, r, depth + 1);
  });
}

/** Watches one generation attempt of an extraction: gets the attempt's schema and grounding,
 *  returns the callback that receives its output so far (the same bytes, grown, each call). */
export type AttemptWatcher = (attempt: { readonly number: number; readonly jsonSchema: JsonSchema; readonly grounding: GroundingOptions }) => (output: Uint8Array) => void;

/** The watcher of a stream: a StreamProgress per attempt, its events delivered to the sink. */
export function watchProgress<T, E>(o: { readonly text: string; readonly elements: string | undefined; readonly sink: StreamSink<T, E> }): AttemptWatcher {
  return (attempt) => {
    const progress = new StreamProgress<T, E>({ jsonSchema: attempt.jsonSchema, text: o.text, grounding: attempt.grounding, elements: o.elements, attempt: attempt.number });
    o.sink.announceElements(progress.arrayPath !== undefined);
    // The output only grows: decode just the new bytes (a character split across tokens waits in
    // the decoder until whole), and look again only when a character was added.
    const decoder = new TextDecoder();
    let decodedBytes = 0;
    let raw = "";
    return (output) => {
      const added = decoder.decode(output.subarray(decodedBytes), { stream: true });
      decodedBytes = output.length;
      if (added === "") return;
      raw += added;
      const events = progress.update(raw);
      if (events.length > 0) o.sink.emit(events);
    };
  };
}

/** Watches a long document's extraction: gets its schema, returns the callback that receives the
 *  merge of its settled chunks each time more are settled. */
export type ChunkWatcher = (jsonSchema: JsonSchema) => (settled: SettledChunks) => void;

/**
 * The watcher of a stream over a long document: a "partial" event each time the merge of the
 * settled chunks (see SettledChunks) changes, and an "element" event for each item of the
 * streamed array once the chunk that read it is settled (the merge only appends to arrays, so
 * the item, its index and its report are final then). Events belong to attempt 1: a chunk's
 * retries and later passes happen before it is settled.
 */
export function watchChunks<T, E>(o: { readonly elements: string | undefined; readonly sink: StreamSink<T, E> }): ChunkWatcher {
  return (jsonSchema) => {
    const arrayPath = streamedArray(jsonSchema, o.elements);
    o.sink.announceElements(arrayPath !== undefined);
    let lastPartial: string | undefined;
    let elementsSent = 0;
    return ({ merged, raw }) => {
      const events: (PartialEvent<T> | ElementEvent<E>)[] = [];
      const partial = typedPartial({ value: structuredClone(merged.value), open: undefined, openString: false }, jsonSchema);
      const key = JSON.stringify(partial);
      if (partial !== undefined && key !== lastPartial) {
        lastPartial = key;
        events.push({ type: "partial", partial: partial as DeepPartial<T>, raw, attempt: 1 });
      }
      const items = arrayPath?.reduce<unknown>((node, k) => (isRecord(node) ? node[k] : undefined), merged.value);
      for (; arrayPath && Array.isArray(items) && elementsSent < items.length; elementsSent++) {
        const element = mergedElementReport<E>({ element: items[elementsSent], arrayPath, index: elementsSent, jsonSchema, fields: merged.fields });
        events.push({ type: "element", element, attempt: 1 });
      }
      if (events.length > 0) o.sink.emit(events as StreamEvent<T, E>[]);
    };
  };
}
