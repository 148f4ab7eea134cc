/**
 * Loads modules from another checkout of the project (the baseline of an A/B bench) into this
 * process: each tree gets its own module instances (vocabulary index, shared automata, JIT
 * profile), so both can be measured side by side, under the same load, in one run. The baseline
 * is a directory holding another revision's sources, e.g. `git archive main | tar -x -C /tmp/base`
 * with node_modules (and fixtures/generated, if used) linked from this tree.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_MASKBENCH_DIR, listMaskbench } from "./corpus.js";
import { fromRoot } from "./paths.js";

/** Imports a module of the tree in `dir` by its path in that tree (e.g. "src/mask/index.ts"); for
 *  this tree itself, the modules it has already imported. */
export type TreeLoader = <T>(path: string) => Promise<T>;

export function treeLoader(dir: string): TreeLoader {
  const baseDir = resolve(dir);
  return async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(baseDir, path)).href)) as T;
}

/**
 * What an A/B bench over MaskBench files starts from: the baseline checkout (`--baseline`, else
 * exits with a usage line) and the corpus directory and its file names (exits quietly when the
 * corpus is absent).
 */
export function abInputs(bench: string, baseline: string | undefined, corpusDir: string | undefined): { baseline: string; dir: string; names: string[] } {
  if (baseline === undefined) {
    console.log(`${bench}: --baseline <dir> is required (a checkout of the revision to compare against)`);
    process.exit(1);
  }
  const dir = fromRoot(corpusDir ?? DEFAULT_MASKBENCH_DIR);
  const names = listMaskbench(dir);
  if (!names) {
    console.log(`${bench}: corpus directory not found: ${dir}`);
    process.exit(0);
  }
  return { baseline, dir, names };
}
