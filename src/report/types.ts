/**
 * What the HTML grounding report takes: one entry per document, shaped like `extractMany`'s
 * `BatchResult` (so its results can be passed as they are) and like the CLI's output lines.
 */
import type { FieldReport } from "../ground/index.js";
import type { Issue } from "../validate/index.js";

/** The parts of an extraction result the report shows. `ExtractResult` satisfies it. */
export interface ReportResult {
  readonly ok: boolean;
  readonly data: unknown;
  /** The parsed value when `data` is null (shown instead of it). */
  readonly partial?: unknown;
  readonly fields: readonly FieldReport[];
  readonly issues?: readonly Pick<Issue, "pointer" | "message">[];
}

/** One document of the HTML report: its id, input position, and result or error (extractMany's results fit). */
export interface ReportEntry {
  readonly id: string | number;
  /** 0-based input position; the key of the document's text in `texts`. */
  readonly index: number;
  readonly result?: ReportResult;
  readonly error?: { readonly message: string; readonly code?: string };
}

/** Document texts by entry index: an array (texts[index]) or a map. */
export type ReportTexts = readonly string[] | ReadonlyMap<number, string>;

/** HTML report options: title and page size. */
export interface ReportOptions {
  /** Page title and heading (default "pocket-extract grounding report"). */
  readonly title?: string;
  /** Documents per page (default 50). */
  readonly pageSize?: number;
}
