/**
 * The grounding evaluation set (fixtures/grounding, zh and en) as extraction runs whose model
 * output is known: each case's gold values, serialized as the grammar writes them, replayed by the
 * ScriptedEngine through the real prompt, grammar and decode loop. Real extraction outputs copy
 * the document, which random-weight models never do, so this is how speculative decoding's
 * forward passes per output token are measured on realistic outputs.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GGUF_FIXTURE_SEED, PRESETS } from "../../fixtures/gguf/index.js";
import { qwen3Tensors } from "../../fixtures/gguf/model.js";
import type { GroundingCase } from "../../fixtures/grounding/evaluate.js";
import { compileGrammar } from "../../src/mask/index.js";
import { DraftRecord, generate, type GenerateOptions, type GenerateResult } from "../../src/decode/index.js";
import type { Engine } from "../../src/engines/engine.js";
import { verifyRowCost } from "../../src/engines/llama/verify-cost.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { buildPrompt } from "../../src/prompt/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";

const groundingDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "grounding");

export interface ReplayCase {
  readonly id: string;
  readonly language: "zh" | "en";
  readonly text: string;
  /** A closed object schema with the gold's fields and their JSON types. */
  readonly schema: Record<string, unknown>;
  /** The gold values in compact JSON, the form the grammar writes. */
  readonly output: string;
}

export function replayCases(): ReplayCase[] {
  return (["en", "zh"] as const).flatMap((language) =>
    (JSON.parse(readFileSync(join(groundingDir, `cases-${language}.json`), "utf8")) as GroundingCase[]).map((c) => {
      const properties = Object.fromEntries(
        Object.entries(c.gold).map(([key, value]) => [key, { type: Number.isInteger(value) ? "integer" : typeof value === "number" ? "number" : "string" }]),
      );
      return {
        id: c.id,
        language,
        text: c.text,
        schema: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
        output: JSON.stringify(c.gold),
      };
    }),
  );
}

/**
 * A draft record for the replayed model, the pocket-shaped one (MNN-Pocket-0.3B's shape): its
 * gates require the confirmed share its shape gives (Engine.verifyRowCost), as the llama.cpp
 * engine's would. The scripted engine has no forward pass of its own to say what a row costs.
 */
export function pocketDraftRecord(vocabulary: Vocabulary): DraftRecord {
  return new DraftRecord(verifyRowCost(qwen3Tensors(PRESETS.pocket, vocabulary.width, GGUF_FIXTURE_SEED)));
}

/** Grammar masks written (computed or read from the cache) during replays given it. */
export interface MaskCount {
  masks: number;
}

/**
 * Decodes one case through `engine` (a ScriptedEngine replaying its output when not given),
 * counting the masks the decode loop asks for into `count` when given.
 */
export async function replay(c: ReplayCase, vocabulary: Vocabulary, options: GenerateOptions, engine?: Engine, count?: MaskCount): Promise<GenerateResult> {
  const grammar = compileGrammar(c.schema, vocabulary, { cache: false }).tokens;
  if (count) {
    const writeMask = grammar.writeMask.bind(grammar);
    grammar.writeMask = (state, out) => {
      count.masks++;
      writeMask(state, out);
    };
  }
  const prompt = buildPrompt({ jsonSchema: c.schema, text: c.text, language: c.language });
  const subject = engine ?? new ScriptedEngine({ vocabulary, script: c.output, canonical: true });
  const session = await subject.createSession();
  try {
    return await generate(session, grammar, vocabulary.encode(prompt.full), options);
  } finally {
    await session.close();
  }
}
