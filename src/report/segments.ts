/**
 * Cuts a document text into runs for highlighting: each run is covered by the same set of field
 * spans (each field contributes its best span). Overlapping spans split into several runs, so the
 * browser only has to wrap runs, never nest or reorder them. Offsets are UTF-16, as in `Span`.
 */
import type { FieldReport, FieldStatus } from "../ground/index.js";

export interface Segment {
  readonly text: string;
  /** Fields whose span covers this run (empty for plain text). */
  readonly fields: readonly { readonly pointer: string; readonly status: FieldStatus }[];
}

export function highlightSegments(text: string, fields: readonly FieldReport[]): Segment[] {
  const spans = fields.flatMap((f) => {
    const span = f.best ?? f.spans[0];
    // A span that does not fit this text (a stale text map) is left out rather than mis-drawn.
    if (!span || span.start < 0 || span.end > text.length || span.start >= span.end) return [];
    return [{ start: span.start, end: span.end, field: { pointer: f.pointer, status: f.status } }];
  });
  const cuts = [...new Set([0, text.length, ...spans.flatMap((s) => [s.start, s.end])])].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i]!, cuts[i + 1]!];
    const covering = spans.filter((s) => s.start <= from && s.end >= to).map((s) => s.field);
    const last = segments[segments.length - 1];
    if (covering.length === 0 && last?.fields.length === 0) {
      segments[segments.length - 1] = { text: last.text + text.slice(from, to), fields: [] };
    } else {
      segments.push({ text: text.slice(from, to), fields: covering });
    }
  }
  return segments;
}
