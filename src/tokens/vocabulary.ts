/**
 * The vocabulary as the grammar engine sees it: token id -> exact bytes. It knows nothing of
 * grammars or engines. Special/added tokens (chat markers, eos, pad) are never part of JSON text,
 * so the trie and the masks leave them out; ids in [size, width) have no bytes at all (the model's
 * logits are wider than its tokenizer) and are never allowed.
 */
export interface Vocabulary {
  /** Logits width of the model: the mask covers exactly this many ids. */
  readonly width: number;
  /** Number of ids the tokenizer defines (ids >= size have no bytes). */
  readonly size: number;
  /** Exact bytes of a token (byte-level BPE undone). Special tokens give their text's UTF-8. */
  bytes(id: number): Uint8Array;
  /** True for special/added tokens: never allowed inside generated JSON. */
  isSpecial(id: number): boolean;
  /** End-of-generation ids (e.g. `<|im_end|>`, `<|endoftext|>`). */
  readonly eosIds: readonly number[];
  /** Padding id, if the model has one. */
  readonly padId: number | undefined;
  /** Id of a special token by its text (e.g. "<|im_start|>"), if present. */
  specialId(text: string): number | undefined;
  /** Canonical tokenization (special tokens in the text are recognised). */
  encode(text: string): number[];
  /** Decoded text of ids (invalid UTF-8 becomes U+FFFD). */
  decode(ids: readonly number[]): string;
  /** Stable hash of (width, every id's bytes, specials, eos and pad ids): part of every compile-cache key. */
  readonly fingerprint: string;
}
