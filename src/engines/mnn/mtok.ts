/**
 * The added-token table of MNN's binary tokenizer (`tokenizer.mtok`, written by MNN's llmexport.py
 * from a tokenizer.json). MNN needs it to be read here for two reasons:
 * - Its header lists as special only the tokens tokenizer.json marks `special: true` (for the
 *   Qwen3 vocabulary 14 of the 26 added tokens; not `<think>`, `<tool_call>`, `<|fim_*|>`, …),
 *   while the SDK treats every added token as special: none may appear inside generated JSON.
 * - MNN's single-id decode (`tokenizer_decode`) looks ids up in the BPE model's vocabulary only,
 *   which holds no added token, so MNN gives no bytes for any of them.
 * The table follows the normalizer, pre-tokenizer, model and decoder sections, so those are
 * walked (not interpreted) in the layout MNN's PipelineTokenizer::load_vocab_binary reads.
 */

/** One entry of the added-token table: its id, its text as bytes, tokenizer.json's `special` flag. */
export interface MtokAddedToken {
  readonly id: number;
  readonly content: Uint8Array;
  readonly special: boolean;
}

/** MNN's tokenizer type number for the binary pipeline format (second number of the first line). */
export const MTOK_PIPELINE_TYPE = 4;

/** Little-endian cursor that throws a plain Error past the end (the caller names the file). */
class Cursor {
  private at: number;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
  ) {
    this.at = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private take(n: number): number {
    if (this.at + n > this.bytes.length) throw new Error(`truncated at byte ${this.at} (needs ${n} more)`);
    const at = this.at;
    this.at += n;
    return at;
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }
  u16(): number {
    return this.view.getUint16(this.take(2), true);
  }
  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }
  skip(n: number): void {
    this.take(n);
  }
  /** A u16-length-prefixed string, as bytes. */
  str(): Uint8Array {
    const length = this.u16();
    const at = this.take(length);
    return this.bytes.subarray(at, at + length);
  }
  skipStr(): void {
    this.str();
  }
}

function skipNormTable(c: Cursor): void {
  const count = c.u32();
  for (let i = 0; i < count; i++) {
    c.u32(); // code point
    c.skipStr(); // its normalized UTF-8
  }
}

function skipNormalizer(c: Cursor): void {
  const type = c.u8();
  switch (type) {
    case 0: // none
    case 1: // NFKC, old format without table
      return;
    case 2: // Prepend
      return c.skipStr();
    case 3: // Replace: pattern, content
      c.skipStr();
      return c.skipStr();
    case 4: {
      // Sequence
      const count = c.u32();
      for (let i = 0; i < count; i++) skipNormalizer(c);
      return;
    }
    case 5: // Bert: clean, chinese, strip accents, lowercase
      return c.skip(4);
    case 6: // NFC / NFKC with table
      return skipNormTable(c);
    case 7: {
      // Bert with NFD table when stripping accents
      c.skip(2);
      const strip = c.u8();
      c.skip(1);
      if (strip) skipNormTable(c);
      return;
    }
    case 8: // Strip: left, right
      return c.skip(2);
    default:
      // MNN reads nothing more for an unknown type; neither do we.
      return;
  }
}

function skipPreTokenizer(c: Cursor): void {
  const type = c.u8();
  switch (type) {
    case 1: // ByteLevel: use_regex
    case 2: // Digits: individual
      return c.skip(1);
    case 3: // Metaspace: replacement, add_prefix_space
      c.skipStr();
      return c.skip(1);
    case 4: // Split: pattern, invert, behavior
      c.skipStr();
      return c.skip(2);
    case 6: {
      // Sequence
      const count = c.u32();
      for (let i = 0; i < count; i++) skipPreTokenizer(c);
      return;
    }
    default: // 0 none, 5 Bert, unknown: nothing more
      return;
  }
}

function skipModel(c: Cursor): void {
  const type = c.u8();
  const vocabSize = c.u32();
  // Per entry: the token string and its u32 id (Unigram adds an f64 score).
  let entryExtra = 4;
  let mergeCount = 0;
  if (type === 0) {
    // BPE: byte_fallback, byte_level, merge count; merges (3 × u32) follow the vocabulary
    c.skip(2);
    mergeCount = c.u32();
  } else if (type === 1) {
    // WordPiece: unk token, prefix, max chars
    c.skipStr();
    c.skipStr();
    c.u32();
  } else if (type === 2) {
    // Unigram: unk id, byte_fallback
    c.u32();
    c.u8();
    entryExtra = 12;
  } else {
    throw new Error(`unknown tokenizer model type ${type}`);
  }
  for (let i = 0; i < vocabSize; i++) {
    c.skipStr();
    c.skip(entryExtra);
  }
  c.skip(mergeCount * 12);
}

function skipDecoder(c: Cursor): void {
  const type = c.u8();
  switch (type) {
    case 2: // Metaspace: replacement, add_prefix_space
    case 3: // WordPiece: prefix, cleanup
      c.skipStr();
      return c.skip(1);
    case 5: // Replace: pattern, content
      c.skipStr();
      return c.skipStr();
    case 6: // Strip: content, start, stop
      c.skipStr();
      return c.skip(8);
    case 7: {
      // Sequence
      const count = c.u32();
      for (let i = 0; i < count; i++) skipDecoder(c);
      return;
    }
    default: // 0 ByteLevel, 1 ByteFallback, 4 Fuse, unknown: nothing more
      return;
  }
}

/** Byte offset just past the `lines`-th newline, or -1. */
function afterLines(bytes: Uint8Array, lines: number): number {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) return -1;
    at = nl + 1;
  }
  return at;
}

/**
 * The added tokens of a `.mtok` file's contents (three text header lines, then the binary body).
 * Throws an Error saying where the file is malformed.
 */
export function readMtokAddedTokens(bytes: Uint8Array): MtokAddedToken[] {
  const body = afterLines(bytes, 3);
  if (body < 0) throw new Error("the three header lines are incomplete");
  const c = new Cursor(bytes, body);
  skipNormalizer(c);
  skipPreTokenizer(c);
  skipModel(c);
  skipDecoder(c);
  const count = c.u32();
  const tokens: MtokAddedToken[] = [];
  for (let i = 0; i < count; i++) {
    const id = c.u32();
    const special = c.u8() !== 0;
    c.skip(2); // lstrip, rstrip
    tokens.push({ id, special, content: c.str() });
  }
  return tokens;
}
