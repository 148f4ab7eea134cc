/**
 * The body of `POST /v1/extract` checked field by field: `{ schema, text, options?, stream? }`.
 * Anything else (a missing text, an option the extractor does not have, a value of the wrong
 * type) is a `ServeError` that names the field, before any engine is touched. Ranges and the
 * options' relations (maxTokens, retries, chunkSize, chunkOverlap under half of it, passes) are
 * the extractor's own checks, over the request's options merged with the service's defaults:
 * a `400 OPTION_INVALID` too.
 */
import { RETRY_MODES, type ExtractOptions } from "../extract/index.js";
import type { SamplingOptions } from "../engines/index.js";
import { ServeError } from "./errors.js";

export interface ExtractRequest {
  readonly schema: Record<string, unknown>;
  readonly text: string;
  readonly options: ExtractOptions;
  readonly stream: boolean;
}

const BODY_KEYS = new Set(["schema", "text", "options", "stream"]);
const OPTION_KEYS = new Set(["maxTokens", "sampling", "language", "instruction", "defaultMaxStringLength", "retries", "retryMode", "examples", "chunkSize", "chunkOverlap", "passes"]);
const SAMPLING_KEYS = new Set(["temperature", "topK", "topP", "minP", "seed"]);

export function parseExtractRequest(body: unknown): ExtractRequest {
  const b = object(body, "the request body");
  unknownKeys(b, BODY_KEYS, "the request body", "REQUEST_INVALID");
  const schema = object(b.schema, "schema (a JSON Schema object)");
  if (typeof b.text !== "string") throw invalid("REQUEST_INVALID", `text must be a string, got ${kind(b.text)}`);
  if (b.stream !== undefined && typeof b.stream !== "boolean") throw invalid("REQUEST_INVALID", `stream must be a boolean, got ${kind(b.stream)}`);
  return { schema, text: b.text, options: parseOptions(b.options), stream: b.stream === true };
}

function parseOptions(value: unknown): ExtractOptions {
  if (value === undefined) return {};
  const o = object(value, "options");
  unknownKeys(o, OPTION_KEYS, "options", "OPTION_INVALID");
  const language = o.language;
  if (language !== undefined && language !== "auto" && language !== "zh" && language !== "en") {
    throw invalid("OPTION_INVALID", `options.language must be "auto", "zh" or "en", got ${JSON.stringify(language)}`);
  }
  if (o.retryMode !== undefined && !(RETRY_MODES as readonly unknown[]).includes(o.retryMode)) {
    throw invalid("OPTION_INVALID", `options.retryMode must be ${RETRY_MODES.map((m) => JSON.stringify(m)).join(" or ")}, got ${JSON.stringify(o.retryMode)}`);
  }
  if (o.instruction !== undefined && typeof o.instruction !== "string") throw invalid("OPTION_INVALID", `options.instruction must be a string`);
  if (o.examples !== undefined && !Array.isArray(o.examples)) throw invalid("OPTION_INVALID", `options.examples must be an array of { text, output }`);
  return {
    maxTokens: positiveInteger(o.maxTokens, "options.maxTokens"),
    sampling: o.sampling === undefined ? undefined : parseSampling(o.sampling, "options.sampling"),
    language,
    instruction: o.instruction,
    defaultMaxStringLength: positiveInteger(o.defaultMaxStringLength, "options.defaultMaxStringLength"),
    retries: nonNegativeInteger(o.retries, "options.retries"),
    retryMode: o.retryMode as ExtractOptions["retryMode"],
    examples: o.examples as ExtractOptions["examples"],
    chunkSize: positiveInteger(o.chunkSize, "options.chunkSize"),
    chunkOverlap: nonNegativeInteger(o.chunkOverlap, "options.chunkOverlap"),
    passes: positiveInteger(o.passes, "options.passes"),
  };
}

function parseSampling(value: unknown, where: string): SamplingOptions {
  const s = object(value, where);
  unknownKeys(s, SAMPLING_KEYS, where, "OPTION_INVALID");
  return {
    temperature: finiteNumber(s.temperature, `${where}.temperature`, 0, 2),
    topK: nonNegativeInteger(s.topK, `${where}.topK`),
    topP: finiteNumber(s.topP, `${where}.topP`, 0, 1),
    minP: finiteNumber(s.minP, `${where}.minP`, 0, 1),
    seed: nonNegativeInteger(s.seed, `${where}.seed`),
  };
}

export function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid("REQUEST_INVALID", `${what} must be a JSON object, got ${kind(value)}`);
  return value as Record<string, unknown>;
}

function unknownKeys(o: Record<string, unknown>, allowed: ReadonlySet<string>, where: string, code: "REQUEST_INVALID" | "OPTION_INVALID"): void {
  const extra = Object.keys(o).filter((k) => !allowed.has(k));
  if (extra.length > 0) throw invalid(code, `unknown field${extra.length > 1 ? "s" : ""} in ${where}: ${extra.join(", ")} (known: ${[...allowed].join(", ")})`);
}

export function positiveInteger(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw invalid("OPTION_INVALID", `${where} must be a positive integer, got ${JSON.stringify(value)}`);
  return value as number;
}

export function nonNegativeInteger(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw invalid("OPTION_INVALID", `${where} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return value as number;
}

export function finiteNumber(value: unknown, where: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw invalid("OPTION_INVALID", `${where} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function invalid(code: "REQUEST_INVALID" | "OPTION_INVALID", message: string): ServeError {
  return new ServeError(code, 400, message);
}

function kind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
