/**
 * The byte layout of a serialized grammar (format version 2). Little-endian, every section
 * 4-byte aligned so the tables are read in place as typed arrays:
 *
 *   "PXGF"  u32 format version  u32 total length  u32 header, source and report lengths
 *   header (UTF-8 JSON: package version, vocabulary fingerprint)  source (UTF-8 JSON)  report
 *   (UTF-8 JSON or empty)  pad
 *   u32 states n, classes c, start, mask words w, masks m, has distinct arrays (0 or 1)
 *   classOf u8[256]  trans i32[n*c]  plainBudget i32[n*4]  dist i32[n]  forced i16[n] pad
 *   accepting u8[n]  continues u8[n]  distinct u8[n] pad  mask states u32[m]  masks u32[m*w]
 *   u32 CRC-32 of everything before it
 *
 * The texts are small JSON next to the tables (the source is the schema or GBNF text with its
 * options, grammar-source.ts; the report is parsed only when asked for); the tables are never
 * JSON. Decoding checks, in order: magic, format version, length, checksum, package version,
 * vocabulary, and the source when the caller says which one it expects; each failure is a
 * GrammarFileError naming the check.
 */
import * as zlib from "node:zlib";
import { GrammarFileError } from "../errors.js";
import { DISTINCT_ALL, DISTINCT_NONE, UNKNOWN } from "../automaton/index.js";
import { VERSION } from "../version.js";
import type { AutomatonTables } from "./restored-automaton.js";

/** Bumped when the layout changes: files of another format version are a mismatch. */
export const GRAMMAR_FORMAT_VERSION = 2;
const MAGIC = 0x46475850; // "PXGF" read as a little-endian u32
const FIXED_HEADER = 24;
const COUNTS = 6;

/** What a serialized grammar was made by and for. */
export interface GrammarFileHeader {
  readonly packageVersion: string;
  readonly vocabulary: string;
}

export interface GrammarFileContents {
  readonly header: GrammarFileHeader;
  /** The grammar's source and options (grammar-source.ts), as its key string. */
  readonly source: string;
  /** The compile report as JSON text ("" when there is none). */
  readonly report: string;
  readonly tables: AutomatonTables;
  readonly maskWords: number;
  /** [state, mask] pairs: masks computed before serializing. */
  readonly masks: ReadonlyArray<readonly [number, Uint32Array]>;
}

export function encodeGrammarFile(contents: GrammarFileContents): Uint8Array {
  assertLittleEndian();
  const { tables: t, masks, maskWords } = contents;
  const encoder = new TextEncoder();
  const header = encoder.encode(JSON.stringify(contents.header));
  const source = encoder.encode(contents.source);
  const report = encoder.encode(contents.report);
  const texts = header.length + source.length + report.length;
  const n = t.numStates;
  const sizes = sectionSizes(texts, n, t.numClasses, maskWords, masks.length);
  const bytes = new Uint8Array(sizes.total);
  const words = new Uint32Array(bytes.buffer);
  words.set([MAGIC, GRAMMAR_FORMAT_VERSION, sizes.total, header.length, source.length, report.length]);
  bytes.set(header, FIXED_HEADER);
  bytes.set(source, FIXED_HEADER + header.length);
  bytes.set(report, FIXED_HEADER + header.length + source.length);
  words.set([n, t.numClasses, t.start, maskWords, masks.length, t.hasDistinct ? 1 : 0], sizes.counts / 4);
  bytes.set(t.classOf, sizes.classOf);
  new Int32Array(bytes.buffer, sizes.trans, n * t.numClasses).set(t.trans.subarray(0, n * t.numClasses));
  new Int32Array(bytes.buffer, sizes.plainBudget, n * 4).set(t.plainBudget.subarray(0, n * 4));
  new Int32Array(bytes.buffer, sizes.dist, n).set(t.dist);
  new Int16Array(bytes.buffer, sizes.forced, n).set(t.forced);
  bytes.set(t.accepting, sizes.accepting);
  bytes.set(t.continues, sizes.accepting + n);
  bytes.set(t.distinct, sizes.accepting + 2 * n);
  const maskStates = new Uint32Array(bytes.buffer, sizes.maskStates, masks.length);
  masks.forEach(([state, mask], i) => {
    maskStates[i] = state;
    words.set(mask, sizes.masks / 4 + i * maskWords);
  });
  words[words.length - 1] = crc32(bytes.subarray(0, sizes.total - 4));
  return bytes;
}

/**
 * Reads a serialized grammar, checking it was made by this format and package version for this
 * vocabulary (and for `expectedSource` when given). The tables are views of `bytes` (copied
 * first only when they are not 4-byte aligned): do not modify the bytes afterwards.
 */
export function decodeGrammarFile(input: Uint8Array, vocabularyFingerprint: string, expectedSource?: string): GrammarFileContents {
  assertLittleEndian();
  if (input.length < FIXED_HEADER + 4) throw new GrammarFileError("length", `${input.length} bytes is too short to be a serialized grammar`);
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const fixed = new Uint32Array(bytes.buffer, bytes.byteOffset, FIXED_HEADER / 4);
  if (fixed[0] !== MAGIC) throw new GrammarFileError("magic", "these bytes are not a serialized grammar (no PXGF magic)");
  if (fixed[1] !== GRAMMAR_FORMAT_VERSION) throw new GrammarFileError("format-version", "the bytes use another serialization format", { expected: String(GRAMMAR_FORMAT_VERSION), found: String(fixed[1]) });
  if (fixed[2] !== bytes.length) throw new GrammarFileError("length", "the bytes are truncated or have extra bytes", { expected: `${fixed[2]} bytes`, found: `${bytes.length} bytes` });
  const stored = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true);
  if (crc32(bytes.subarray(0, bytes.length - 4)) !== stored) throw new GrammarFileError("checksum", "the checksum does not match: the bytes are corrupt");
  const [headerLength, sourceLength, reportLength] = [fixed[3]!, fixed[4]!, fixed[5]!];
  const texts = headerLength + sourceLength + reportLength;
  const countsAt = align(FIXED_HEADER + texts);
  if (countsAt + COUNTS * 4 > bytes.length) throw new GrammarFileError("length", "the header runs past the end of the bytes");
  const header = parseHeader(bytes.subarray(FIXED_HEADER, FIXED_HEADER + headerLength));
  if (header.packageVersion !== VERSION) throw new GrammarFileError("package-version", "the grammar was serialized by another pocket-extract version", { expected: VERSION, found: header.packageVersion });
  if (header.vocabulary !== vocabularyFingerprint) throw new GrammarFileError("vocabulary", "the grammar was compiled for another vocabulary", { expected: vocabularyFingerprint, found: header.vocabulary });
  const decoder = new TextDecoder();
  const sourceAt = FIXED_HEADER + headerLength;
  const source = decoder.decode(bytes.subarray(sourceAt, sourceAt + sourceLength));
  if (expectedSource !== undefined && source !== expectedSource) throw new GrammarFileError("source", "the grammar was compiled from another schema, grammar or options");
  const report = decoder.decode(bytes.subarray(sourceAt + sourceLength, sourceAt + sourceLength + reportLength));
  const [n, numClasses, start, maskWords, numMasks, hasDistinct] = new Uint32Array(bytes.buffer, bytes.byteOffset + countsAt, COUNTS);
  const sizes = sectionSizes(texts, n!, numClasses!, maskWords!, numMasks!);
  if (sizes.total !== bytes.length) throw new GrammarFileError("length", "the table sizes do not add up to the length", { expected: `${sizes.total} bytes`, found: `${bytes.length} bytes` });
  const at = (offset: number): number => bytes.byteOffset + offset;
  const buffer = bytes.buffer;
  const tables: AutomatonTables = {
    start: start!,
    numStates: n!,
    classOf: bytes.subarray(sizes.classOf, sizes.classOf + 256),
    numClasses: numClasses!,
    trans: new Int32Array(buffer, at(sizes.trans), n! * numClasses!),
    plainBudget: new Int32Array(buffer, at(sizes.plainBudget), n! * 4),
    dist: new Int32Array(buffer, at(sizes.dist), n!),
    forced: new Int16Array(buffer, at(sizes.forced), n!),
    accepting: bytes.subarray(sizes.accepting, sizes.accepting + n!),
    continues: bytes.subarray(sizes.accepting + n!, sizes.accepting + 2 * n!),
    hasDistinct: hasDistinct === 1,
    distinct: bytes.subarray(sizes.accepting + 2 * n!, sizes.accepting + 3 * n!),
  };
  checkRanges(tables);
  const maskStates = new Uint32Array(buffer, at(sizes.maskStates), numMasks!);
  const masks: Array<[number, Uint32Array]> = [];
  for (let i = 0; i < numMasks!; i++) {
    if (maskStates[i]! >= n!) throw new GrammarFileError("length", `mask ${i} is for state ${maskStates[i]}, past the ${n} states`);
    masks.push([maskStates[i]!, new Uint32Array(buffer, at(sizes.masks + i * maskWords! * 4), maskWords!)]);
  }
  return { header, source, report, tables, maskWords: maskWords!, masks };
}

function sectionSizes(textLength: number, n: number, numClasses: number, maskWords: number, numMasks: number) {
  const counts = align(FIXED_HEADER + textLength);
  const classOf = counts + COUNTS * 4;
  const trans = classOf + 256;
  const plainBudget = trans + n * numClasses * 4;
  const dist = plainBudget + n * 16;
  const forced = dist + n * 4;
  const accepting = align(forced + n * 2);
  const maskStates = align(accepting + 3 * n);
  const masks = maskStates + numMasks * 4;
  const total = masks + numMasks * maskWords * 4 + 4;
  return { counts, classOf, trans, plainBudget, dist, forced, accepting, maskStates, masks, total };
}

/** Every state id and class the tables hold is in range: bytes made by hand (the checksum only
 *  guards against corruption) cannot send a walk outside the tables. */
function checkRanges(t: AutomatonTables): void {
  const outside = (what: string): GrammarFileError => new GrammarFileError("length", `${what} is out of range`);
  if (t.numStates === 0 || t.start >= t.numStates) throw outside("the start state");
  if (t.numClasses === 0 || t.numClasses > 256 || t.classOf.some((c) => c >= t.numClasses)) throw outside("a byte class");
  for (let i = 0; i < t.trans.length; i++) {
    const next = t.trans[i]!;
    if (next < UNKNOWN || next >= t.numStates) throw outside(`transition ${i}`);
  }
  if (t.distinct.some((mark) => mark > DISTINCT_ALL || (mark !== DISTINCT_NONE && !t.hasDistinct))) throw outside("a distinct-array mark");
}

function parseHeader(bytes: Uint8Array): GrammarFileHeader {
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (err) {
    throw new GrammarFileError("length", `the header is not JSON (${(err as Error).message})`);
  }
  const h = header as Partial<GrammarFileHeader> | null;
  if (typeof h !== "object" || h === null || typeof h.packageVersion !== "string" || typeof h.vocabulary !== "string") {
    throw new GrammarFileError("length", "the header lacks the package version or vocabulary");
  }
  return h as GrammarFileHeader;
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function assertLittleEndian(): void {
  if (!LITTLE_ENDIAN) throw new GrammarFileError("byte-order", "serialized grammars are little-endian and this machine is big-endian");
}

/** CRC-32: zlib's, or the table-driven one on Node versions before 20.15 that lack it. */
const crc32: (bytes: Uint8Array) => number = (zlib as { crc32?: (data: Uint8Array) => number }).crc32 ?? tableCrc32;

/** CRC-32 (the zlib polynomial) in JS; exported so a test holds it equal to zlib's. */
export function tableCrc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
