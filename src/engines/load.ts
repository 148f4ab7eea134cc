/**
 * Picks and loads the engine for a model path: a `.gguf` file -> llama.cpp (native addon);
 * a directory with an MNN `llm_config.json` or `config.json` -> MNN. Anything else, or a missing
 * path, is a typed error that says what was expected.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { FileError, PocketExtractError } from "../errors.js";
import type { Engine } from "./engine.js";

export interface LoadEngineOptions {
  /** Context length in tokens (default: the model's, capped by the engine). */
  readonly contextLength?: number;
  /** CPU threads for the engine (default: the engine's choice). */
  readonly threads?: number;
}

export async function loadEngine(model: string, options: LoadEngineOptions = {}): Promise<Engine> {
  const info = await stat(model).catch(() => undefined);
  if (!info) throw new FileError("MODEL_NOT_FOUND", model, "no such file or directory (expected a .gguf file or an MNN model directory)");
  if (info.isFile() && model.toLowerCase().endsWith(".gguf")) {
    const { createLlamaEngine } = await import("./llama/index.js");
    return createLlamaEngine({ modelPath: model, contextLength: options.contextLength, threads: options.threads });
  }
  if (info.isDirectory()) {
    const hasConfig = (await stat(join(model, "llm_config.json")).catch(() => undefined)) ?? (await stat(join(model, "config.json")).catch(() => undefined));
    if (!hasConfig) throw new FileError("MODEL_INVALID", model, "directory has no llm_config.json or config.json: not an MNN model directory");
    throw new PocketExtractError(
      "ENGINE_UNAVAILABLE",
      `${model} is an MNN model directory, but this build has no MNN engine: the MNN addon is not built in this version. ` +
        "Use the GGUF build of the model (createExtractor({ model: 'model.gguf' })) meanwhile.",
    );
  }
  throw new FileError("MODEL_INVALID", model, "not a .gguf file or an MNN model directory");
}
