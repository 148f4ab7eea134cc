/**
 * `--resume`: reads an existing output file and returns the input lines it already holds, each
 * with the digest of the input line it was made from, so the run can check the input is the same
 * one (content, not just line numbers or ids). A last line without a newline was torn by a killed
 * writer (SIGKILL in the middle of a write, or a full disk): the file is truncated back to the
 * previous newline and that document is redone, so the resumed output has no partial line, no
 * duplicate and no gap. Any other unreadable line (or one longer than any record can be) means the
 * file is not (only) ours: that is refused rather than guessed around. Only a regular file is
 * read, so a device or a FIFO named as the output fails at once instead of streaming forever.
 */
import { truncate } from "node:fs/promises";
import { FileError } from "../errors.js";
import { openRegularFile, withFileErrors } from "./files.js";
import { parseRecord, readLines, type OutputRecord, type RecordKey } from "../records/index.js";

/** Longest output record read back; a longer line is not one of ours. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export interface PriorOutput {
  /** Input line number -> the record's key, for every line the output already holds. */
  readonly done: ReadonlyMap<number, RecordKey>;
  /** Bytes cut off the end (a torn line); 0 when the file was whole. */
  readonly truncatedBytes: number;
}

/** Reads `path` (absent: nothing done), calling `onRecord` for each record it holds. */
export async function readPriorOutput(path: string, onRecord: (record: OutputRecord) => void): Promise<PriorOutput> {
  const done = new Map<number, RecordKey>();
  const handle = await openRegularFile(path, "--output").catch((err: unknown) => {
    if (err instanceof FileError && err.code === "FILE_NOT_FOUND") return undefined;
    throw err;
  });
  if (!handle) return { done, truncatedBytes: 0 };
  const refuse = (line: number, why: string): FileError =>
    new FileError("RESUME_INVALID", path, `--resume: line ${line} ${why}; refusing to continue this file (remove it, or give another --output)`);
  let torn: { start: number; bytes: number } | undefined;
  try {
    for await (const line of readLines(handle.createReadStream({ autoClose: false }), { maxLineBytes: MAX_RECORD_BYTES })) {
      if (line.oversized) throw refuse(line.number, `is over ${MAX_RECORD_BYTES} bytes, longer than any pocket-extract record`);
      if (!line.terminated) {
        torn = { start: line.start, bytes: line.bytes };
        break;
      }
      const record = parseRecord(line.text);
      if (!record) throw refuse(line.number, "is not a pocket-extract output line (or was written by a version without input digests)");
      if (done.has(record.line)) throw refuse(line.number, `repeats input line ${record.line}`);
      done.set(record.line, { line: record.line, id: record.id, inputSha256: record.inputSha256 });
      onRecord(record);
    }
  } finally {
    await handle.close();
  }
  if (torn === undefined) return { done, truncatedBytes: 0 };
  await withFileErrors("--output", path, () => truncate(path, torn.start));
  return { done, truncatedBytes: torn.bytes };
}
