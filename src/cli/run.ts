/**
 * `pocket-extract run`: JSONL in, JSONL out. Documents stream from the input through
 * `extractMany`; each result (or typed error) is appended to the output the moment it completes.
 * On the first SIGINT/SIGTERM no new document is started and the in-flight ones finish; on the
 * second they are abandoned (not written, so --resume redoes them). `--resume` skips the input
 * lines the output already holds, keyed by line number and checked against the digest of the line
 * each record was made from, so a changed input is refused instead of silently misaligned. The
 * output is locked for the run; the files named must be distinct and the input a regular file.
 */
import { existsSync } from "node:fs";
import { writeFile, type FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";
import { FileError, PocketExtractError } from "../errors.js";
import { createExtractor, type BatchInput, type Extractor } from "../extract/index.js";
import { ExtractorPool } from "../pool/index.js";
import {
  JsonlAppender,
  countContentLines,
  errorRecord,
  parseInputLine,
  parseRecord,
  readLines,
  recordOf,
  type OutputRecord,
  type RecordKey,
} from "../records/index.js";
import { writeReport, type ReportEntry } from "../report/index.js";
import type { RunArgs } from "./args.js";
import { fileErrorOf, openRegularFile, withFileErrors } from "./files.js";
import type { CliIo, StopSignal } from "./io.js";
import { lockOutput } from "./lock.js";
import { assertDistinctFiles } from "./paths.js";
import { Progress } from "./progress.js";
import { MAX_RECORD_BYTES, readPriorOutput } from "./resume.js";
import { loadSchema } from "./schema-loader.js";
import { SummaryBuilder, formatSummary } from "./summary.js";
import { UsageError } from "./usage-error.js";
import { grammarCacheOptions } from "./cache-dir.js";

const STOP = Symbol("stop");

export async function runCommand(args: RunArgs, io: CliIo): Promise<number> {
  const started = performance.now();
  const { schema } = await loadSchema(args.schema);
  if (args.input === "-" && !io.stdin) throw new UsageError("--input: no stdin to read");
  assertDistinctFiles([
    ...(args.input === "-" ? [] : [{ role: "--input", path: args.input }]),
    { role: "--output", path: args.output },
    ...(args.report ? [{ role: "--report", path: args.report }] : []),
    ...(args.summaryJson ? [{ role: "--summary-json", path: args.summaryJson }] : []),
  ]);
  const input = args.input === "-" ? undefined : await openRegularFile(args.input, "--input");
  try {
    if (existsSync(args.output)) {
      await (await openRegularFile(args.output, "--output")).close(); // before the lock: no lock file beside a device
      if (!args.resume) throw new FileError("FILE_EXISTS", args.output, "--output: already exists: pass --resume to continue it, or remove it");
    }
    const lock = lockOutput(args.output);
    try {
      return await runLocked(args, io, schema, input, started);
    } finally {
      lock.release();
    }
  } finally {
    await input?.close();
  }
}

/** The run proper, with the output locked and the input (unless stdin) open. */
async function runLocked(args: RunArgs, io: CliIo, schema: unknown, input: FileHandle | undefined, started: number): Promise<number> {
  const summary = new SummaryBuilder();
  const prior = args.resume ? await readPriorOutput(args.output, (r) => summary.add(r, true)) : undefined;
  if (prior && prior.truncatedBytes > 0 && !args.quiet) {
    io.stderr.write(`--resume: removed a torn last line (${prior.truncatedBytes} bytes) from ${args.output}; that document is redone\n`);
  }
  const extractors = await openExtractors(args, io);
  const extractor = extractors[0]!;
  // One engine: documents in flight share it. Several: a pool, one document per engine at a time.
  const runner = extractors.length === 1 ? extractor : new ExtractorPool(extractors, { maxWaiting: args.concurrency });
  try {
    extractor.compile(schema); // a schema error ends the run here, before the output is touched
    const setupMs = performance.now() - started;
    const batchStarted = performance.now();
    const batch = await extractAll(args, io, input, runner, schema, summary, prior?.done ?? new Map());
    const batchMs = performance.now() - batchStarted;
    const result = summary.build({ setupMs, batchMs }, batch.signal);
    const exitCode = batch.signal ? exitCodeOf(batch.signal) : summary.anyFailed ? 1 : 0;
    if (!args.quiet) io.stderr.write(formatSummary(result));
    const resultsAreSafe = { DISK_FULL: `free some space; the results are complete in ${args.output}` };
    if (args.summaryJson) {
      const path = args.summaryJson;
      await withFileErrors("--summary-json", path, () => writeFile(path, `${JSON.stringify({ ...result, exitCode }, null, 2)}\n`), resultsAreSafe);
    }
    // Last: the report covers the whole output file, earlier runs' lines included.
    if (args.report) {
      const path = args.report;
      const entries = await readOutput(args.output);
      await withFileErrors("--report", path, () => writeReport(entries, batch.texts, path), resultsAreSafe);
    }
    return exitCode;
  } finally {
    if (!io.engine) await Promise.all(extractors.map((e) => e.dispose()));
  }
}

/** --engines extractors: engines loaded from --model, or extractors over the injected engine. */
async function openExtractors(args: RunArgs, io: CliIo): Promise<Extractor[]> {
  const extractors: Extractor[] = [];
  try {
    for (let i = 0; i < args.engines; i++) {
      const cache = grammarCacheOptions(args.cacheDir, io);
      extractors.push(io.engine ? await createExtractor({ engine: io.engine, ...cache }) : await createExtractor({ model: args.model!, threads: args.threads, contextLength: args.contextLength, ...cache }));
    }
  } catch (err) {
    if (!io.engine) await Promise.all(extractors.map((e) => e.dispose()));
    throw err;
  }
  return extractors;
}

function exitCodeOf(signal: StopSignal): number {
  return signal === "SIGINT" ? 130 : 143;
}

/** Runs the batch; returns the signal that cut it short (null when the input was exhausted). */
async function extractAll(
  args: RunArgs,
  io: CliIo,
  input: FileHandle | undefined,
  extractor: Pick<Extractor, "extractMany">,
  schema: unknown,
  summary: SummaryBuilder,
  done: ReadonlyMap<number, RecordKey>,
): Promise<{ signal: StopSignal | null; texts: Map<number, string> }> {
  const total = input ? await countContentLines(input.createReadStream({ start: 0, autoClose: false })) : undefined;
  const progress = !args.quiet && io.stderr.isTTY ? new Progress(io.stderr, total, summary.total) : undefined;
  const say = (message: string): void => {
    if (progress) progress.note(message);
    else if (!args.quiet) io.stderr.write(`${message}\n`);
  };
  const out = await withFileErrors("--output", args.output, () => new JsonlAppender(args.output, args.resume ? "append" : "create"));
  const write = (record: OutputRecord): void => {
    try {
      out.append(record);
    } catch (err) {
      throw fileErrorOf(err, "--output", args.output, { DISK_FULL: "free some space, then rerun with --resume to finish" }) ?? err;
    }
    summary.add(record, false);
    progress?.update(summary.total, summary.documents);
  };
  // Texts by input index, kept only for the report.
  const texts = new Map<number, string>();
  const inFlight = new Map<number, RecordKey>(); // line -> its key
  const abandon = new AbortController();
  let stopSignal: StopSignal | undefined;
  let requestStop = (): void => {};
  const stopped = new Promise<typeof STOP>((resolve) => (requestStop = () => resolve(STOP)));
  let exhausted = false;
  let fatal: Error | undefined;
  const unsubscribe = io.signals?.subscribe((signal) => {
    if (stopSignal === undefined) {
      stopSignal = signal;
      requestStop();
      say(`${signal}: finishing ${inFlight.size} in-flight document(s); send it again to abandon them`);
    } else if (!abandon.signal.aborted) {
      say(`${signal}: abandoning ${inFlight.size} in-flight document(s); --resume will redo them`);
      abandon.abort();
    }
  });

  const stream: Readable = input ? input.createReadStream({ start: 0, autoClose: false }) : io.stdin!;
  const lines = readLines(stream, { maxLineBytes: args.maxLineBytes });
  let lastLine = 0;
  const stopOn = (error: Error): void => {
    fatal = error;
    abandon.abort();
  };
  async function* documents(): AsyncGenerator<BatchInput> {
    for (;;) {
      const pending = lines.next();
      pending.catch(() => undefined); // a read abandoned by a stop may reject when the stream is destroyed
      const next = await Promise.race([pending, stopped]);
      if (next === STOP) return;
      if (next.done) {
        exhausted = true;
        const beyond = [...done.keys()].filter((n) => n > lastLine).sort((a, b) => a - b)[0];
        if (beyond !== undefined) stopOn(resumeMismatch(args, `the input has only ${lastLine} lines, but the output holds a result for line ${beyond}`));
        return;
      }
      const line = next.value;
      lastLine = line.number;
      const earlier = done.get(line.number);
      if (earlier !== undefined) {
        if (earlier.inputSha256 === line.sha256) continue;
        stopOn(resumeMismatch(args, `input line ${line.number} differs from the line that output record (id ${JSON.stringify(earlier.id)}) was made from`));
        return;
      }
      const key = (id: string | number): RecordKey => ({ line: line.number, id, inputSha256: line.sha256 });
      if (line.oversized) {
        const message = `line ${line.number} is ${line.bytes} bytes, over --max-line-bytes ${args.maxLineBytes}; it was skipped unread`;
        write(errorRecord(key(line.number), "LINE_TOO_LONG", message));
        continue;
      }
      const parsed = parseInputLine(line.text, line.number, args);
      if (parsed.kind === "blank") continue;
      if (parsed.kind === "invalid") {
        write(errorRecord(key(parsed.id), "INPUT_INVALID", parsed.message));
        continue;
      }
      if (args.report) texts.set(line.number - 1, parsed.text);
      inFlight.set(line.number, key(parsed.id));
      yield { id: line.number, text: parsed.text };
    }
  }

  try {
    const batch = extractor.extractMany(schema, documents(), { ...args.extraction, concurrency: args.concurrency, maxTokens: args.maxTokens, maxTextBytes: args.maxTextBytes, grounding: args.grounding, signal: abandon.signal });
    for await (const result of batch) {
      const line = result.id as number;
      const key = inFlight.get(line)!;
      inFlight.delete(line);
      // An abandoned document is not done: leaving it out of the output makes --resume redo it.
      if (abandon.signal.aborted && result.error instanceof PocketExtractError && result.error.code === "ABORTED") continue;
      write(recordOf(key, result));
    }
  } finally {
    unsubscribe?.();
    stream.destroy();
    out.close();
    progress?.update(summary.total, summary.documents, true);
    progress?.finish();
  }
  if (fatal) throw fatal;
  return { signal: stopSignal !== undefined && !exhausted ? stopSignal : null, texts };
}

function resumeMismatch(args: RunArgs, what: string): FileError {
  return new FileError(
    "RESUME_MISMATCH",
    args.input,
    `--resume: ${what}: this is not the input ${args.output} was made from; give that input, or start a new --output`,
  );
}

/** Every record of the output file, as report entries. */
async function readOutput(path: string): Promise<ReportEntry[]> {
  const entries: ReportEntry[] = [];
  const handle = await openRegularFile(path, "--output");
  try {
    for await (const line of readLines(handle.createReadStream({ autoClose: false }), { maxLineBytes: MAX_RECORD_BYTES })) {
      const r = parseRecord(line.text);
      if (!r) continue;
      entries.push(r.error ? { id: r.id, index: r.line - 1, error: r.error } : { id: r.id, index: r.line - 1, result: r });
    }
  } finally {
    await handle.close();
  }
  return entries;
}
