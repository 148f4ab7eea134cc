/**
 * The HTML grounding report: `writeReport(entries, texts, path)` (or `renderReport` for the
 * string), the entry shape it reads (extractMany's results fit), and the document status rule.
 */
export { renderReport, writeReport } from "./html.js";
export { highlightSegments, type Segment } from "./segments.js";
export { DOCUMENT_STATUSES, FIELD_STATUSES, documentStatus, type DocumentStatus } from "./status.js";
export type { ReportEntry, ReportOptions, ReportResult, ReportTexts } from "./types.js";
