/**
 * The one in-memory Vocabulary implementation: every id's bytes packed into one Uint8Array with
 * an offsets table, special flags, eos/pad ids and the encode/decode functions a loader supplies.
 * Loaders (tokenizer.json, engine-provided bytes) build one of these; they do not subclass it.
 * Not a tokenizer itself: encode/decode are delegated.
 */
import { createHash } from "node:crypto";
import { PocketExtractError } from "../errors.js";
import type { Vocabulary } from "./vocabulary.js";

/** Token bytes for ids 0..size-1: bytes of id i are data[offsets[i] .. offsets[i+1]). */
export interface PackedBytes {
  readonly data: Uint8Array;
  readonly offsets: Uint32Array;
}

export interface PackedVocabularyParts {
  readonly width: number;
  readonly packed: PackedBytes;
  /** special[id] = 1 for special/added tokens (length = size). */
  readonly special: Uint8Array;
  readonly eosIds: readonly number[];
  readonly padId: number | undefined;
  readonly encode: (text: string) => number[];
  /** Called only with ids that have bytes; must return "" for no ids. */
  readonly decode: (ids: readonly number[]) => string;
}

const EMPTY = new Uint8Array(0);

/** Packs `bytesOf(id)` for ids 0..size-1 (undefined = no bytes). */
export function packBytes(size: number, bytesOf: (id: number) => Uint8Array | undefined): PackedBytes {
  const pieces: (Uint8Array | undefined)[] = new Array(size);
  let total = 0;
  for (let id = 0; id < size; id++) {
    const b = bytesOf(id);
    pieces[id] = b;
    total += b?.length ?? 0;
  }
  const data = new Uint8Array(total);
  const offsets = new Uint32Array(size + 1);
  let at = 0;
  for (let id = 0; id < size; id++) {
    const b = pieces[id];
    if (b) {
      data.set(b, at);
      at += b.length;
    }
    offsets[id + 1] = at;
  }
  return { data, offsets };
}

export class PackedVocabulary implements Vocabulary {
  readonly width: number;
  readonly size: number;
  readonly eosIds: readonly number[];
  readonly padId: number | undefined;
  private readonly data: Uint8Array;
  private readonly offsets: Uint32Array;
  private readonly special: Uint8Array;
  private readonly specialByText: ReadonlyMap<string, number>;
  private readonly encodeFn: (text: string) => number[];
  private readonly decodeFn: (ids: readonly number[]) => string;
  private fingerprintCache: string | undefined;

  constructor(parts: PackedVocabularyParts) {
    this.width = parts.width;
    this.size = parts.packed.offsets.length - 1;
    this.data = parts.packed.data;
    this.offsets = parts.packed.offsets;
    this.special = parts.special;
    this.eosIds = Object.freeze([...parts.eosIds]);
    this.padId = parts.padId;
    this.encodeFn = parts.encode;
    this.decodeFn = parts.decode;
    const byText = new Map<string, number>();
    const utf8 = new TextDecoder("utf-8", { ignoreBOM: true }); // keep a leading U+FEFF: it is token text
    for (let id = 0; id < this.size; id++) {
      if (!this.special[id]) continue;
      const text = utf8.decode(this.data.subarray(this.offsets[id], this.offsets[id + 1]));
      if (!byText.has(text)) byText.set(text, id);
    }
    this.specialByText = byText;
  }

  /** A view into the packed store: do not modify it. Ids in [size, width) give empty bytes. */
  bytes(id: number): Uint8Array {
    this.checkId(id);
    if (id >= this.size) return EMPTY;
    return this.data.subarray(this.offsets[id], this.offsets[id + 1]);
  }

  isSpecial(id: number): boolean {
    return id >= 0 && id < this.size && this.special[id] === 1;
  }

  specialId(text: string): number | undefined {
    return this.specialByText.get(text);
  }

  encode(text: string): number[] {
    return this.encodeFn(text);
  }

  /** Throws TOKEN_UNKNOWN for an id without bytes (outside the tokenizer or a gap in it). */
  decode(ids: readonly number[]): string {
    for (const id of ids) {
      if (this.bytes(id).length === 0) {
        throw new PocketExtractError("TOKEN_UNKNOWN", `token id ${id} has no bytes (tokenizer defines ${this.size} ids)`);
      }
    }
    return ids.length === 0 ? "" : this.decodeFn(ids);
  }

  /**
   * sha256 over a version tag, width, size, eos and pad ids, then every id's byte length,
   * special flag and bytes. Computed once, on first use.
   */
  get fingerprint(): string {
    if (this.fingerprintCache === undefined) {
      const hash = createHash("sha256");
      hash.update(JSON.stringify({ v: 1, width: this.width, size: this.size, eos: this.eosIds, pad: this.padId ?? null }));
      const lengths = new DataView(new ArrayBuffer(4 * this.size));
      for (let id = 0; id < this.size; id++) lengths.setUint32(4 * id, this.offsets[id + 1]! - this.offsets[id]!, true);
      hash.update(new Uint8Array(lengths.buffer));
      hash.update(this.special);
      hash.update(this.data);
      this.fingerprintCache = hash.digest("hex");
    }
    return this.fingerprintCache;
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.width) {
      throw new PocketExtractError("TOKEN_UNKNOWN", `token id ${id} is outside the vocabulary width ${this.width}`);
    }
  }
}
