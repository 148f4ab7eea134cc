/**
 * Command lines of the serving commands (`serve`, `worker`, `enqueue`, `collect`), parsed apart
 * from `run`/`inspect` (args.ts) so each command lists only its own options. Bad values are a
 * `UsageError` (exit 2) before any model, file or Redis server is touched.
 */
import { parseArgs } from "node:util";
import type { ExtractOptions } from "../extract/index.js";
import { UsageError } from "./args.js";
import { EXTRACTION_OPTION_NAMES, EXTRACTION_OPTIONS, extractionFromArgs } from "./extraction-args.js";

export const SERVING_COMMANDS = ["serve", "worker", "enqueue", "collect"] as const;
export type ServingCommand = (typeof SERVING_COMMANDS)[number];

export function isServingCommand(name: string | undefined): name is ServingCommand {
  return (SERVING_COMMANDS as readonly (string | undefined)[]).includes(name);
}

interface EngineArgs {
  /** Undefined only when an engine is injected programmatically. */
  readonly model: string | undefined;
  readonly threads: number | undefined;
  readonly contextLength: number | undefined;
  /** Directory of serialized grammars (createExtractor's `cacheDir`). */
  readonly cacheDir: string | undefined;
  readonly maxTokens: number | undefined;
  /** The extractors' defaults from run's extraction options (--temperature ... --passes). */
  readonly extraction: ExtractOptions;
}

interface QueueArgs {
  readonly queue: string;
  readonly redis: string | undefined;
  readonly prefix: string | undefined;
}

export interface ServeArgs extends EngineArgs {
  readonly command: "serve";
  readonly host: string;
  readonly port: number;
  readonly pool: number;
  readonly maxWaiting: number | undefined;
  readonly timeoutSeconds: number;
  readonly shutdownGraceSeconds: number;
}

export interface WorkerArgs extends EngineArgs, QueueArgs {
  readonly command: "worker";
  readonly concurrency: number;
  readonly lockDurationMs: number | undefined;
  readonly stalledIntervalMs: number | undefined;
  readonly quiet: boolean;
}

export interface EnqueueArgs extends QueueArgs {
  readonly command: "enqueue";
  readonly schema: string;
  readonly input: string;
  readonly textField: string;
  readonly idField: string;
  readonly attempts: number | undefined;
  readonly backoffMs: number | undefined;
}

export interface CollectArgs extends QueueArgs {
  readonly command: "collect";
  readonly output: string;
}

export type ServingArgs = ServeArgs | WorkerArgs | EnqueueArgs | CollectArgs;

export const SERVING_HELP = `Serving (HTTP service, and queue workers on BullMQ/Redis shared by several machines):
  pocket-extract serve --model <model> [--pool <n>] [--port <n>] [--host <addr>] [options]
      POST /v1/extract, POST /v1/chat/completions (OpenAI-compatible), GET /healthz, GET /metrics
      --pool <n>               engines, one request each at a time (default: 1)
      --max-waiting <n>        requests waiting for an engine before 429 (default: 4 per engine)
      --timeout <s>            per-request limit, waiting included (default: 60)
      --shutdown-grace <s>     on SIGTERM, time in-flight requests get to finish (default: 10)
      --port <n> (default 8080), --host <addr> (default 127.0.0.1)
  pocket-extract enqueue --queue <name> --schema <file> --input <file.jsonl|-> [--attempts <n>] [--backoff <ms>]
      one job per line, job id = document id (enqueuing twice adds nothing)
  pocket-extract worker --queue <name> --model <model> [--concurrency <n>] [--lock-duration <ms>] [--stalled-interval <ms>]
      --concurrency <n> engines, one job each (default: 1)
  pocket-extract collect --queue <name> --output <file.jsonl>
      the results as run's JSONL records, by input line
  Queue commands take --redis <redis://host:port[/db]> (default redis://127.0.0.1:6379) and
  --prefix <key prefix> (default pocket). serve and worker take --max-tokens, --threads, --context-length,
  and run's --temperature, --seed, --retries, --language, --instruction, --retry-mode, --chunk-size,
  --chunk-overlap, --passes as the extractors' defaults (a request's own options to /v1/extract or
  /v1/chat/completions override them, key by key). serve and worker also take --cache-dir <dir>:
  compiled grammars kept across restarts, as for run.
`;

const ENGINE_OPTIONS = { model: { type: "string" }, threads: { type: "string" }, "context-length": { type: "string" }, "cache-dir": { type: "string" }, "max-tokens": { type: "string" }, ...EXTRACTION_OPTIONS } as const;
const QUEUE_OPTIONS = { queue: { type: "string" }, redis: { type: "string" }, prefix: { type: "string" } } as const;
const OPTIONS = {
  serve: { ...ENGINE_OPTIONS, host: { type: "string" }, port: { type: "string" }, pool: { type: "string" }, "max-waiting": { type: "string" }, timeout: { type: "string" }, "shutdown-grace": { type: "string" } },
  worker: { ...ENGINE_OPTIONS, ...QUEUE_OPTIONS, concurrency: { type: "string" }, "lock-duration": { type: "string" }, "stalled-interval": { type: "string" }, quiet: { type: "boolean" } },
  enqueue: { ...QUEUE_OPTIONS, schema: { type: "string" }, input: { type: "string" }, "text-field": { type: "string" }, "id-field": { type: "string" }, attempts: { type: "string" }, backoff: { type: "string" } },
  collect: { ...QUEUE_OPTIONS, output: { type: "string" } },
} as const;

type Values = Record<string, string | boolean | undefined>;

export function parseServingArgs(argv: readonly string[], modelOptional = false): ServingArgs {
  const [command, ...rest] = argv;
  if (!isServingCommand(command)) throw new UsageError(`unknown command "${command}"`);
  let values: Values;
  try {
    const parsed = parseArgs({ args: rest, options: OPTIONS[command], allowPositionals: false, strict: true });
    values = parsed.values as Values;
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
  const str = (name: string): string | undefined => {
    const v = values[name] as string | undefined;
    if (v === "") throw new UsageError(`--${name} must not be empty`);
    return v;
  };
  const required = (name: string): string => str(name) ?? fail(`${command} needs --${name}`);
  const int = (name: string, min = 1): number | undefined => {
    const v = str(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${v}"`);
    return n;
  };
  const engine = (): EngineArgs => ({
    model: modelOptional ? str("model") : required("model"),
    threads: int("threads"),
    contextLength: int("context-length"),
    cacheDir: str("cache-dir"),
    maxTokens: int("max-tokens"),
    extraction: extractionFromArgs(Object.fromEntries(EXTRACTION_OPTION_NAMES.map((name) => [name, str(name)]))),
  });
  const queue = (): QueueArgs => ({ queue: required("queue"), redis: str("redis"), prefix: str("prefix") });
  switch (command) {
    case "serve":
      return {
        command,
        ...engine(),
        host: str("host") ?? "127.0.0.1",
        port: int("port", 0) ?? 8080,
        pool: int("pool") ?? 1,
        maxWaiting: int("max-waiting", 0),
        timeoutSeconds: int("timeout") ?? 60,
        shutdownGraceSeconds: int("shutdown-grace", 0) ?? 10,
      };
    case "worker":
      return {
        command,
        ...engine(),
        ...queue(),
        concurrency: int("concurrency") ?? 1,
        lockDurationMs: int("lock-duration"),
        stalledIntervalMs: int("stalled-interval"),
        quiet: values.quiet === true,
      };
    case "enqueue":
      return {
        command,
        ...queue(),
        schema: required("schema"),
        input: required("input"),
        textField: str("text-field") ?? "text",
        idField: str("id-field") ?? "id",
        attempts: int("attempts"),
        backoffMs: int("backoff", 0),
      };
    case "collect":
      return { command, ...queue(), output: required("output") };
  }
}

function fail(message: string): never {
  throw new UsageError(message);
}
