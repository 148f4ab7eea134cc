/**
 * OpenAI chat-completion responses built from an extraction: the message content is the model's
 * output as written (compact JSON; a field the text does not state is `null`, the extractor's
 * explicit "missing" escape), `finish_reason` is "length" when the token budget closed the JSON
 * early, `usage` counts prompt and output tokens. The grounding report (document status, field
 * statuses with spans, issues, validated data) travels in the extra `pocket_extract` member, which
 * OpenAI clients ignore. Streams are `chat.completion.chunk` objects carrying content deltas.
 */
import { randomUUID } from "node:crypto";
import type { ExtractResult } from "../extract/index.js";
import { documentStatus } from "../report/index.js";

export interface CompletionIdentity {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

export function completionIdentity(model: string): CompletionIdentity {
  return { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model };
}

export function usageOf(result: ExtractResult<unknown>): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const s = result.stats;
  const completion = s.tokensSampled + s.tokensForced + s.tokensCompleted;
  return { prompt_tokens: s.promptTokens, completion_tokens: completion, total_tokens: s.promptTokens + completion };
}

function finishReason(result: ExtractResult<unknown>): "stop" | "length" {
  return result.stats.stopReason === "budget" ? "length" : "stop";
}

/** The extraction report that rides along with the completion. */
export function pocketExtension(result: ExtractResult<unknown>): Record<string, unknown> {
  return { status: documentStatus({ result }), ok: result.ok, data: result.data, fields: result.fields, issues: result.issues, stats: result.stats };
}

export function chatCompletion(who: CompletionIdentity, result: ExtractResult<unknown>): Record<string, unknown> {
  return {
    ...header(who, "chat.completion"),
    choices: [{ index: 0, message: { role: "assistant", content: result.raw, refusal: null }, logprobs: null, finish_reason: finishReason(result) }],
    usage: usageOf(result),
    pocket_extract: pocketExtension(result),
  };
}

/** A streamed delta; `finish` closes the choice (with the extraction report). */
export function chatChunk(who: CompletionIdentity, delta: { role?: "assistant"; content?: string }, finish?: ExtractResult<unknown>): Record<string, unknown> {
  return {
    ...header(who, "chat.completion.chunk"),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish ? finishReason(finish) : null }],
    ...(finish ? { pocket_extract: pocketExtension(finish) } : {}),
  };
}

/** The trailing usage chunk of `stream_options: { include_usage: true }`. */
export function usageChunk(who: CompletionIdentity, result: ExtractResult<unknown>): Record<string, unknown> {
  return { ...header(who, "chat.completion.chunk"), choices: [], usage: usageOf(result) };
}

function header(who: CompletionIdentity, object: string): Record<string, unknown> {
  return { id: who.id, object, created: who.created, model: who.model };
}
