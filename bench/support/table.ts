/** Plain-text tables and number formatting for benchmark output. */

/** Columns padded to their widest cell; the first column left-aligned, the others right-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A number with sensible precision for a table cell ("-" for NaN). */
export function fmt(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return "-";
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toFixed(d);
}

export function pct(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Ratio theirs/ours as "12.3x" ("-" when either side is missing). */
export function ratio(theirs: number, ours: number): string {
  return Number.isFinite(theirs) && Number.isFinite(ours) && ours > 0 ? `${(theirs / ours).toFixed(2)}x` : "-";
}

export function megabytes(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(2)} MB` : "-";
}
