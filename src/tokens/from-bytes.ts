/**
 * A Vocabulary from bytes an engine hands over (the MNN engine reads them from its own
 * tokenizer): `(id) => bytes` plus the logits width and the special/eos/pad ids. The bytes are
 * copied once at construction. Not a tokenizer: without an `encode` function, `encode` throws
 * ENCODE_UNAVAILABLE; `decode` defaults to UTF-8 decoding of the concatenated bytes.
 */
import { PocketExtractError } from "../errors.js";
import { packBytes, PackedVocabulary } from "./packed.js";
import type { Vocabulary } from "./vocabulary.js";

/** What vocabularyFromBytes reads: the logits width, each token's bytes, and the special, end and padding ids. */
export interface VocabularyFromBytesOptions {
  /** Logits width: ids 0..width-1. */
  width: number;
  /** Exact bytes of a token, or undefined when the id has none (special tokens: their text's UTF-8). */
  bytes: (id: number) => Uint8Array | undefined;
  specialIds: readonly number[];
  eosIds: readonly number[];
  padId?: number;
  encode?: (text: string) => number[];
  decode?: (ids: readonly number[]) => string;
}

/** Builds a Vocabulary from token bytes an engine hands over (width, bytes per id, special and end ids). */
export function vocabularyFromBytes(options: VocabularyFromBytesOptions): Vocabulary {
  const { width } = options;
  if (!Number.isInteger(width) || width <= 0) {
    throw new PocketExtractError("OPTION_INVALID", `vocabularyFromBytes: width must be a positive integer, got ${width}`);
  }
  const all = new Array<Uint8Array | undefined>(width);
  let size = 0;
  for (let id = 0; id < width; id++) {
    const b = options.bytes(id);
    all[id] = b;
    if (b !== undefined && b.length > 0) size = id + 1;
  }
  const packed = packBytes(size, (id) => all[id]);
  const inRange = (what: string, ids: readonly number[]): void => {
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || id >= size || packed.offsets[id] === packed.offsets[id + 1]) {
        throw new PocketExtractError("OPTION_INVALID", `vocabularyFromBytes: ${what} id ${id} is not a token with bytes (size ${size})`);
      }
    }
  };
  inRange("special", options.specialIds);
  inRange("eos", options.eosIds);
  if (options.padId !== undefined) inRange("pad", [options.padId]);
  const special = new Uint8Array(size);
  for (const id of options.specialIds) special[id] = 1;

  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true }); // keep a leading U+FEFF: it is token text
  const concatDecode = (ids: readonly number[]): string => {
    const parts = ids.map((id) => packed.data.subarray(packed.offsets[id], packed.offsets[id + 1]));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return utf8.decode(out);
  };
  const noEncode = (): never => {
    throw new PocketExtractError("ENCODE_UNAVAILABLE", "this vocabulary was built from engine bytes without an encode function; it cannot tokenize text");
  };

  return new PackedVocabulary({
    width,
    packed,
    special,
    eosIds: options.eosIds,
    padId: options.padId,
    encode: options.encode ?? noEncode,
    decode: options.decode ?? concatDecode,
  });
}
