/**
 * The files a run reads and writes must be distinct: `--report out.jsonl` or `--summary-json
 * in.jsonl` would overwrite the results or the input at the end of the run. Paths are compared
 * after resolving symbolic links (and, for files that exist, by device and inode, which also
 * catches hard links), and refused before anything is written.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { FileError } from "../errors.js";

export interface NamedPath {
  /** The option naming it, for the message: "--input", "--report" ... */
  readonly role: string;
  readonly path: string;
}

/** Throws PATH_CONFLICT when two of `paths` name the same file. */
export function assertDistinctFiles(paths: readonly NamedPath[]): void {
  const seen = new Map<string, NamedPath>();
  for (const named of paths) {
    for (const key of identities(named.path)) {
      const earlier = seen.get(key);
      if (earlier) {
        throw new FileError(
          "PATH_CONFLICT",
          named.path,
          `${named.role} is the same file as ${earlier.role} (${earlier.path}); writing it would destroy that file: give another path`,
        );
      }
      seen.set(key, named);
    }
  }
}

/** The keys a path is known by: its real path, and its device:inode when it exists. */
function identities(path: string): string[] {
  const real = realPath(path);
  try {
    const { dev, ino } = statSync(real);
    return [`path:${real}`, `inode:${dev}:${ino}`];
  } catch {
    return [`path:${real}`];
  }
}

/**
 * `path` with symbolic links resolved, also when the file does not exist yet (or is a dangling
 * link, whose target a write would create).
 */
export function realPath(path: string, hops = 0): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    const inParent = join(realPath(parent, hops), basename(path));
    const link = readLink(inParent);
    return link !== undefined && hops < MAX_LINK_HOPS ? realPath(resolve(dirname(inParent), link), hops + 1) : inParent;
  }
}

const MAX_LINK_HOPS = 40;

function readLink(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
