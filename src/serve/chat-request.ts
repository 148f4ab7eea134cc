/**
 * The OpenAI chat-completions request mapped onto an extraction: the grammar comes from
 * `response_format` (a JSON Schema, or any JSON object for `json_object`), the system/developer
 * messages become the instruction and the user messages the document text; `max_tokens` /
 * `max_completion_tokens`, `temperature`, `top_p` and `seed` become extraction options. What the
 * extractor cannot honour (tools, several choices, stop strings, multi-turn history) is refused
 * with a 400 naming the field, never silently ignored.
 */
import type { ExtractOptions } from "../extract/index.js";
import { finiteNumber, invalid, nonNegativeInteger, object, positiveInteger } from "./extract-request.js";

export interface ChatRequest {
  readonly model: string;
  readonly schema: Record<string, unknown>;
  readonly text: string;
  readonly options: ExtractOptions;
  readonly stream: boolean;
  readonly includeUsage: boolean;
}

/** Fields a client may send and we honour (or accept as their neutral value). */
const KNOWN = new Set([
  "model",
  "messages",
  "response_format",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "seed",
  "stream",
  "stream_options",
  "n",
  "user",
  "frequency_penalty",
  "presence_penalty",
  "stop",
  "logprobs",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "store",
  "metadata",
]);

/** Any JSON object: the grammar of `response_format: { type: "json_object" }`. */
const ANY_OBJECT = { type: "object" };

export function parseChatRequest(body: unknown): ChatRequest {
  const b = object(body, "the request body");
  const unknown = Object.keys(b).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) throw invalid("OPTION_INVALID", `unsupported field${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`);
  refuseUnless(b.n === undefined || b.n === null || b.n === 1, "n", "only one choice is generated (n = 1)");
  refuseUnless(isEmpty(b.stop), "stop", "stop sequences are not supported: the grammar decides where the output ends");
  refuseUnless(isEmpty(b.tools) && isEmpty(b.tool_choice), "tools", "tool calls are not supported: use response_format");
  refuseUnless(!b.logprobs, "logprobs", "logprobs are not supported");
  for (const penalty of ["frequency_penalty", "presence_penalty"] as const) refuseUnless(!b[penalty], penalty, "penalties are not supported");
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== "boolean") throw invalid("REQUEST_INVALID", "stream must be a boolean");
  const streamOptions = b.stream_options === undefined || b.stream_options === null ? {} : object(b.stream_options, "stream_options");
  const { instruction, text } = readMessages(b.messages);
  const maxTokens = positiveInteger(b.max_completion_tokens, "max_completion_tokens") ?? positiveInteger(b.max_tokens, "max_tokens");
  return {
    model: typeof b.model === "string" ? b.model : "pocket-extract",
    schema: readResponseFormat(b.response_format),
    text,
    options: {
      maxTokens,
      instruction,
      sampling: {
        temperature: finiteNumber(b.temperature, "temperature", 0, 2),
        topP: finiteNumber(b.top_p, "top_p", 0, 1),
        seed: nonNegativeInteger(b.seed, "seed"),
      },
    },
    stream: b.stream === true,
    includeUsage: streamOptions.include_usage === true,
  };
}

function readResponseFormat(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) {
    throw invalid("REQUEST_INVALID", 'response_format is required: { type: "json_schema", json_schema: { schema } } or { type: "json_object" } (the grammar comes from it)');
  }
  const format = object(value, "response_format");
  if (format.type === "json_object") return ANY_OBJECT;
  if (format.type !== "json_schema") {
    throw invalid("REQUEST_INVALID", `response_format.type must be "json_schema" or "json_object", got ${JSON.stringify(format.type)}`);
  }
  const spec = object(format.json_schema, "response_format.json_schema");
  return object(spec.schema, "response_format.json_schema.schema");
}

/** System and developer messages -> instruction; user messages -> the document text. */
function readMessages(value: unknown): { instruction: string | undefined; text: string } {
  if (!Array.isArray(value) || value.length === 0) throw invalid("REQUEST_INVALID", "messages must be a non-empty array");
  const system: string[] = [];
  const user: string[] = [];
  value.forEach((m: unknown, i) => {
    const message = object(m, `messages[${i}]`);
    const content = contentText(message.content, `messages[${i}].content`);
    if (message.role === "system" || message.role === "developer") system.push(content);
    else if (message.role === "user") user.push(content);
    else throw invalid("REQUEST_INVALID", `messages[${i}].role ${JSON.stringify(message.role)} is not supported: send system and user messages (the text to extract from is the user content)`);
  });
  if (user.length === 0) throw invalid("REQUEST_INVALID", "messages hold no user message: the user content is the text to extract from");
  return { instruction: system.length > 0 ? system.join("\n\n") : undefined, text: user.join("\n\n") };
}

function contentText(content: unknown, where: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw invalid("REQUEST_INVALID", `${where} must be a string or an array of text parts`);
  return content
    .map((part: unknown, i) => {
      const p = object(part, `${where}[${i}]`);
      if (p.type !== "text" || typeof p.text !== "string") throw invalid("REQUEST_INVALID", `${where}[${i}]: only text parts are supported, got type ${JSON.stringify(p.type)}`);
      return p.text;
    })
    .join("\n");
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0) || value === "none";
}

function refuseUnless(ok: boolean, field: string, why: string): void {
  if (!ok) throw invalid("OPTION_INVALID", `${field}: ${why}`);
}
