/**
 * ScriptedEngine: replays a chosen model output through the real mask path. At each step it
 * prefers the allowed token that spells the most of the target text at the current position; once
 * the mask forbids the target (an invalid output), it bends: it takes the allowed token that keeps
 * the most of the target, and falls back to ending the document (eos) or the lowest allowed id.
 * With `canonical`, it first prefers the token the vocabulary's own tokenizer writes at the current
 * position (a trained model writes text tokenized the way its tokenizer does, which is what
 * prompt lookup drafting relies on). Tests use it to show exactly what the grammar does to a
 * given output.
 */
import type { ChatTemplate } from "../../tokens/index.js";
import type { Vocabulary } from "../../tokens/index.js";
import { hasBit, nthSetBit } from "../../util/index.js";
import type { EngineSession, SessionOptions } from "../engine.js";
import { TestEngine, TestSession } from "./session-base.js";

/** ScriptedEngine's vocabulary and the answer text it prefers. */
export interface ScriptedEngineOptions {
  readonly vocabulary: Vocabulary;
  /** The output to replay, or a function choosing it from the prompt text (for extract() tests). */
  readonly script: string | ((prompt: string) => string);
  /** Prefer the tokenizer's own tokenization of the script where the mask allows it. Default false. */
  readonly canonical?: boolean;
  readonly contextLength?: number;
  /** The chat template prompts are built in (Engine.chatTemplate); ChatML when absent. */
  readonly chatTemplate?: ChatTemplate;
}

/**
 * A pure-TypeScript engine that prefers the tokens of a scripted answer: makes extraction tests
 * deterministic without a model.
 */
export class ScriptedEngine extends TestEngine {
  readonly name = "scripted";

  constructor(private readonly options: ScriptedEngineOptions) {
    super(options);
  }

  protected open(options: SessionOptions): EngineSession {
    return new ScriptedSession(options, this.vocabulary, this.options.script, this.options.canonical ?? false);
  }
}

const encoder = new TextEncoder();

class ScriptedSession extends TestSession {
  private target: Uint8Array | undefined;
  /** With `canonical`: the tokenizer's token starting at each byte offset of the target. */
  private canonicalAt: Map<number, number> | undefined;

  constructor(
    options: SessionOptions,
    private readonly vocabulary: Vocabulary,
    private readonly script: string | ((prompt: string) => string),
    private readonly canonical: boolean,
  ) {
    super(options);
  }

  protected choose(mask: Uint32Array, generated: readonly number[]): number {
    const target = this.targetBytes();
    const at = this.matchedLength(target, generated);
    const preferred = this.canonicalAt?.get(at);
    if (preferred !== undefined && hasBit(mask, preferred)) return preferred;
    let best = -1;
    let bestLen = 0;
    if (at >= 0 && at < target.length) {
      for (let w = 0; w < mask.length; w++) {
        let v = mask[w]!;
        while (v !== 0) {
          const low = v & -v;
          const id = (w << 5) + 31 - Math.clz32(low);
          v ^= low;
          const len = this.commonPrefix(id, target, at);
          if (len > bestLen) {
            best = id;
            bestLen = len;
          }
        }
      }
    }
    if (best >= 0) return best;
    const eos = this.vocabulary.eosIds.find((id) => hasBit(mask, id));
    return eos ?? nthSetBit(mask, 0);
  }

  /** How many target bytes the generated tokens spell, or -1 once they left the target. */
  private matchedLength(target: Uint8Array, generated: readonly number[]): number {
    let at = 0;
    for (const id of generated) {
      const b = this.vocabulary.bytes(id);
      for (let i = 0; i < b.length; i++, at++) if (target[at] !== b[i]) return -1;
    }
    return at;
  }

  /** Bytes of `id` that agree with the target from `at`; only a whole-token agreement counts. */
  private commonPrefix(id: number, target: Uint8Array, at: number): number {
    if (this.vocabulary.isSpecial(id)) return 0;
    const b = this.vocabulary.bytes(id);
    if (b.length === 0 || at + b.length > target.length) return 0;
    for (let i = 0; i < b.length; i++) if (b[i] !== target[at + i]) return 0;
    return b.length;
  }

  private targetBytes(): Uint8Array {
    if (!this.target) {
      const text = typeof this.script === "string" ? this.script : this.script(this.vocabulary.decode(this.prompt ?? []));
      this.target = encoder.encode(text);
      if (this.canonical) {
        this.canonicalAt = new Map();
        let offset = 0;
        for (const id of this.vocabulary.encode(text)) {
          this.canonicalAt.set(offset, id);
          offset += this.vocabulary.bytes(id).length;
        }
      }
    }
    return this.target;
  }
}
