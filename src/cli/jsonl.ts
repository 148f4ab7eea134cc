/**
 * JSON Lines plumbing: a byte-exact line reader (it reports whether each line ended with a newline
 * and where it ends in bytes, which resume needs to cut a torn last line), a count of the lines a
 * file holds (the progress bar's total), and an appender that hands every line to the kernel the
 * moment it is written, so a SIGKILL loses at most the line being written.
 */
import { closeSync, createReadStream, fsyncSync, openSync, writeSync } from "node:fs";

export interface Line {
  /** 1-based line number. */
  readonly number: number;
  /** The line without its "\n" (and without a "\r" before it). */
  readonly text: string;
  /** False for a last line that has no newline: possibly torn by a killed writer. */
  readonly terminated: boolean;
  /** Byte offset of the line's first byte. */
  readonly start: number;
}

const NEWLINE = 0x0a;

/** Splits a byte stream into lines. UTF-8 is decoded per whole line, so no character is split. */
export async function* readLines(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Line> {
  const decoder = new TextDecoder();
  let pending: Buffer[] = [];
  let number = 0;
  let offset = 0; // bytes consumed before the current chunk
  let lineStart = 0;
  const line = (parts: Buffer[], terminated: boolean): Line => {
    let text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    if (terminated && text.endsWith("\r")) text = text.slice(0, -1);
    return { number: ++number, text, terminated, start: lineStart };
  };
  for await (const piece of source) {
    const chunk = typeof piece === "string" ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      pending.push(chunk.subarray(from, nl));
      yield line(pending, true);
      pending = [];
      from = nl + 1;
      lineStart = offset + from;
    }
    if (from < chunk.length) pending.push(Buffer.from(chunk.subarray(from))); // copy: stream chunks may be reused
    offset += chunk.length;
  }
  if (pending.length > 0) yield line(pending, false);
}

/** Lines of a file holding something other than whitespace (blank lines are not documents). */
export async function countContentLines(path: string): Promise<number> {
  let count = 0;
  let hasContent = false;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
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
