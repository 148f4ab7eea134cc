/**
 * JSON Lines plumbing: a byte-exact line reader (it reports whether each line ended with a newline
 * and where it ends in bytes, which resume needs to cut a torn last line), a count of the lines a
 * file holds (the progress bar's total), and an appender that hands every line to the kernel the
 * moment it is written, so a SIGKILL loses at most the line being written.
 */
import { createHash } from "node:crypto";
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

export interface Line {
  /** 1-based line number. */
  readonly number: number;
  /** The line without its "\n" (and without a "\r" before it); "" when `oversized`. */
  readonly text: string;
  /** False for a last line that has no newline: possibly torn by a killed writer. */
  readonly terminated: boolean;
  /** Byte offset of the line's first byte. */
  readonly start: number;
  /** Length of the line in bytes, without its newline. */
  readonly bytes: number;
  /** True when the line is longer than `maxLineBytes`: its bytes were counted (and digested), not kept. */
  readonly oversized: boolean;
  /** SHA-256 of the line's bytes without its newline, hex: what an output record is keyed on. */
  readonly sha256: string;
}

export interface ReadLinesOptions {
  /** Longest line kept in memory, in bytes; a longer one is streamed past and yielded `oversized`. */
  readonly maxLineBytes?: number;
}

/**
 * Default `--max-line-bytes` for a text limit: room for a text at the limit with every byte
 * escaped (`\u00XX`, 6 bytes) plus the id and the JSON around it. A longer line cannot hold an
 * acceptable text, so it is refused unread; a shorter one is parsed and its text checked exactly.
 */
export function defaultMaxLineBytes(maxTextBytes: number): number {
  return 6 * maxTextBytes + 4096;
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines. UTF-8 is decoded per whole line, so no character is split. A
 * line over `maxLineBytes` is never held whole: its bytes are dropped as they arrive, so memory
 * stays bounded by the limit whatever the input.
 */
export async function* readLines(source: AsyncIterable<Uint8Array | string>, options: ReadLinesOptions = {}): AsyncGenerator<Line> {
  const maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  const decoder = new TextDecoder();
  let pending: Buffer[] = [];
  let bytes = 0; // of the current line
  let hash = createHash("sha256");
  let number = 0;
  let offset = 0; // bytes consumed before the current chunk
  let lineStart = 0;
  const take = (part: Buffer): void => {
    bytes += part.length;
    hash.update(part);
    if (bytes > maxLineBytes) pending = [];
    else if (part.length > 0) pending.push(part);
  };
  const line = (terminated: boolean): Line => {
    const oversized = bytes > maxLineBytes;
    let text = oversized ? "" : decoder.decode(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    if (terminated && text.endsWith("\r")) text = text.slice(0, -1);
    const result: Line = { number: ++number, text, terminated, start: lineStart, bytes, oversized, sha256: hash.digest("hex") };
    pending = [];
    bytes = 0;
    hash = createHash("sha256");
    return result;
  };
  for await (const piece of source) {
    const chunk = typeof piece === "string" ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      take(chunk.subarray(from, nl));
      yield line(true);
      from = nl + 1;
      lineStart = offset + from;
    }
    if (from < chunk.length) take(Buffer.from(chunk.subarray(from))); // copy: stream chunks may be reused
    offset += chunk.length;
  }
  if (bytes > 0) yield line(false);
}

/** Lines of a file holding something other than whitespace (blank lines are not documents). */
export async function countContentLines(source: AsyncIterable<Buffer>): Promise<number> {
  let count = 0;
  let hasContent = false;
  for await (const chunk of source) {
    for (const byte of chunk) {
      if (byte === NEWLINE) {
        if (hasContent) count++;
        hasContent = false;
      } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) {
        hasContent = true;
      }
    }
  }
  return hasContent ? count + 1 : count;
}

/**
 * Appends one JSON value per line. `writeSync` puts each complete line in the kernel's page cache
 * in one call, which survives the process being killed; `close` also fsyncs for power loss.
 * Opening with "wx" (a fresh run) refuses to clobber an existing file.
 */
export class JsonlAppender {
  private fd: number | undefined;

  constructor(path: string, mode: "append" | "create") {
    this.fd = openSync(path, mode === "append" ? "a" : "wx");
  }

  append(value: unknown): void {
    if (this.fd === undefined) throw new Error("JsonlAppender is closed");
    const bytes = Buffer.from(`${JSON.stringify(value)}\n`);
    // A regular file takes the whole line in one write; loop anyway, a short write is legal.
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
  }

  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}
