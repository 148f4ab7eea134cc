/**
 * Merges the per-chunk results of a long document into one value with one set of field reports,
 * every span in the ORIGINAL text's offsets. Arrays are concatenated in document order, an element
 * that two overlapping chunks both read (same value, a supporting span in common) kept once;
 * objects are merged key by key; every other value is taken from the chunk that grounds it best
 * (found > inferred > missing or fabricated > invalid; on a tie the first chunk), and two different
 * found values for one field are reported as a conflict.
 */
import type { Span } from "../../ground/index.js";
import { isRecord, toPointer, type JsonPath } from "../../util/index.js";
import type { Issue } from "../../validate/index.js";
import type { FieldResult } from "../types.js";

/** One chunk's extraction: the chunk's offset in the document, its value and field reports. */
export interface ChunkOutcome {
  readonly start: number;
  readonly value: unknown;
  readonly fields: readonly FieldResult[];
}

export interface MergedOutcome {
  readonly value: unknown;
  readonly fields: FieldResult[];
  /** Fields for which chunks found different values (source "chunks"). */
  readonly conflicts: Issue[];
}

/** A chunk's value at the path being merged, with its fields under that path. */
interface Source {
  readonly id: number;
  readonly value: unknown;
  readonly fields: readonly FieldResult[];
}

const RANK: Record<FieldResult["status"], number> = { found: 3, inferred: 2, missing: 1, fabricated: 1, invalid: 0 };

export function mergeChunkOutcomes(outcomes: readonly ChunkOutcome[]): MergedOutcome {
  const fields: FieldResult[] = [];
  const conflicts: Issue[] = [];
  const sources = outcomes.map((o, id) => ({ id, value: o.value, fields: o.fields.map((f) => shiftField(f, o.start)) }));
  const value = mergeAt([], sources, fields, conflicts);
  return { value, fields, conflicts };
}

function mergeAt(path: JsonPath, sources: readonly Source[], out: FieldResult[], conflicts: Issue[]): unknown {
  const present = sources.filter((s) => s.value !== null && s.value !== undefined);
  if (present.length > 0 && present.every((s) => Array.isArray(s.value))) return mergeArrays(path, present, out);
  if (present.length > 0 && present.every((s) => isRecord(s.value))) return mergeObjects(path, present, out, conflicts);
  return pickScalar(path, sources, out, conflicts);
}

function mergeObjects(path: JsonPath, sources: readonly Source[], out: FieldResult[], conflicts: Issue[]): unknown {
  const keys = [...new Set(sources.flatMap((s) => Object.keys(s.value as Record<string, unknown>)))];
  if (keys.length === 0) {
    out.push(...sources[0]!.fields.filter((f) => f.path.length === path.length));
    return sources[0]!.value;
  }
  const merged: Record<string, unknown> = {};
  for (const key of keys) {
    const below = sources.map((s) => ({
      id: s.id,
      value: (s.value as Record<string, unknown>)[key],
      fields: s.fields.filter((f) => f.path[path.length] === key),
    }));
    const v = mergeAt([...path, key], below, out, conflicts);
    if (v !== undefined) merged[key] = v;
  }
  return merged;
}

interface Element {
  readonly source: number;
  readonly key: string;
  readonly spans: ReadonlySet<string>;
  /** Sources whose copy of this element has been matched to it (one copy per source). */
  readonly matchedBy: Set<number>;
}

function mergeArrays(path: JsonPath, sources: readonly Source[], out: FieldResult[]): unknown[] {
  const merged: unknown[] = [];
  const kept: Element[] = [];
  for (const s of sources) {
    (s.value as unknown[]).forEach((item, index) => {
      const own = s.fields.filter((f) => f.path.length > path.length && f.path[path.length] === index);
      const element: Element = { source: s.id, key: canonicalJson(item), spans: spanKeys(own), matchedBy: new Set() };
      const twin = kept.find((k) => k.source !== s.id && !k.matchedBy.has(s.id) && sameEntity(k, element));
      if (twin) {
        twin.matchedBy.add(s.id);
        return;
      }
      kept.push(element);
      const at = merged.push(item) - 1;
      out.push(...own.map((f) => reindex(f, path.length, at)));
    });
  }
  if (merged.length === 0) out.push(...sources[0]!.fields.filter((f) => f.path.length === path.length));
  return merged;
}

/** Same value, and read at the same place: a span in common (or no spans on either side). */
function sameEntity(a: Element, b: Element): boolean {
  if (a.key !== b.key) return false;
  if (a.spans.size === 0 && b.spans.size === 0) return true;
  for (const span of b.spans) if (a.spans.has(span)) return true;
  return false;
}

function pickScalar(path: JsonPath, sources: readonly Source[], out: FieldResult[], conflicts: Issue[]): unknown {
  const pointer = toPointer(path);
  const candidates = sources.map((s) => ({ source: s, field: s.fields.find((f) => f.pointer === pointer) }));
  const rank = (c: (typeof candidates)[number]): number => (c.field ? RANK[c.field.status] : RANK.missing);
  const best = candidates.reduce((a, b) => (rank(b) > rank(a) ? b : a));
  if (best.field) out.push(best.field);
  const found = candidates.flatMap((c) => (c.field?.status === "found" ? [c.field] : []));
  const distinct = [...new Map(found.map((f) => [canonicalJson(f.value), f])).values()];
  if (distinct.length > 1) {
    const seen = distinct.map((f) => `${JSON.stringify(f.value)}${f.best ? ` at ${f.best.start}-${f.best.end}` : ""}`);
    conflicts.push({
      path: [...path],
      pointer,
      message: `chunks of the document found different values: ${seen.join(", ")}; kept the first`,
      source: "chunks",
    });
  }
  return best.source.value;
}

function shiftField(f: FieldResult, offset: number): FieldResult {
  if (offset === 0) return f;
  const shift = (s: Span): Span => ({ ...s, start: s.start + offset, end: s.end + offset });
  return { ...f, spans: f.spans.map(shift), ...(f.best ? { best: shift(f.best) } : {}) };
}

function reindex(f: FieldResult, depth: number, index: number): FieldResult {
  if (f.path[depth] === index) return f;
  const path = [...f.path];
  path[depth] = index;
  return { ...f, path, pointer: toPointer(path) };
}

function spanKeys(fields: readonly FieldResult[]): Set<string> {
  return new Set(fields.flatMap((f) => (f.status === "found" ? f.spans.map((s) => `${s.start}:${s.end}`) : [])));
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
