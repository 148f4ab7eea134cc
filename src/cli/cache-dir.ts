/**
 * --cache-dir of run, serve and worker: createExtractor's `cacheDir`, with the cache's warnings
 * (a grammar file that could not be loaded and was recompiled, or could not be written) printed
 * on stderr as the CLI's other warnings are, not as a Node process warning.
 */
import type { GrammarCacheOptions } from "../extract/index.js";
import type { CliIo } from "./io.js";

export function grammarCacheOptions(cacheDir: string | undefined, io: CliIo): GrammarCacheOptions {
  if (cacheDir === undefined) return {};
  return { cacheDir, onCacheWarning: (w) => io.stderr.write(`warning: --cache-dir ${w.file}: ${w.error.code}: ${w.error.message} (${w.action})\n`) };
}
