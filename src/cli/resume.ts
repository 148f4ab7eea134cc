/**
 * `--resume`: reads an existing output file and returns the input lines it already holds. A last
 * line without a newline was torn by a killed writer (SIGKILL in the middle of a write, or a full
 * disk): the file is truncated back to the previous newline and that document is redone, so the
 * resumed output has no partial line, no duplicate and no gap. Any other unreadable line means the
 * file is not (only) ours: that is refused rather than guessed around.
 */
import { createReadStream, existsSync, statSync, truncateSync } from "node:fs";
import { UsageError } from "./args.js";
import { readLines } from "./jsonl.js";
import { parseRecord, type OutputRecord } from "./record.js";

export interface PriorOutput {
  /** Input line number -> id, for every line the output already holds. */
  readonly done: ReadonlyMap<number, string | number>;
  /** Bytes cut off the end (a torn line); 0 when the file was whole. */
  readonly truncatedBytes: number;
}

/** Reads `path` (absent: nothing done), calling `onRecord` for each record it holds. */
export async function readPriorOutput(path: string, onRecord: (record: OutputRecord) => void): Promise<PriorOutput> {
  const done = new Map<number, string | number>();
  if (!existsSync(path)) return { done, truncatedBytes: 0 };
  let tornAt: number | undefined;
  for await (const line of readLines(createReadStream(path))) {
    if (!line.terminated) {
      tornAt = line.start;
      break;
    }
    const record = parseRecord(line.text);
    if (!record) throw new UsageError(`--resume: ${path}:${line.number} is not a pocket-extract output line; refusing to continue this file`);
    if (done.has(record.line)) throw new UsageError(`--resume: ${path}:${line.number} repeats input line ${record.line}; refusing to continue this file`);
    done.set(record.line, record.id);
    onRecord(record);
  }
  if (tornAt === undefined) return { done, truncatedBytes: 0 };
  const truncatedBytes = statSync(path).size - tornAt;
  truncateSync(path, tornAt);
  return { done, truncatedBytes };
}
