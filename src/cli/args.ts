/**
 * Command-line parsing for `pocket-extract` with node:util `parseArgs` (no extra dependency): the
 * commands, their options, the help text, and the checks that turn a bad command line into a
 * `UsageError` (exit code 2) before any model or file is touched.
 */
import { parseArgs } from "node:util";
import { DEFAULT_MAX_TEXT_BYTES, type ExtractOptions } from "../extract/index.js";
import { defaultMaxLineBytes } from "../records/index.js";
import type { GroundingOptions } from "../ground/index.js";
import { GROUNDING_HELP, GROUNDING_OPTION_NAMES, GROUNDING_OPTIONS, groundingFromArgs } from "./grounding-args.js";
import { UsageError } from "./usage-error.js";
import { EXTRACTION_HELP, EXTRACTION_OPTION_NAMES, EXTRACTION_OPTIONS, extractionFromArgs } from "./extraction-args.js";

export { UsageError };

export interface RunArgs {
  readonly command: "run";
  readonly schema: string;
  /** Undefined only when an engine is injected programmatically. */
  readonly model: string | undefined;
  /** A file path, or "-" for stdin. */
  readonly input: string;
  readonly output: string;
  readonly textField: string;
  readonly idField: string;
  readonly concurrency: number;
  /** Engines loaded from --model; more than one spread documents, and a long one's chunks, over them. */
  readonly engines: number;
  readonly maxTokens: number | undefined;
  readonly threads: number | undefined;
  readonly contextLength: number | undefined;
  /** Directory of serialized grammars (createExtractor's `cacheDir`). */
  readonly cacheDir: string | undefined;
  readonly resume: boolean;
  readonly report: string | undefined;
  readonly summaryJson: string | undefined;
  readonly quiet: boolean;
  /** Largest document text, UTF-8 bytes (the SDK's `maxTextBytes`); a longer one gets TEXT_TOO_LONG. */
  readonly maxTextBytes: number;
  /** Longest input line read; a longer one gets a LINE_TOO_LONG record, unread. */
  readonly maxLineBytes: number;
  readonly grounding: GroundingOptions;
  /** The extraction options given (extraction-args.ts: sampling, retries, prompt, long documents). */
  readonly extraction: ExtractOptions;
}

export interface InspectArgs {
  readonly command: "inspect";
  readonly schema: string;
  readonly text: string | undefined;
  readonly textFile: string | undefined;
}

export type CliArgs = RunArgs | InspectArgs | { readonly command: "help" } | { readonly command: "version" };

export const HELP = `pocket-extract: structured extraction with grammar-constrained decoding (MNN-Pocket-0.3B)

Usage:
  pocket-extract run --schema <file> --model <model> --input <file.jsonl|-> --output <file.jsonl> [options]
  pocket-extract inspect --schema <file> [--text <sample> | --text-file <file>]
  pocket-extract --help | --version

run: extract one JSON result per input line; results are appended to --output as they complete.
  --schema <file[#Export]>  Zod schema module (.ts/.mts/.js/.mjs/.cjs; the named export, else the
                            default export, else the only schema exported) or a JSON Schema .json file.
                            A module is EXECUTED: only give code you trust
  --model <path>            a .gguf file (llama.cpp) or an MNN model directory
  --input <file|->          JSONL input; "-" reads stdin. Each line: {"id": ..., "text": "..."} or a
                            JSON string. Blank lines are skipped.
  --output <file>           JSONL output, one line per input line (refuses to overwrite; see --resume);
                            locked for the run by <file>.lock
  --text-field <name>       input field holding the text (default: text)
  --id-field <name>         input field holding the id (default: id; absent -> the line number)
  --concurrency <n>         documents in flight (default: 1, or --engines)
  --engines <n>             engines to load, each running one document at a time; a long
                            document's chunks (--chunk-size) also run on the idle ones (default: 1)
  --max-tokens <n>          output token budget per document (default: 512)
  --threads <n>             engine CPU threads (default: the engine's choice)
  --context-length <n>      model context in tokens (default: the engine's)
  --cache-dir <dir>         keep compiled grammars (and the masks documents computed) in <dir>, so
                            the next run loads them instead of compiling (README, "Persisted grammars")
  --resume                  continue an interrupted run: keep --output, skip the lines it has
                            (each checked against the digest of its input line)
  --report <file.html>      write a self-contained HTML grounding report at the end
  --summary-json <file>     write the summary as JSON at the end
  --quiet                   no progress bar and no summary on stderr
  --max-text-bytes <n>      largest document text in UTF-8 bytes (default: 262144 = 256 KiB); a
                            longer one gets a TEXT_TOO_LONG error line, before any tokenizing
  --max-line-bytes <n>      longest input line read (default: 6 x --max-text-bytes + 4096, room for
                            a text at the limit fully escaped); a longer line is skipped unread
                            and gets a LINE_TOO_LONG error line
${EXTRACTION_HELP}${GROUNDING_HELP}
inspect: print the compile report (enforced / validated-after / annotation keywords), the grammar
(GBNF) and the prompt the model sees for a sample text.
  --schema <file[#Export]>  as for run
  --text <sample>           sample document text (default: a placeholder)
  --text-file <file>        read the sample text from a file

Exit codes:
  0    every document produced a valid result
  1    some documents failed (an error line, or a result that does not satisfy the schema)
  2    usage, setup or internal error (bad option, schema or model cannot be loaded, output exists
       without --resume); the run did not complete
  130  interrupted by SIGINT, 143 by SIGTERM (in-flight documents finished; rerun with --resume)

Examples:
  pocket-extract run --schema ./order.ts#Order --model ./pocket.gguf --input docs.jsonl --output out.jsonl
  cat docs.jsonl | pocket-extract run --schema order.json --model ./pocket.gguf --input - --output out.jsonl --concurrency 2
  pocket-extract run --schema ./order.ts --model ./pocket.gguf --input docs.jsonl --output out.jsonl --resume --report report.html
  pocket-extract run --schema ./order.ts --model ./pocket.gguf --input docs.jsonl --output out.jsonl --temperature 0.7 --seed 42 --retries 2 --language zh
  pocket-extract run --schema ./payments.ts --model ./pocket.gguf --input reports.jsonl --output out.jsonl --chunk-size 2000 --chunk-overlap 300
  pocket-extract inspect --schema ./order.ts#Order --text "客户购买了3台笔记本电脑"
`;

const OPTIONS = {
  schema: { type: "string" },
  model: { type: "string" },
  input: { type: "string" },
  output: { type: "string" },
  "text-field": { type: "string" },
  "id-field": { type: "string" },
  concurrency: { type: "string" },
  engines: { type: "string" },
  "max-tokens": { type: "string" },
  threads: { type: "string" },
  "context-length": { type: "string" },
  "cache-dir": { type: "string" },
  resume: { type: "boolean" },
  report: { type: "string" },
  "summary-json": { type: "string" },
  quiet: { type: "boolean" },
  "max-text-bytes": { type: "string" },
  "max-line-bytes": { type: "string" },
  text: { type: "string" },
  "text-file": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  ...EXTRACTION_OPTIONS,
  ...GROUNDING_OPTIONS,
} as const;

const RUN_ONLY = ["model", "input", "output", "text-field", "id-field", "concurrency", "engines", "max-tokens", "threads", "context-length", "cache-dir", "resume", "report", "summary-json", "quiet", "max-text-bytes", "max-line-bytes", ...EXTRACTION_OPTION_NAMES, ...GROUNDING_OPTION_NAMES] as const;
const INSPECT_ONLY = ["text", "text-file"] as const;

/**
 * Parses argv (without node and the script). `modelOptional` is set when an engine is injected,
 * so `--model` is not required.
 */
export function parseCliArgs(argv: readonly string[], modelOptional = false): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  const [command, ...extra] = positionals;
  if (command === undefined) return { command: "help" };
  if (extra.length > 0) throw new UsageError(`unexpected argument${extra.length > 1 ? "s" : ""}: ${extra.join(" ")}`);
  const misplaced = (names: readonly string[]): void => {
    const given = names.filter((n) => values[n as keyof typeof values] !== undefined);
    if (given.length > 0) throw new UsageError(`${given.map((n) => `--${n}`).join(", ")} ${given.length > 1 ? "are" : "is"} not an option of "${command}"`);
  };
  const required = (name: "schema" | "input" | "output" | "model"): string => {
    const v = values[name];
    if (v === undefined || v === "") throw new UsageError(`${command} needs --${name}`);
    return v;
  };
  if (command === "inspect") {
    misplaced(RUN_ONLY);
    if (values.text !== undefined && values["text-file"] !== undefined) throw new UsageError("give --text or --text-file, not both");
    return { command, schema: required("schema"), text: values.text, textFile: values["text-file"] };
  }
  if (command !== "run") throw new UsageError(`unknown command "${command}" (expected run or inspect)`);
  misplaced(INSPECT_ONLY);
  if (values["chunk-size"] === undefined) {
    const idle = (["chunk-overlap", "passes"] as const).filter((n) => values[n] !== undefined);
    if (idle.length > 0) throw new UsageError(`${idle.map((n) => `--${n}`).join(", ")} only ${idle.length > 1 ? "apply" : "applies"} with --chunk-size`);
  }
  const maxTextBytes = positiveInteger(values["max-text-bytes"], "max-text-bytes") ?? DEFAULT_MAX_TEXT_BYTES;
  return {
    command,
    schema: required("schema"),
    model: modelOptional ? values.model : required("model"),
    input: required("input"),
    output: required("output"),
    textField: nonEmpty(values["text-field"], "text-field") ?? "text",
    idField: nonEmpty(values["id-field"], "id-field") ?? "id",
    concurrency: positiveInteger(values.concurrency, "concurrency") ?? positiveInteger(values.engines, "engines") ?? 1,
    engines: positiveInteger(values.engines, "engines") ?? 1,
    maxTokens: positiveInteger(values["max-tokens"], "max-tokens"),
    threads: positiveInteger(values.threads, "threads"),
    contextLength: positiveInteger(values["context-length"], "context-length"),
    cacheDir: nonEmpty(values["cache-dir"], "cache-dir"),
    resume: values.resume ?? false,
    report: nonEmpty(values.report, "report"),
    summaryJson: nonEmpty(values["summary-json"], "summary-json"),
    quiet: values.quiet ?? false,
    maxTextBytes,
    maxLineBytes: positiveInteger(values["max-line-bytes"], "max-line-bytes") ?? defaultMaxLineBytes(maxTextBytes),
    grounding: groundingFromArgs(values),
    extraction: extractionFromArgs(values),
  };
}

function nonEmpty(value: string | undefined, name: string): string | undefined {
  if (value === "") throw new UsageError(`--${name} must not be empty`);
  return value;
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return n;
}
