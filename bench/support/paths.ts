/** Where benchmark inputs and outputs live, relative to the project root. */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A path given relative to the project root (absolute paths pass through). */
export function fromRoot(path: string): string {
  return resolve(PROJECT_ROOT, path);
}

/** bench/results/<name>, creating the directory (it is gitignored). */
export function resultPath(name: string): string {
  const dir = join(PROJECT_ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** A timestamp usable in file names: 2026-11-29T16-36-24. */
export function stamp(): string {
  return new Date().toISOString().slice(0, 19).replace(/:/g, "-");
}
