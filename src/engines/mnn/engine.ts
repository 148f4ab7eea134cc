/**
 * The MNN engine: an MNN model directory (llm.mnn, llm.mnn.weight, config.json / llm_config.json,
 * tokenizer) through our native addon over MNN's Llm: raw logits, our mask, the shared sampler.
 * Sessions are serialized on the one Llm instance (see CachedContextEngine); the KV cache of a
 * prompt prefix shared by consecutive documents is reused.
 */
import { availableParallelism } from "node:os";
import { stat } from "node:fs/promises";
import { FileError } from "../../errors.js";
import { vocabularyFromBytes } from "../../tokens/index.js";
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import { CachedContextEngine } from "../native-shared/cached-context-engine.js";
import { loadMnnAddon, type NativeMnnModel } from "./addon.js";
import { readMnnModelDir } from "./model-dir.js";
import { checkEngineOptions } from "../engine-options.js";

export interface MnnEngineOptions {
  /** The MNN model directory (holding config.json and/or llm_config.json). */
  readonly modelDir: string;
  /** Context limit in tokens (prompt + output). Default: the model's max_position_embeddings, if any. */
  readonly contextLength?: number;
  /** CPU threads for MNN. Default: one core left to the JS thread (1 to 4 threads). */
  readonly threads?: number;
  /** The vocabulary the grammars were compiled for; checked id by id against MNN's tokenizer. */
  readonly vocabulary?: Vocabulary;
  /** The model's chat template when it is not ChatML (llm_config.json's template is not read; see Engine.chatTemplate). */
  readonly chatTemplate?: ChatTemplate;
}

/** The MNN engine is a CachedContextEngine plus MNN's tokenizer and chat template. */
export class MnnEngine extends CachedContextEngine {
  constructor(
    private readonly mnn: NativeMnnModel,
    vocabulary: Vocabulary,
    contextLength: number | undefined,
    chatTemplate: ChatTemplate | undefined,
  ) {
    super(mnn, { name: "mnn", vocabulary, contextLength, chatTemplate });
  }

  /** MNN's tokenizer, special tokens recognised (the default `vocabulary.encode`). */
  tokenize(text: string): number[] {
    this.assertLive();
    return Array.from(this.mnn.tokenize(text));
  }

  /** The model's chat template (from its config) applied to one user message. */
  applyChatTemplate(user: string): string {
    this.assertLive();
    return this.mnn.applyChatTemplate(user);
  }
}

/** Byte-for-byte comparison of two vocabularies; VOCABULARY_MISMATCH naming the first difference. */
function assertSameBytes(dir: string, model: Vocabulary, given: Vocabulary): void {
  const mismatch = (what: string): never => {
    throw new FileError("VOCABULARY_MISMATCH", dir, `MNN's vocabulary differs from the one given: ${what}`);
  };
  if (model.width !== given.width) mismatch(`logits width ${model.width} vs ${given.width}`);
  for (let id = 0; id < model.width; id++) {
    const a = model.bytes(id);
    const b = given.bytes(id);
    if (a.length !== b.length || !a.every((x, i) => x === b[i])) {
      mismatch(`token ${id} is ${JSON.stringify(model.decode([id]))} in MNN, ${JSON.stringify(given.decode([id]))} in the vocabulary`);
    }
  }
}

/**
 * Loads an MNN model directory. Checks, in order: the directory and its files (MODEL_NOT_FOUND,
 * MODEL_INVALID), the native addon (ENGINE_UNAVAILABLE, saying how to build it); then MNN loads
 * the model (ENGINE_LOAD; a failed load leaves nothing behind to call), and its vocabulary is
 * read back through MNN's tokenizer and checked against `options.vocabulary` (VOCABULARY_MISMATCH).
 */
export async function createMnnEngine(options: MnnEngineOptions): Promise<MnnEngine> {
  const dir = options.modelDir;
  checkEngineOptions(options);
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new FileError("MODEL_NOT_FOUND", dir, "no such directory (expected an MNN model directory)");
  if (!info.isDirectory()) throw new FileError("MODEL_INVALID", dir, "not a directory (expected an MNN model directory)");
  const model = readMnnModelDir(dir);
  const addon = loadMnnAddon();
  let native: NativeMnnModel;
  try {
    native = await addon.loadModel(model.configPath, {
      // MNN's CPU threads spin between ops: leave one core to the JS thread (and everything else).
      threads: options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    });
  } catch (err) {
    throw new FileError("ENGINE_LOAD", dir, (err as Error).message, { cause: err });
  }
  try {
    const width = native.width();
    if (model.embeddingRows !== undefined && model.embeddingRows < width) {
      throw new FileError("MODEL_INVALID", dir, `the embedding table has ${model.embeddingRows} rows, the logits width is ${width}`);
    }
    const { bytes, offsets } = native.vocabulary();
    // MNN decodes no added token of a .mtok tokenizer (they are not in its BPE vocabulary): their
    // bytes are the added-token table's text.
    const added = new Map(model.addedTokens.map((t) => [t.id, t.content]));
    const engine: MnnEngine = new MnnEngine(
      native,
      vocabularyFromBytes({
        width,
        bytes: (id) => (offsets[id + 1]! > offsets[id]! ? bytes.subarray(offsets[id]!, offsets[id + 1]!) : added.get(id)),
        specialIds: model.specialIds.filter((id) => id < width),
        eosIds: model.stopIds,
        encode: (text) => engine.tokenize(text),
      }),
      options.contextLength ?? model.contextLength,
      options.chatTemplate,
    );
    if (options.vocabulary) assertSameBytes(dir, engine.vocabulary, options.vocabulary);
    return options.vocabulary ? new MnnEngine(native, options.vocabulary, engine.contextLength, options.chatTemplate) : engine;
  } catch (err) {
    native.free();
    throw err;
  }
}
