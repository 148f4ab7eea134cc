/**
 * Picks and loads the engine for a model path: a `.gguf` file -> llama.cpp (native addon);
 * a directory with an MNN `llm_config.json` or `config.json` -> MNN. Anything else, or a missing
 * path, is a typed error that says what was expected.
 */
import { stat } from "node:fs/promises";
import { FileError } from "../errors.js";
import type { ChatTemplate } from "../tokens/index.js";
import type { Engine } from "./engine.js";

/** How loadEngine opens a model: context length, threads, vocabulary and chat template overrides. */
export interface LoadEngineOptions {
  /** Context length in tokens (default: the model's, capped by the engine). */
  readonly contextLength?: number;
  /** CPU threads for the engine (default: the engine's choice). */
  readonly threads?: number;
  /** The model's chat template when it is not ChatML (Engine.chatTemplate). */
  readonly chatTemplate?: ChatTemplate;
}

/** Loads a model file or folder (GGUF through llama.cpp, an MNN export through MNN) as an Engine. */
export async function loadEngine(model: string, options: LoadEngineOptions = {}): Promise<Engine> {
  const info = await stat(model).catch(() => undefined);
  if (!info) throw new FileError("MODEL_NOT_FOUND", model, "no such file or directory (expected a .gguf file or an MNN model directory)");
  if (info.isFile() && model.toLowerCase().endsWith(".gguf")) {
    const { createLlamaEngine } = await import("./llama/index.js");
    return createLlamaEngine({ modelPath: model, contextLength: options.contextLength, threads: options.threads, chatTemplate: options.chatTemplate });
  }
  if (info.isDirectory()) {
    const { createMnnEngine } = await import("./mnn/index.js");
    return createMnnEngine({ modelDir: model, contextLength: options.contextLength, threads: options.threads, chatTemplate: options.chatTemplate });
  }
  throw new FileError("MODEL_INVALID", model, "not a .gguf file or an MNN model directory");
}
