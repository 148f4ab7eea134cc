/**
 * What `serve` and `worker` share: the extractor pool they open from the command line (N engines
 * loaded from --model, or N extractors over an injected engine) and the wait for the stop signal.
 */
import { createExtractor, type Extractor } from "../extract/index.js";
import { ExtractorPool } from "../pool/index.js";
import { UsageError } from "./usage-error.js";
import { grammarCacheOptions } from "./cache-dir.js";
import type { CliIo, StopSignal } from "./io.js";
import type { ServeArgs, WorkerArgs } from "./serving-args.js";

/** N extractors: N engines loaded from --model, or N extractors over the injected engine. */
export async function openPool(args: ServeArgs | WorkerArgs, size: number, io: CliIo): Promise<ExtractorPool> {
  const extractors: Extractor[] = [];
  const cache = grammarCacheOptions(args.cacheDir, io);
  try {
    for (let i = 0; i < size; i++) {
      extractors.push(
        io.engine
          ? await createExtractor({ ...args.extraction, ...cache, engine: io.engine, maxTokens: args.maxTokens })
          : await createExtractor({ ...args.extraction, ...cache, model: args.model!, threads: args.threads, contextLength: args.contextLength, maxTokens: args.maxTokens }),
      );
    }
  } catch (err) {
    if (!io.engine) await Promise.all(extractors.map((e) => e.dispose()));
    throw err;
  }
  return new ExtractorPool(extractors, { maxWaiting: "maxWaiting" in args ? args.maxWaiting : undefined });
}

/** An injected engine stays the caller's: only engines loaded here are disposed. */
export async function disposePool(pool: ExtractorPool, io: CliIo): Promise<void> {
  if (!io.engine) await pool.dispose();
}

/** Resolves after the first signal's `stop` has finished; a second signal calls `abandon`. */
export function untilStopped(io: CliIo, stop: (signal: StopSignal) => Promise<void>, abandon?: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let stopping = false;
    const unsubscribe = io.signals?.subscribe((signal) => {
      if (stopping) return abandon?.();
      stopping = true;
      stop(signal).then(() => {
        unsubscribe?.();
        resolve();
      }, reject);
    });
    if (!unsubscribe) reject(new UsageError("serve and worker run until a signal stops them: no signal source"));
  });
}
