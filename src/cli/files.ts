/**
 * The CLI's file access, hardened. Only regular files are read: a FIFO, a device or a directory is
 * refused from its metadata before a byte is read (opened non-blocking, so a FIFO without a writer
 * cannot hang the open), which keeps `--output /dev/full` or a pipe from flooding or stalling a
 * run. Whole-file reads are bounded. An operating-system error (ENOENT, EEXIST, ENOSPC, EISDIR,
 * EACCES ...) becomes a one-line `FileError` naming the option, the path and what to do.
 */
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { FileError, PocketExtractError, type ErrorCode } from "../errors.js";

/** What a file is to the run, for messages: "--input", "--output", "--report" ... */
export type FileRole = string;

interface ErrnoLike {
  readonly code: string;
  readonly syscall?: string;
  readonly path?: string;
}

function isErrno(err: unknown): err is ErrnoLike {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

const ERRNO: Readonly<Record<string, { readonly code: ErrorCode; readonly what: string; readonly todo: string }>> = {
  ENOENT: { code: "FILE_NOT_FOUND", what: "no such file or directory", todo: "check the path" },
  ENOTDIR: { code: "FILE_NOT_FOUND", what: "a parent of this path is not a directory", todo: "check the path" },
  EEXIST: { code: "FILE_EXISTS", what: "already exists", todo: "remove it or choose another path" },
  EISDIR: { code: "FILE_IS_DIRECTORY", what: "is a directory", todo: "give a file path" },
  EACCES: { code: "FILE_ACCESS", what: "permission denied", todo: "check the file's and its folder's permissions" },
  EPERM: { code: "FILE_ACCESS", what: "operation not permitted", todo: "check the file's and its folder's permissions" },
  EROFS: { code: "FILE_ACCESS", what: "read-only file system", todo: "write somewhere else" },
  ENXIO: { code: "FILE_NOT_REGULAR", what: "not a regular file (a socket or a device)", todo: "give a regular file" },
  ENOSPC: { code: "DISK_FULL", what: "no space left on the device", todo: "free some space" },
  EDQUOT: { code: "DISK_FULL", what: "disk quota exceeded", todo: "free some space" },
};

/**
 * `err` as a typed error when it is an operating-system file error (else undefined). `todo`
 * replaces the generic advice for the codes where the caller knows better (e.g. "--resume").
 */
export function fileErrorOf(err: unknown, role: FileRole, path?: string, todo?: Partial<Record<ErrorCode, string>>): FileError | undefined {
  if (err instanceof PocketExtractError || !isErrno(err)) return undefined;
  const known = ERRNO[err.code];
  const file = path ?? err.path ?? "?";
  if (!known) return new FileError("FILE_IO", file, `${role}: ${err.code} during ${err.syscall ?? "a file operation"}`, { cause: err });
  return new FileError(known.code, file, `${role}: ${known.what}; ${todo?.[known.code] ?? known.todo}`, { cause: err });
}

/** Runs `action`, turning an operating-system error into the typed error of `fileErrorOf`. */
export async function withFileErrors<T>(role: FileRole, path: string, action: () => Promise<T> | T, todo?: Partial<Record<ErrorCode, string>>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    throw fileErrorOf(err, role, path, todo) ?? err;
  }
}

/** Opens `path` for reading, refusing anything but a regular file before reading from it. */
export async function openRegularFile(path: string, role: FileRole): Promise<FileHandle> {
  const handle = await withFileErrors(role, path, () => open(path, constants.O_RDONLY | constants.O_NONBLOCK));
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new FileError("FILE_IS_DIRECTORY", path, `${role}: is a directory; give a file path`);
    if (!info.isFile()) throw new FileError("FILE_NOT_REGULAR", path, `${role}: not a regular file (a device, FIFO or socket); give a regular file`);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The whole of a regular file as UTF-8, refused when it is larger than `maxBytes`. */
export async function readRegularFile(path: string, role: FileRole, maxBytes: number): Promise<string> {
  const handle = await openRegularFile(path, role);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new FileError("FILE_TOO_LARGE", path, `${role}: ${size} bytes, over the limit of ${maxBytes}; give a smaller file`);
    // Read one byte past the limit: a file that grew since stat() is refused, not read on.
    const buffer = Buffer.alloc(Math.min(maxBytes, size) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw new FileError("FILE_TOO_LARGE", path, `${role}: over the limit of ${maxBytes} bytes; give a smaller file`);
    return buffer.toString("utf8", 0, length);
  } finally {
    await handle.close();
  }
}
