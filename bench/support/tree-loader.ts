/**
 * Loads modules from another checkout of the project (the baseline of an A/B bench) into this
 * process: each tree gets its own module instances (vocabulary index, shared automata, JIT
 * profile), so both can be measured side by side, under the same load, in one run. The baseline
 * is a directory holding another revision's sources, e.g. `git archive main | tar -x -C /tmp/base`
 * with node_modules (and fixtures/generated, if used) linked from this tree.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Imports a module of the tree in `dir` by its path in that tree (e.g. "src/mask/index.ts"); for
 *  this tree itself, the modules it has already imported. */
export type TreeLoader = <T>(path: string) => Promise<T>;

export function treeLoader(dir: string): TreeLoader {
  const baseDir = resolve(dir);
  return async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(baseDir, path)).href)) as T;
}
