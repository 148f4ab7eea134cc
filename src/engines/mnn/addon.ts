/**
 * Finds and loads the native MNN addon built by `node native/build.mjs --backend mnn` (it writes
 * native/build/pocket_mnn.json naming the .node file and the MNN install it links), and types its
 * surface. Loaded lazily: the SDK works without it until an MNN model directory is used.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PocketExtractError } from "../../errors.js";
import { findNativeManifest } from "../native-shared/manifest.js";
import type { NativeContext } from "../native-shared/cached-context-engine.js";

/** A loaded MNN LLM. Only models whose load succeeded exist: a failed load rejects `loadModel`. */
export interface NativeMnnModel extends NativeContext {
  /** Resolves with the microseconds MNN spent on the worker thread (the rest is the thread hop). */
  evaluate(keep: number, tokens: Int32Array): Promise<number>;
  /**
   * evaluate(keep, tokens) and, on the same worker thread right after it, sample() from the last
   * token's logits (one native call per token). The caller writes `mask` while the model runs,
   * then calls maskReady(); -2 when the forward pass finished first (nothing drawn: call sample()),
   * -1 when the mask allows nothing. The mask must not change until the promise settles.
   */
  evaluateSample(keep: number, tokens: Int32Array, mask: Uint32Array, temperature: number, topK: number, topP: number, minP: number): Promise<number>;
  /** The mask of the evaluateSample in flight is written. */
  maskReady(): void;
  /**
   * Batches MNN's prefill module evaluated since load: those after a reset (keep 0) and those
   * longer than 16 tokens (prompts). Shorter ones are fed token by token to the decode module: the
   * prefill module resizes whenever the batch length changes (native/src/mnn_model.cpp).
   */
  prefillBatches(): number;
  /** A copy of the last evaluated token's logits (engine-agreement checks; NO_LOGITS before any evaluate). */
  logits(): Float32Array;
  /** Logits width (read from a probe forward pass at load). */
  width(): number;
  /** MNN's own view of the vocabulary: the bytes of every id 0..width-1 from tokenizer_decode. */
  vocabulary(): { readonly bytes: Uint8Array; readonly offsets: Uint32Array };
  /** MNN's tokenizer (special tokens recognised). */
  tokenize(text: string): Int32Array;
  /** The model's chat template applied to one user message. */
  applyChatTemplate(user: string): string;
}

export interface NativeMnnAddon {
  /** `configPath`: the model's config.json (MNN resolves every other file from it). */
  loadModel(configPath: string, options: { threads?: number }): Promise<NativeMnnModel>;
}

const MANIFEST = "pocket_mnn.json";
const HOW_TO_BUILD =
  "Build MNN (CPU, -DMNN_BUILD_LLM=ON, shared libraries), then run `MNN_DIR=<MNN install prefix> node native/build.mjs --backend mnn`; see the README section on the MNN engine. " +
  "Or use the GGUF build of the model (createExtractor({ model: 'model.gguf' })), which needs no MNN.";

let loaded: NativeMnnAddon | undefined;

/** The addon; ENGINE_UNAVAILABLE saying what is missing and how to build it. */
export function loadMnnAddon(): NativeMnnAddon {
  if (loaded) return loaded;
  const unavailable = (why: string, cause?: unknown): never => {
    throw new PocketExtractError("ENGINE_UNAVAILABLE", `the MNN engine needs the native MNN addon, which ${why}. ${HOW_TO_BUILD}`, { cause });
  };
  const manifestPath = findNativeManifest(MANIFEST);
  if (manifestPath === undefined) return unavailable(`is not built (no native/build/${MANIFEST} found)`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { addon: string; mnnDir: string };
  try {
    loaded = createRequire(import.meta.url)(manifest.addon) as NativeMnnAddon;
    return loaded;
  } catch (err) {
    return unavailable(`could not be loaded from ${manifest.addon} (MNN install ${manifest.mnnDir}: ${(err as Error).message})`, err);
  }
}
