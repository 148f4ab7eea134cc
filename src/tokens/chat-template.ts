/**
 * What a chat template is to pocket-extract: how a model's chat format wraps the system prompt and
 * the user's document into one conversation whose assistant turn is open for the answer. Only the
 * type lives here, in the layer both sides reach: engines supply a template (Engine.chatTemplate),
 * prompt building uses it; ChatML, the default, is src/prompt/chatml.ts.
 */
import type { PromptSegment } from "./plain-text.js";

/** A one-turn conversation around the user's document: `prefix + document + suffix`. */
export interface ChatTurns {
  readonly prefix: readonly PromptSegment[];
  /** Ends by opening the assistant turn: generation continues right after it. */
  readonly suffix: readonly PromptSegment[];
}

/** How an engine's model wants a conversation laid out: turns in, prompt segments (text and special tokens) out. */
export interface ChatTemplate {
  /** Short name for display, e.g. "chatml". */
  readonly name: string;
  /**
   * The turns around the document for a system prompt. Only the template's own control tokens
   * are `control` segments; everything else (its words, `system`) is plain text, so no text can
   * end a turn. Must depend on `system` alone: documents of one schema share the prefix's KV cache.
   */
  turns(system: string): ChatTurns;
}
