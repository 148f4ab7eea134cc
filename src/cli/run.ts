/**
 * `pocket-extract run`: JSONL in, JSONL out. Documents stream from the input through
 * `extractMany`; each result (or typed error) is appended to the output the moment it completes.
 * On the first SIGINT/SIGTERM no new document is started and the in-flight ones finish; on the
 * second they are abandoned (not written, so --resume redoes them). `--resume` skips the input
 * lines the output already holds, keyed by line number and checked against the id, so a changed
 * input is refused instead of silently misaligned.
 */
import { createReadStream, existsSync } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { PocketExtractError } from "../errors.js";
import { createExtractor, type BatchInput, type Extractor } from "../extract/index.js";
import { writeReport, type ReportEntry } from "../report/index.js";
import { UsageError, type RunArgs } from "./args.js";
import type { CliIo, StopSignal } from "./io.js";
import { JsonlAppender, countContentLines, readLines } from "./jsonl.js";
import { Progress } from "./progress.js";
import { errorRecord, parseInputLine, parseRecord, recordOf, type OutputRecord } from "./record.js";
import { readPriorOutput } from "./resume.js";
import { loadSchema } from "./schema-loader.js";
import { SummaryBuilder, formatSummary } from "./summary.js";

const STOP = Symbol("stop");

export async function runCommand(args: RunArgs, io: CliIo): Promise<number> {
  const started = performance.now();
  const { schema } = await loadSchema(args.schema);
  if (args.input === "-" ? !io.stdin : !(await stat(args.input).catch(() => undefined))?.isFile()) {
    throw new UsageError(`--input: ${args.input === "-" ? "no stdin to read" : `${args.input}: no such file`}`);
  }
  if (!args.resume && existsSync(args.output)) throw new UsageError(`--output: ${args.output} exists: pass --resume to continue it, or remove it`);
  const summary = new SummaryBuilder();
  const prior = args.resume ? await readPriorOutput(args.output, (r) => summary.add(r, true)) : undefined;
  if (prior && prior.truncatedBytes > 0 && !args.quiet) {
    io.stderr.write(`--resume: removed a torn last line (${prior.truncatedBytes} bytes) from ${args.output}; that document is redone\n`);
  }
  const extractor = io.engine
    ? await createExtractor({ engine: io.engine })
    : await createExtractor({ model: args.model!, threads: args.threads, contextLength: args.contextLength });
  try {
    extractor.compile(schema); // a schema error ends the run here, before the output is touched
    const setupMs = performance.now() - started;
    const batchStarted = performance.now();
    const batch = await extractAll(args, io, extractor, schema, summary, prior?.done ?? new Map());
    const batchMs = performance.now() - batchStarted;
    const result = summary.build({ setupMs, batchMs }, batch.signal);
    const exitCode = batch.signal ? exitCodeOf(batch.signal) : summary.anyFailed ? 1 : 0;
    if (!args.quiet) io.stderr.write(formatSummary(result));
    if (args.summaryJson) await writeFile(args.summaryJson, `${JSON.stringify({ ...result, exitCode }, null, 2)}\n`);
    // Last: the report covers the whole output file, earlier runs' lines included.
    if (args.report) await writeReport(await readOutput(args.output), batch.texts, args.report);
    return exitCode;
  } finally {
    if (!io.engine) await extractor.dispose();
  }
}

function exitCodeOf(signal: StopSignal): number {
  return signal === "SIGINT" ? 130 : 143;
}

/** Runs the batch; returns the signal that cut it short (null when the input was exhausted). */
async function extractAll(
  args: RunArgs,
  io: CliIo,
  extractor: Extractor,
  schema: unknown,
  summary: SummaryBuilder,
  done: ReadonlyMap<number, string | number>,
): Promise<{ signal: StopSignal | null; texts: Map<number, string> }> {
  const total = args.input === "-" ? undefined : await countContentLines(args.input);
  const progress = !args.quiet && io.stderr.isTTY ? new Progress(io.stderr, total, summary.total) : undefined;
  const say = (message: string): void => {
    if (progress) progress.note(message);
    else if (!args.quiet) io.stderr.write(`${message}\n`);
  };
  const out = new JsonlAppender(args.output, args.resume ? "append" : "create");
  const write = (record: OutputRecord): void => {
    out.append(record);
    summary.add(record, false);
    progress?.update(summary.total, summary.documents);
  };
  // Texts by input index, kept only for the report.
  const texts = new Map<number, string>();
  const inFlight = new Map<number, string | number>(); // line -> id
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

  const stream: Readable = args.input === "-" ? io.stdin! : createReadStream(args.input);
  const lines = readLines(stream);
  async function* documents(): AsyncGenerator<BatchInput> {
    for (;;) {
      const pending = lines.next();
      pending.catch(() => undefined); // a read abandoned by a stop may reject when the stream is destroyed
      const next = await Promise.race([pending, stopped]);
      if (next === STOP) return;
      if (next.done) {
        exhausted = true;
        return;
      }
      const line = next.value;
      const input = parseInputLine(line.text, line.number, args);
      if (input.kind === "blank") continue;
      if (args.report && input.kind === "document") texts.set(line.number - 1, input.text);
      const earlier = done.get(line.number);
      if (earlier !== undefined) {
        if (earlier === input.id) continue;
        fatal = new UsageError(
          `--resume: input line ${line.number} has id ${JSON.stringify(input.id)} but ${args.output} holds id ${JSON.stringify(earlier)} for it: the input changed since that output was written`,
        );
        abandon.abort();
        return;
      }
      if (input.kind === "invalid") {
        write(errorRecord(line.number, input.id, "INPUT_INVALID", input.message));
        continue;
      }
      inFlight.set(line.number, input.id);
      yield { id: line.number, text: input.text };
    }
  }

  try {
    const batch = extractor.extractMany(schema, documents(), { concurrency: args.concurrency, maxTokens: args.maxTokens, signal: abandon.signal });
    for await (const result of batch) {
      const line = result.id as number;
      const id = inFlight.get(line)!;
      inFlight.delete(line);
      // An abandoned document is not done: leaving it out of the output makes --resume redo it.
      if (abandon.signal.aborted && result.error instanceof PocketExtractError && result.error.code === "ABORTED") continue;
      write(recordOf(line, id, result));
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

/** Every record of the output file, as report entries. */
async function readOutput(path: string): Promise<ReportEntry[]> {
  const entries: ReportEntry[] = [];
  for await (const line of readLines(createReadStream(path))) {
    const r = parseRecord(line.text);
    if (!r) continue;
    entries.push(r.error ? { id: r.id, index: r.line - 1, error: r.error } : { id: r.id, index: r.line - 1, result: r });
  }
  return entries;
}
