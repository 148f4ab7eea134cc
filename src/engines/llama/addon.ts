/**
 * Finds and loads the native llama.cpp addon built by `npm run native:build` (native/build.mjs
 * writes native/build/pocket_llama.json naming the .node file and the ggml backend folder), and
 * types its surface. Loaded lazily: the SDK works without it until a GGUF model is used.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PocketExtractError } from "../../errors.js";
import { findNativeManifest } from "../native-shared/manifest.js";

/** A loaded model + its single context (sequence 0), as the addon exposes it. */
export interface NativeLlamaModel {
  width(): number;
  contextLength(): number;
  /** Tokens currently in the KV cache. */
  position(): number;
  /** llama.cpp's own view of the vocabulary (raw bytes per id), for cross-checks. */
  vocabulary(): NativeVocabulary;
  tokenize(text: string, parseSpecial: boolean): Int32Array;
  /** One batch at the current position, off the JS thread; logits of the last token only. */
  decode(tokens: Int32Array): Promise<void>;
  /** Masked sampling on the last decoded token's logits; -1 when the mask allows nothing. */
  sample(mask: Uint32Array, temperature: number, topK: number, topP: number): number;
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

/** Error codes the addon sets on the errors it throws. */
const MANIFEST = "pocket_llama.json";

let loaded: { addon: NativeLlamaAddon; backendsDir: string } | undefined;

/** The addon and its backend folder; ENGINE_UNAVAILABLE with the build command when not built. */
export function loadLlamaAddon(): { addon: NativeLlamaAddon; backendsDir: string } {
  if (loaded) return loaded;
  const unavailable = (why: string, cause?: unknown): never => {
    throw new PocketExtractError(
      "ENGINE_UNAVAILABLE",
      `the llama.cpp engine needs the native addon, which ${why}. Build it with \`npm run native:build\` (Linux x64, g++ and node-llama-cpp installed).`,
      { cause },
    );
  };
  const manifestPath = findNativeManifest(MANIFEST, import.meta.url);
  if (manifestPath === undefined) return unavailable(`is not built (no native/build/${MANIFEST} found)`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { addon: string; backendsDir: string };
  try {
    const addon = createRequire(import.meta.url)(manifest.addon) as NativeLlamaAddon;
    loaded = { addon, backendsDir: manifest.backendsDir };
    return loaded;
  } catch (err) {
    return unavailable(`could not be loaded from ${manifest.addon} (${(err as Error).message})`, err);
  }
}
