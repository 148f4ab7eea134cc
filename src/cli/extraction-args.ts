/**
 * The extraction options every command that extracts takes (`run`, `serve`, `worker`):
 * --temperature, --seed, --retries, --retry-mode, --language, --instruction, and the long-document
 * options --chunk-size, --chunk-overlap, --passes. Their parseArgs definitions, help lines, and the
 * conversion to the SDK's ExtractOptions, checked by the SDK's own option checks (same ranges as
 * `extract`), so a bad value is a UsageError naming the flag before any model loads.
 */
import { OptionError } from "../errors.js";
import { checkExtractOptions, type ExtractOptions, type RetryMode } from "../extract/index.js";
import { UsageError } from "./usage-error.js";

export const EXTRACTION_OPTIONS = {
  temperature: { type: "string" },
  seed: { type: "string" },
  retries: { type: "string" },
  "retry-mode": { type: "string" },
  language: { type: "string" },
  instruction: { type: "string" },
  "chunk-size": { type: "string" },
  "chunk-overlap": { type: "string" },
  passes: { type: "string" },
} as const;

export const EXTRACTION_OPTION_NAMES = Object.keys(EXTRACTION_OPTIONS) as (keyof typeof EXTRACTION_OPTIONS)[];

export const EXTRACTION_HELP = `  --temperature <t>         sampling temperature, a number >= 0 (default: 0, greedy decoding)
  --seed <n>                sampling seed, an integer >= 0, for reproducible runs when --temperature
                            > 0 (default: 0)
  --retries <n>             generate again, up to n times, a result that fails the schema's checks
                            (0 to 100, default: 0)
  --retry-mode <resample|feedback>
                            how a retry asks: resample (default) runs the same prompt at temperature
                            0.7 unless set; feedback asks again with the previous output and its
                            issues in the prompt, with the same sampling
  --language <auto|zh|en>   prompt language (default: auto, Chinese when the text is mostly Chinese);
                            also the grounding language
  --instruction <text>      replaces the prompt's default instruction sentence (the field list and
                            the document still follow)
  --chunk-size <n>          extract a text longer than n characters (200 or more) in chunks cut at
                            paragraph and sentence ends, merged into one result whose spans are
                            offsets into the whole text (default: no chunking)
  --chunk-overlap <n>       characters a chunk shares with the previous one (default: 200, under
                            half of --chunk-size)
  --passes <n>              with --chunk-size: 2 or 3 re-read, resampled, the chunks that found
                            nothing for some top-level field (default: 1)
`;

const LANGUAGES = ["auto", "zh", "en"] as const;

/** The flag each SDK option name of an OptionError comes from. */
const FLAG_OF: Readonly<Record<string, string>> = { "sampling.temperature": "temperature", "sampling.seed": "seed", retries: "retries", retryMode: "retry-mode", instruction: "instruction", chunkSize: "chunk-size", chunkOverlap: "chunk-overlap", passes: "passes" };

export function extractionFromArgs(values: { readonly [K in keyof typeof EXTRACTION_OPTIONS]?: string }): ExtractOptions {
  const { language, instruction } = values;
  if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language)) {
    throw new UsageError(`--language must be one of ${LANGUAGES.join(", ")}, got "${language}"`);
  }
  if (instruction !== undefined && instruction.trim() === "") throw new UsageError("--instruction must not be empty");
  const temperature = numberOf(values.temperature, "temperature");
  const seed = numberOf(values.seed, "seed");
  const sampling = { ...(temperature !== undefined && { temperature }), ...(seed !== undefined && { seed }) };
  const options: ExtractOptions = {
    ...(Object.keys(sampling).length > 0 && { sampling }),
    ...(values.retries !== undefined && { retries: numberOf(values.retries, "retries") }),
    ...(values["retry-mode"] !== undefined && { retryMode: values["retry-mode"] as RetryMode }),
    ...(language !== undefined && { language: language as (typeof LANGUAGES)[number] }),
    ...(instruction !== undefined && { instruction }),
    ...(values["chunk-size"] !== undefined && { chunkSize: numberOf(values["chunk-size"], "chunk-size") }),
    ...(values["chunk-overlap"] !== undefined && { chunkOverlap: numberOf(values["chunk-overlap"], "chunk-overlap") }),
    ...(values.passes !== undefined && { passes: numberOf(values.passes, "passes") }),
  };
  try {
    checkExtractOptions(options);
  } catch (err) {
    const flag = err instanceof OptionError ? FLAG_OF[err.option] : undefined;
    if (flag === undefined) throw err;
    throw new UsageError(`--${flag} must be ${(err as OptionError).allowed}, got "${values[flag as keyof typeof values]}"`);
  }
  return options;
}

/** A decimal number as written on a command line ("0.7", "42"); range checks are the SDK's. */
function numberOf(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value.trim())) throw new UsageError(`--${flag} must be a number, got "${value}"`);
  return Number(value);
}
