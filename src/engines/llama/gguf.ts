/**
 * Reads a GGUF file's header, metadata and tensor directory without touching tensor data, so the
 * vocabulary and shapes of a 300+ MB model are checked in milliseconds and a missing, truncated or
 * non-GGUF file is reported (naming the file) before llama.cpp ever sees it.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { FileError } from "../../errors.js";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgufValueType } from "./gguf-format.js";

export type GgufValue = number | bigint | boolean | string | GgufValue[];

export interface GgufTensorInfo {
  readonly name: string;
  /** ggml order: dims[0] is the row length. */
  readonly dims: readonly number[];
  readonly type: number;
  /** Byte offset of the tensor's data from `GgufHeader.dataStart`. */
  readonly offset: number;
}

export interface GgufHeader {
  readonly version: number;
  readonly metadata: ReadonlyMap<string, GgufValue>;
  readonly tensors: ReadonlyMap<string, GgufTensorInfo>;
  /** File offset of the tensor data section (after the header, aligned to `general.alignment`). */
  readonly dataStart: number;
}

/** GGUF versions llama.cpp reads (v1 is long gone). */
const SUPPORTED_VERSIONS = new Set([2, 3]);
/** Corrupt lengths would otherwise turn into huge allocations. */
const MAX_STRING_BYTES = 1 << 24;
const MAX_ARRAY_LENGTH = 1 << 26;
const CHUNK = 1 << 20;
/** Byte size of each fixed-size metadata value type. */
const SCALAR_BYTES: Readonly<Record<number, number>> = {
  [GgufValueType.Uint8]: 1,
  [GgufValueType.Int8]: 1,
  [GgufValueType.Uint16]: 2,
  [GgufValueType.Int16]: 2,
  [GgufValueType.Uint32]: 4,
  [GgufValueType.Int32]: 4,
  [GgufValueType.Float32]: 4,
  [GgufValueType.Bool]: 1,
  [GgufValueType.Uint64]: 8,
  [GgufValueType.Int64]: 8,
  [GgufValueType.Float64]: 8,
};

/** Sequential little-endian reader over a file descriptor, refilled in 1 MB chunks. */
class FileCursor {
  private buf = Buffer.alloc(0);
  private at = 0;
  private filePos = 0;

  constructor(
    private readonly fd: number,
    private readonly fail: (message: string) => never,
  ) {}

  private need(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const rest = this.buf.subarray(this.at);
    const next = Buffer.alloc(Math.max(CHUNK, n) + rest.length);
    rest.copy(next);
    const read = readSync(this.fd, next, rest.length, next.length - rest.length, this.filePos);
    this.filePos += read;
    this.buf = next.subarray(0, rest.length + read);
    this.at = 0;
    if (this.buf.length < n) this.fail("file is truncated (metadata ends early)");
  }
  /** File offset of the next byte to read. */
  position(): number {
    return this.filePos - (this.buf.length - this.at);
  }
  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.at++);
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  u64(): bigint {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.at);
    this.at += 8;
    return v;
  }
  /** A u64 length or count, refused when beyond `limit`. */
  count(limit: number, what: string): number {
    const v = this.u64();
    if (v > BigInt(limit)) this.fail(`${what} ${v} is out of range (corrupt file?)`);
    return Number(v);
  }
  string(): string {
    const n = this.count(MAX_STRING_BYTES, "string length");
    this.need(n);
    const s = this.buf.toString("utf8", this.at, this.at + n);
    this.at += n;
    return s;
  }
  scalar(type: number): GgufValue {
    if (type === GgufValueType.String) return this.string();
    const n = SCALAR_BYTES[type];
    if (n === undefined) this.fail(`unknown metadata value type ${type}`);
    this.need(n);
    const b = this.buf;
    const at = this.at;
    this.at += n;
    switch (type) {
      case GgufValueType.Uint8:
        return b.readUInt8(at);
      case GgufValueType.Int8:
        return b.readInt8(at);
      case GgufValueType.Uint16:
        return b.readUInt16LE(at);
      case GgufValueType.Int16:
        return b.readInt16LE(at);
      case GgufValueType.Uint32:
        return b.readUInt32LE(at);
      case GgufValueType.Int32:
        return b.readInt32LE(at);
      case GgufValueType.Float32:
        return b.readFloatLE(at);
      case GgufValueType.Bool:
        return b.readUInt8(at) !== 0;
      case GgufValueType.Uint64:
        return b.readBigUInt64LE(at);
      case GgufValueType.Int64:
        return b.readBigInt64LE(at);
      default:
        return b.readDoubleLE(at);
    }
  }
  value(type: number): GgufValue {
    if (type !== GgufValueType.Array) return this.scalar(type);
    const itemType = this.u32();
    const n = this.count(MAX_ARRAY_LENGTH, "array length");
    const out: GgufValue[] = new Array<GgufValue>(n);
    for (let i = 0; i < n; i++) out[i] = this.value(itemType);
    return out;
  }
}

export function readGgufHeader(path: string): GgufHeader {
  const fail = (message: string): never => {
    throw new FileError("MODEL_INVALID", path, message);
  };
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new FileError("MODEL_NOT_FOUND", path, "model file not found", { cause: err });
    throw new FileError("MODEL_INVALID", path, `cannot open the model file (${code ?? String(err)})`, { cause: err });
  }
  try {
    const r = new FileCursor(fd, fail);
    let magic: number;
    try {
      magic = r.u32();
    } catch {
      return fail("not a GGUF file (shorter than the 4-byte magic)");
    }
    if (magic !== GGUF_MAGIC) fail(`not a GGUF file (magic 0x${magic.toString(16).padStart(8, "0")}, expected "GGUF")`);
    const version = r.u32();
    if (!SUPPORTED_VERSIONS.has(version)) fail(`unsupported GGUF version ${version} (supported: 2, 3)`);
    const tensorCount = r.count(MAX_ARRAY_LENGTH, "tensor count");
    const kvCount = r.count(MAX_ARRAY_LENGTH, "metadata count");
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < kvCount; i++) {
      const key = r.string();
      metadata.set(key, r.value(r.u32()));
    }
    const tensors = new Map<string, GgufTensorInfo>();
    for (let i = 0; i < tensorCount; i++) {
      const name = r.string();
      const nDims = r.u32();
      if (nDims > 8) fail(`tensor ${name} has ${nDims} dimensions (corrupt file?)`);
      const dims = Array.from({ length: nDims }, () => Number(r.u64()));
      const type = r.u32();
      const offset = Number(r.u64());
      tensors.set(name, { name, dims, type, offset });
    }
    const alignment = metadata.get("general.alignment");
    const align = typeof alignment === "number" && alignment > 0 ? alignment : GGUF_DEFAULT_ALIGNMENT;
    const dataStart = Math.ceil(r.position() / align) * align;
    return { version, metadata, tensors, dataStart };
  } finally {
    closeSync(fd);
  }
}
