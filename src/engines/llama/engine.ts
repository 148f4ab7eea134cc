/**
 * The llama.cpp engine: GGUF models through our native addon (raw logits, our mask, our sampler).
 * Sessions, prefix reuse and rollback are the shared CachedContextEngine's; this module loads the
 * model, checks it, and adapts the addon's handle (truncate + decode) to a NativeContext.
 */
import { availableParallelism } from "node:os";
import { FileError, PocketExtractError } from "../../errors.js";
import { vocabularyFromBytes } from "../../tokens/index.js";
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import { CachedContextEngine, type NativeContext } from "../native-shared/cached-context-engine.js";
import { checkEngineOptions } from "../engine-options.js";
import { typedNativeError } from "../native-shared/native-error.js";
import { loadLlamaAddon, type NativeLlamaModel } from "./addon.js";
import { readGgufHeader } from "./gguf.js";
import { assertSameVocabulary, readGgufVocabularyParts } from "./gguf-vocabulary.js";
import { measureVerifyRowCost } from "./measure-verify-cost.js";
import { verifyRowCost } from "./verify-cost.js";

export interface LlamaEngineOptions {
  /** Path of a GGUF model file. */
  readonly modelPath: string;
  /** Context size in tokens (prompt + output). Default 4096. */
  readonly contextLength?: number;
  /** CPU threads for decoding. Default: one core left to the JS thread (1 to 4 threads). */
  readonly threads?: number;
  /** The vocabulary the grammars were compiled for; checked id by id against the model's. */
  readonly vocabulary?: Vocabulary;
  /** The model's chat template when it is not ChatML (the GGUF's own template is not read; see Engine.chatTemplate). */
  readonly chatTemplate?: ChatTemplate;
  /**
   * How Engine.verifyRowCost is found: "shape" (default) reads it from the tensor shapes (the
   * output matrix's share; repeatable, right where passes are memory-bound); "measure" times a
   * one-token step against a verification at load (measure-verify-cost.ts: it includes the drafted
   * token's pass through the blocks, which one CPU thread pays, but it depends on the machine and
   * its load, so speculative decisions do too).
   */
  readonly verifyCost?: "shape" | "measure";
}

const DEFAULT_CONTEXT_LENGTH = 4096;

/** The llama.cpp engine is the shared cached-context engine over a pocket_llama handle. */
export type LlamaEngine = CachedContextEngine;

/**
 * Loads a GGUF model. Checks, in order and before any weights are read: the file (MODEL_NOT_FOUND,
 * MODEL_INVALID), its vocabulary against `options.vocabulary` (VOCABULARY_MISMATCH), the native
 * addon (ENGINE_UNAVAILABLE); then loads it (ENGINE_LOAD with llama.cpp's reason).
 */
export async function createLlamaEngine(options: LlamaEngineOptions): Promise<LlamaEngine> {
  const path = options.modelPath;
  checkEngineOptions(options);
  if (options.verifyCost !== undefined && options.verifyCost !== "shape" && options.verifyCost !== "measure") {
    throw new PocketExtractError("OPTION_INVALID", `verifyCost must be "shape" or "measure", got ${String(options.verifyCost)}`);
  }
  const header = readGgufHeader(path);
  const parts = readGgufVocabularyParts(path, header);
  if (options.vocabulary) assertSameVocabulary(path, vocabularyFromBytes(parts), options.vocabulary);
  const { addon, backendsDir } = loadLlamaAddon();
  let native: NativeLlamaModel;
  try {
    native = await addon.loadModel(path, {
      backendsDir,
      contextLength: options.contextLength ?? DEFAULT_CONTEXT_LENGTH,
      // ggml's worker threads spin-wait: more threads than free cores made decoding 10-100x slower
      // on a busy 2-core machine, so leave one core to the JS thread (and everything else).
      threads: options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    });
  } catch (err) {
    throw new FileError("ENGINE_LOAD", path, (err as Error).message, { cause: err });
  }
  if (native.width() !== parts.width) {
    native.free();
    throw new FileError("VOCABULARY_MISMATCH", path, `llama.cpp reports ${native.width()} logits, the vocabulary has width ${parts.width}`);
  }
  // llama.cpp's own tokenizer (special tokens recognised) serves as `vocabulary.encode`.
  const encode = (text: string): number[] => {
    try {
      return Array.from(native.tokenize(text, true));
    } catch (err) {
      throw typedNativeError(err, "llama.cpp", "tokenization");
    }
  };
  const vocabulary = options.vocabulary ?? vocabularyFromBytes({ ...parts, encode });
  let rowCost = verifyRowCost(header.tensors.values());
  if (options.verifyCost === "measure") {
    try {
      rowCost = await measureVerifyRowCost(native);
    } catch (err) {
      native.free();
      throw typedNativeError(err, "llama.cpp", "measuring the verification cost");
    }
  }
  return new CachedContextEngine(nativeContext(native), {
    name: "llama.cpp",
    vocabulary,
    contextLength: native.contextLength(),
    multiRow: true,
    verifyRowCost: rowCost,
    chatTemplate: options.chatTemplate,
  });
}

function nativeContext(native: NativeLlamaModel): NativeContext {
  return {
    evaluate: async (keep, tokens, rows) => {
      native.truncate(keep);
      await native.decode(tokens, rows);
    },
    cached: () => native.position(),
    evaluateSample: (keep, tokens, mask, temperature, topK, topP, minP) => {
      native.truncate(keep);
      return native.decodeSample(tokens, mask, temperature, topK, topP, minP);
    },
    maskReady: () => native.maskReady(),
    sample: (mask, temperature, topK, topP, minP, row) => native.sample(mask, temperature, topK, topP, minP, row),
    seed: (seed) => native.seed(seed),
    free: () => native.free(),
  };
}

