/**
 * The output file's lock: `<output>.lock`, created exclusively for the run and removed at its end,
 * so two runs (two `--resume` of the same job, say) never append to one output at once. The lock
 * holds the owner's pid and host; a lock whose process is gone (a SIGKILLed run) is stale and is
 * taken over. It is written whole before it appears (a private file hard-linked into place), so
 * nobody ever reads a half-written lock.
 */
import { hostname } from "node:os";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { FileError } from "../errors.js";
import { fileErrorOf } from "./files.js";
import { realPath } from "./paths.js";

interface LockOwner {
  readonly pid: number;
  readonly host: string;
}

export interface OutputLock {
  readonly path: string;
  /** Removes the lock if it is still ours. */
  release(): void;
}

/** Beside the output's real file, so two spellings of one output (a symbolic link) share one lock. */
export function lockPathOf(output: string): string {
  return `${realPath(output)}.lock`;
}

/** Takes the lock of `output`, or throws OUTPUT_LOCKED naming the run that holds it. */
export function lockOutput(output: string): OutputLock {
  const path = lockPathOf(output);
  const me: LockOwner = { pid: process.pid, host: hostname() };
  const mine = `${path}.${me.pid}`;
  // A folder that is missing or not writable is reported against the output the user named.
  const fail = (err: unknown): never => {
    throw fileErrorOf(err, "--output", output) ?? err;
  };
  try {
    writeFileSync(mine, `${JSON.stringify(me)}\n`);
  } catch (err) {
    fail(err);
  }
  try {
    // Two tries: the second follows the removal of a stale lock.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(mine, path);
        return { path, release: () => releaseLock(path, me) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") fail(err);
      }
      const owner = readOwner(path);
      if (owner === undefined) continue; // released meanwhile
      if (isAlive(owner)) throw lockedBy(path, output, owner);
      removeStale(path, owner);
    }
    const owner = readOwner(path);
    throw lockedBy(path, output, owner ?? { pid: 0, host: "?" });
  } finally {
    unlinkQuietly(mine);
  }
}

function lockedBy(path: string, output: string, owner: LockOwner): FileError {
  return new FileError(
    "OUTPUT_LOCKED",
    output,
    `--output: another run (pid ${owner.pid} on ${owner.host}) is writing this file; wait for it to end, or if no such run exists, delete ${path}`,
  );
}

function readOwner(path: string): LockOwner | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fileErrorOf(err, "--output lock", path) ?? err;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && typeof value.host === "string") return { pid: value.pid!, host: value.host };
  } catch {
    // not ours: fall through
  }
  throw new FileError("OUTPUT_LOCKED", path, "--output lock: not a pocket-extract lock file; remove it if no run is writing the output");
}

/** True unless the owner is a process of this host that no longer exists. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // cannot tell: assume it runs
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}

/**
 * Moves the stale lock aside before deleting it: of several runs finding the same stale lock,
 * only one renames that file; one that renamed a fresh lock instead (taken by a faster run in
 * between) puts it back and reports it as held.
 */
function removeStale(path: string, stale: LockOwner): void {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw fileErrorOf(err, "--output lock", path) ?? err;
  }
  const moved = readOwner(aside);
  if (moved && (moved.pid !== stale.pid || moved.host !== stale.host)) {
    try {
      linkSync(aside, path);
    } catch {
      // another run locked meanwhile: the next attempt reports it
    }
  }
  unlinkQuietly(aside);
}

function releaseLock(path: string, me: LockOwner): void {
  try {
    const owner = readOwner(path);
    if (owner?.pid === me.pid && owner.host === me.host) unlinkSync(path);
  } catch {
    // best effort: a lock left behind is stale once this process exits
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
