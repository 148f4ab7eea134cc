/**
 * An abort controller that also follows a caller's signal: the extractor aborts its own work (a
 * stream's reader stopped, a batch loop was left) while the caller's `signal` still cancels it.
 * `release` detaches it from the caller's signal once the work is over.
 */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  abort(reason: unknown): void;
  release(): void;
}

export function linkedAbort(outer: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const follow = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    release: () => outer?.removeEventListener("abort", follow),
  };
}
