/**
 * The progress line on stderr: documents done / total (when the input is a file), docs/s and ETA
 * of this run, and the counts by document status. Redrawn in place at most ten times a second;
 * only used when stderr is a terminal and --quiet is not given, so logs and pipes stay clean.
 */
import type { DocumentStatus } from "../report/index.js";

export interface ProgressStream {
  write(chunk: string): unknown;
  readonly columns?: number;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 20;

export class Progress {
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;

  /** `baseline`: documents already done before this run (resume), left out of the rate. */
  constructor(
    private readonly stream: ProgressStream,
    private readonly total: number | undefined,
    private readonly baseline: number,
  ) {}

  update(done: number, counts: Readonly<Record<DocumentStatus, number>>, force = false): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? (done - this.baseline) / seconds : 0;
    const parts: string[] = [];
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, done / this.total);
      const filled = Math.round(fraction * BAR_WIDTH);
      parts.push(`[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${done}/${this.total} ${Math.floor(fraction * 100)}%`);
    } else {
      parts.push(`${done} docs`);
    }
    parts.push(`${rate.toFixed(2)} docs/s`);
    if (this.total !== undefined && rate > 0) parts.push(`ETA ${formatDuration(Math.max(0, this.total - done) / rate)}`);
    parts.push(`ok ${counts.ok} missing ${counts.missing} fabricated ${counts.fabricated} invalid ${counts.invalid} failed ${counts.failed}`);
    let line = parts.join("  ");
    const width = this.stream.columns;
    if (width !== undefined && line.length >= width) line = line.slice(0, width - 1);
    this.stream.write(`\r\x1b[2K${line}`);
    this.drawn = true;
  }

  /** A message on its own line (the progress line is redrawn on the next update). */
  note(message: string): void {
    this.stream.write(`${this.drawn ? "\r\x1b[2K" : ""}${message}\n`);
    this.lastDraw = 0;
  }

  /** Leaves the last progress line in place and moves to a fresh line. */
  finish(): void {
    if (this.drawn) this.stream.write("\n");
    this.drawn = false;
  }
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
