/**
 * Entry points: `createExtractor` (load a model or wrap a ready engine once, extract many times)
 * and the one-off `extract`. A model path picks its engine by what it is: a `.gguf` file runs on
 * the llama.cpp engine, a directory holding `llm_config.json`/`config.json` on MNN.
 */
import { loadEngine, type LoadEngineOptions } from "../engines/index.js";
import type { Engine } from "../engines/index.js";
import { OptionError, PocketExtractError } from "../errors.js";
import { GrammarCacheDir, type GrammarCacheWarning } from "../mask/index.js";
import { checkEngineOptions } from "../engines/index.js";
import { Extractor } from "./extractor.js";
import { checkExtractOptions } from "./options.js";
import type { ExtractOptions, ExtractResult, InferOutput } from "./types.js";

/** Where an extractor keeps compiled grammars across processes (README, "Persisted grammars"). */
export interface GrammarCacheOptions {
  /** A directory of serialized grammars: schemas seen by an earlier process load instead of
   *  compiling, with the masks their documents computed. Created when first written. */
  readonly cacheDir?: string;
  /** Called when a grammar file could not be loaded (it is recompiled and overwritten) or
   *  written; default: a process warning. Never an extraction error. */
  readonly onCacheWarning?: (warning: GrammarCacheWarning) => void;
}

/**
 * createExtractor's options: the extraction defaults, the engine options, the grammar cache
 * directory, and either a model path or an engine already loaded.
 */
export type ExtractorOptions = ExtractOptions &
  LoadEngineOptions &
  GrammarCacheOptions &
  ({ readonly model: string; readonly engine?: undefined } | { readonly engine: Engine; readonly model?: undefined });

/**
 * Loads the engine (or takes the one given) and returns an Extractor that keeps it and its compiled
 * grammars for many documents.
 */
export async function createExtractor(options: ExtractorOptions): Promise<Extractor> {
  const { model, engine, contextLength, threads, cacheDir, onCacheWarning, ...defaults } = options;
  checkExtractOptions(defaults);
  const grammarFiles = grammarCacheDir(cacheDir, onCacheWarning);
  if (engine) return new Extractor(engine, defaults, grammarFiles);
  if (typeof model !== "string" || model.length === 0) {
    throw new PocketExtractError("OPTION_INVALID", "createExtractor needs `model` (a .gguf file or an MNN model directory) or `engine`");
  }
  checkEngineOptions({ contextLength, threads });
  return new Extractor(await loadEngine(model, { contextLength, threads }), defaults, grammarFiles);
}

function grammarCacheDir(cacheDir: string | undefined, onWarning: GrammarCacheOptions["onCacheWarning"]): GrammarCacheDir | undefined {
  if (cacheDir === undefined) return undefined;
  if (typeof cacheDir !== "string" || cacheDir.length === 0) throw new OptionError("cacheDir", cacheDir, "a directory path");
  if (onWarning !== undefined && typeof onWarning !== "function") throw new OptionError("onCacheWarning", onWarning, "a function");
  return new GrammarCacheDir(cacheDir, { onWarning });
}

/** One-off extraction: loads the model, extracts, releases the model. */
export async function extract<S>(schema: S, text: string, options: ExtractorOptions): Promise<ExtractResult<InferOutput<S>>> {
  const extractor = await createExtractor(options);
  try {
    return await extractor.extract(schema, text, options);
  } finally {
    // A caller-provided engine stays the caller's to dispose.
    if (!options.engine) await extractor.dispose();
  }
}
