/**
 * Checks of the engine options every engine takes (`threads`, `contextLength`), before any model
 * is read: a thread count far past the cores makes ggml's and MNN's spinning workers stall the
 * machine for minutes, a huge context allocates its KV cache up front.
 */
import { availableParallelism } from "node:os";
import { checkInteger } from "../util/index.js";

/** Largest context the engines are asked for (tokens). */
export const MAX_CONTEXT_LENGTH = 1_048_576;

export function checkEngineOptions(options: { readonly threads?: unknown; readonly contextLength?: unknown }): void {
  checkInteger("threads", options.threads, 1, availableParallelism());
  checkInteger("contextLength", options.contextLength, 1, MAX_CONTEXT_LENGTH);
}
