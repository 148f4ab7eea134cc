/**
 * Loads the native llama.cpp addon for this platform and types its surface: the prebuild shipped in
 * the package (linux-x64), or one built from source on first use where a compiler is present
 * (prebuild.ts says where things are). Loaded lazily: the SDK works without it until a GGUF model
 * is used, and every way it can be missing is ENGINE_UNAVAILABLE saying what to install.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { PocketExtractError } from "../../errors.js";
import { BUILDABLE_PLATFORMS, buildAddonFromSource, findCompiler, howToInstallLibraries, llamaLibraryDir, platformKey, prebuiltAddonPath } from "./prebuild.js";

/** A loaded model + its single context (sequence 0), as the addon exposes it. */
export interface NativeLlamaModel {
  width(): number;
  contextLength(): number;
  /** Tokens currently in the KV cache. */
  position(): number;
  /** llama.cpp's own view of the vocabulary (raw bytes per id), for cross-checks. */
  vocabulary(): NativeVocabulary;
  tokenize(text: string, parseSpecial: boolean): Int32Array;
  /**
   * One batch at the current position, off the JS thread, keeping the logits after the tokens at
   * the indices `rows` (increasing, within its last batch) or after its last `rows` tokens (default 1).
   */
  decode(tokens: Int32Array, rows?: number | Int32Array): Promise<void>;
  /**
   * decode(tokens) and, on the same worker thread right after it, sample() from its last row. The
   * caller writes `mask` while the model runs, then calls maskReady(); -2 when the decode finished
   * first (nothing drawn: call sample()), -1 when the mask allows nothing. The mask must not change
   * until the promise settles.
   */
  decodeSample(tokens: Int32Array, mask: Uint32Array, temperature: number, topK: number, topP: number, minP: number): Promise<number>;
  /** The mask of the decodeSample in flight is written. */
  maskReady(): void;
  /** Masked sampling on logits row `row` of the last decode (default: its last); -1 when the mask allows nothing. */
  sample(mask: Uint32Array, temperature: number, topK: number, topP: number, minP?: number, row?: number): number;
  /** A copy of the last decoded token's logits (engine-agreement checks; NO_LOGITS before any decode). */
  logits(): Float32Array;
  seed(seed: number): void;
  /** Drops cached tokens at positions >= n. */
  truncate(n: number): void;
  /** Idempotent; deferred until an in-flight decode returns. */
  free(): void;
}

export interface NativeVocabulary {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
  /** llama_token_attr bit sets. */
  readonly attributes: Int32Array;
  readonly endOfGeneration: Int32Array;
  readonly eos: number;
  readonly eot: number;
  readonly pad: number;
}

export interface NativeLlamaAddon {
  loadModel(path: string, options: { backendsDir: string; contextLength?: number; threads?: number }): Promise<NativeLlamaModel>;
}

let loaded: { addon: NativeLlamaAddon; backendsDir: string } | undefined;

/** The addon and the folder of ggml backends it loads; ENGINE_UNAVAILABLE naming what is missing. */
export function loadLlamaAddon(): { addon: NativeLlamaAddon; backendsDir: string } {
  if (loaded) return loaded;
  const platform = platformKey();
  const unavailable = (why: string, cause?: unknown): never => {
    throw new PocketExtractError("ENGINE_UNAVAILABLE", `the llama.cpp engine (GGUF models) is unavailable on ${platform}: ${why}`, { cause });
  };
  if (!BUILDABLE_PLATFORMS.includes(platform)) {
    return unavailable(
      `pocket-extract runs llama.cpp on ${BUILDABLE_PLATFORMS.join(" and ")} with glibc (a prebuilt addon for linux-x64, a source build with g++ elsewhere). ` +
        "Use one of those, or the MNN engine (an MNN model directory; see the README).",
    );
  }
  const backendsDir = llamaLibraryDir(platform);
  if (backendsDir === undefined) {
    return unavailable(`its llama.cpp libraries, the package @node-llama-cpp/${platform}, are not installed. ${howToInstallLibraries(platform)}`);
  }
  const addonPath = prebuiltAddonPath(platform);
  if (!existsSync(addonPath)) {
    const compiler = findCompiler();
    if (compiler === undefined) {
      return unavailable(
        `this package has no prebuilt addon for ${platform} and no C++ compiler is on PATH to build it. ` +
          "Install g++ (C++17; e.g. `apt install g++`) or set CXX, and the addon is built on the next GGUF load.",
      );
    }
    buildAddonFromSource(platform, compiler);
  }
  try {
    loaded = { addon: createRequire(import.meta.url)(addonPath) as NativeLlamaAddon, backendsDir };
    return loaded;
  } catch (err) {
    return unavailable(
      `${addonPath} could not be loaded (${(err as Error).message}). It looks for the llama.cpp libraries of @node-llama-cpp/${platform} next to pocket-extract or in its node_modules; this install has them in ${backendsDir}.`,
      err,
    );
  }
}
