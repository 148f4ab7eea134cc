/**
 * The HTML grounding report: one self-contained file (inline CSS, inline script, data embedded as
 * JSON) showing, per document, the text with each value's source span highlighted and colored by
 * field status, the extracted JSON and the field table beside it, and a summary on top. The page
 * renders 50 documents at a time with search and a status filter, so thousands of documents stay
 * usable.
 */
import { writeFile } from "node:fs/promises";
import { CLIENT_SCRIPT } from "./client.js";
import { highlightSegments } from "./segments.js";
import { DOCUMENT_STATUSES, FIELD_STATUSES, documentStatus, type DocumentStatus } from "./status.js";
import type { ReportEntry, ReportOptions, ReportTexts } from "./types.js";
import type { FieldStatus } from "../ground/index.js";

/** A document as the page script reads it (short keys: the payload repeats them thousands of times). */
interface PageDoc {
  readonly id: string | number;
  readonly status: DocumentStatus;
  /** [text, status to color, pointers] per run; status and pointers are empty for plain text. */
  readonly segs: readonly (readonly [string, FieldStatus | "", string])[];
  readonly json?: string;
  readonly fields: readonly (readonly [string, FieldStatus, string])[];
  readonly issues: readonly (readonly [string, string])[];
  readonly error?: string;
}

/** When runs overlap, the color shown is the most alarming status among them. */
const COLOR_PRIORITY: readonly FieldStatus[] = ["invalid", "fabricated", "inferred", "found", "missing"];

/** Renders the report as an HTML string. */
export function renderReport(entries: Iterable<ReportEntry>, texts: ReportTexts, options: ReportOptions = {}): string {
  const title = options.title ?? "pocket-extract grounding report";
  const docCounts = new Map<DocumentStatus, number>(DOCUMENT_STATUSES.map((s) => [s, 0]));
  const fieldCounts = new Map<FieldStatus, number>(FIELD_STATUSES.map((s) => [s, 0]));
  const docs: PageDoc[] = [];
  for (const entry of entries) {
    const doc = pageDoc(entry, textOf(texts, entry.index));
    docs.push(doc);
    docCounts.set(doc.status, docCounts.get(doc.status)! + 1);
    for (const f of entry.result?.fields ?? []) fieldCounts.set(f.status, fieldCounts.get(f.status)! + 1);
  }
  const payload = JSON.stringify({ pageSize: options.pageSize ?? 50, docs }).replace(/</g, "\\u003c");
  const counts = <S extends string>(m: Map<S, number>): string =>
    [...m].map(([s, n]) => `<span class="count st-${s}"><b>${n}</b> ${s}</span>`).join(" ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="top">
<h1>${escapeHtml(title)}</h1>
<section id="summary">
<div id="doc-counts"><span class="label">documents</span> <b id="doc-total">${docs.length}</b> ${counts(docCounts)}</div>
<div id="field-counts"><span class="label">fields</span> ${counts(fieldCounts)}</div>
<div class="legend"><span class="label">highlights</span> ${FIELD_STATUSES.filter((s) => s !== "missing").map((s) => `<mark class="hl st-${s}">${s}</mark>`).join(" ")}</div>
</section>
<nav class="controls">
<input id="search" type="search" placeholder="search id, text, values..." autocomplete="off">
<select id="status-filter"><option value="all">all statuses</option>${DOCUMENT_STATUSES.map((s) => `<option value="${s}">${s}</option>`).join("")}</select>
<button id="prev" type="button">&larr; prev</button><span id="page-info"></span><button id="next" type="button">next &rarr;</button>
</nav>
</header>
<main id="docs"></main>
<script id="report-data" type="application/json">${payload}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

/** Writes the report to `path` (see `renderReport`). */
export async function writeReport(entries: Iterable<ReportEntry>, texts: ReportTexts, path: string, options: ReportOptions = {}): Promise<void> {
  await writeFile(path, renderReport(entries, texts, options));
}

function textOf(texts: ReportTexts, index: number): string {
  return (Array.isArray(texts) ? (texts as readonly string[])[index] : (texts as ReadonlyMap<number, string>).get(index)) ?? "";
}

function pageDoc(entry: ReportEntry, text: string): PageDoc {
  const { result, error } = entry;
  const fields = result?.fields ?? [];
  const segs = highlightSegments(text, fields).map((s) => {
    const color = COLOR_PRIORITY.find((p) => s.fields.some((f) => f.status === p)) ?? "";
    return [s.text, color, s.fields.map((f) => f.pointer).join(" ")] as const;
  });
  const value = result ? (result.ok ? result.data : (result.partial ?? result.data)) : undefined;
  return {
    id: entry.id,
    status: documentStatus(entry),
    segs,
    ...(value === undefined ? {} : { json: JSON.stringify(value, null, 2) }),
    fields: fields.map((f) => [f.pointer, f.status, f.value === undefined ? "" : JSON.stringify(f.value)] as const),
    issues: (result?.issues ?? []).map((i) => [i.pointer, i.message] as const),
    ...(error ? { error: error.code ? `${error.code}: ${error.message}` : error.message } : {}),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSS = `
:root { --found: #bfe8c4; --inferred: #c9dcf5; --fabricated: #f7c0c0; --invalid: #f5d38f; --missing: #e4e4e4; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, sans-serif; color: #222; background: #fafafa; }
.top { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: 8px 16px; z-index: 1; }
h1 { font-size: 18px; margin: 0 0 4px; }
#summary div { margin: 2px 0; }
.label { display: inline-block; min-width: 80px; color: #666; }
.count { margin-right: 10px; }
.controls { display: flex; gap: 8px; align-items: center; margin-top: 6px; }
#search { flex: 1; max-width: 420px; padding: 4px 8px; }
#docs { padding: 8px 16px; }
.doc { background: #fff; border: 1px solid #ddd; border-left: 4px solid #999; border-radius: 4px; margin: 10px 0; }
.doc.st-ok { border-left-color: #3a9d4a; } .doc.st-missing { border-left-color: #999; }
.doc.st-fabricated { border-left-color: #d33; } .doc.st-invalid { border-left-color: #d90; } .doc.st-failed { border-left-color: #600; }
.doc-head { display: flex; gap: 8px; padding: 4px 10px; border-bottom: 1px solid #eee; }
.doc-id { font-weight: 600; }
.badge { border-radius: 8px; padding: 0 8px; background: #eee; font-size: 12px; }
.badge.st-ok { background: var(--found); } .badge.st-fabricated, .badge.st-failed { background: var(--fabricated); } .badge.st-invalid { background: var(--invalid); }
.doc-body { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 12px; padding: 8px 10px; }
.doc-text { white-space: pre-wrap; word-break: break-word; }
mark.hl { border-radius: 2px; padding: 0 1px; }
.st-found.hl { background: var(--found); } .st-inferred.hl { background: var(--inferred); }
.st-fabricated.hl { background: var(--fabricated); } .st-invalid.hl { background: var(--invalid); }
.json { margin: 0 0 6px; padding: 6px; background: #f4f4f4; font-size: 12px; white-space: pre-wrap; word-break: break-word; }
.fields { border-collapse: collapse; font-size: 12px; width: 100%; }
.fields td { border-top: 1px solid #eee; padding: 1px 4px; vertical-align: top; word-break: break-word; }
.field.st-missing .fst { color: #777; } .field.st-fabricated .fst { color: #c00; font-weight: 600; } .field.st-invalid .fst { color: #b70; font-weight: 600; }
.error { color: #900; font-family: monospace; white-space: pre-wrap; }
.issue { color: #a60; font-size: 12px; }
`;
