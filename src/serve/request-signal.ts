/**
 * One abort signal per request that fires on whichever comes first: the client closing the
 * connection before its answer was written (the decode stops at the next token and the engine is
 * free at once), the per-request timeout, or the server's shutdown deadline. Its reason says which,
 * so the handler can answer 504 for a timeout and nothing at all to a client that is gone.
 */
import type { ServerResponse } from "node:http";
import { ServeError } from "./errors.js";

/** The reason of an abort caused by the client closing its connection. */
export class ClientGoneError extends Error {
  override readonly name = "ClientGoneError";

  constructor() {
    super("the client closed the connection");
  }
}

export interface RequestSignal {
  readonly signal: AbortSignal;
  /** Detaches the timer and listeners; call once the request is answered. */
  release(): void;
}

export function requestSignal(res: ServerResponse, timeoutMs: number, shutdown: AbortSignal): RequestSignal {
  const controller = new AbortController();
  const abort = (reason: Error): void => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => abort(new ServeError("TIMEOUT", 504, `the request did not finish within ${timeoutMs} ms; it was stopped`)), timeoutMs);
  const onClose = (): void => {
    if (!res.writableFinished) abort(new ClientGoneError());
  };
  const onShutdown = (): void => abort(new ServeError("SHUTTING_DOWN", 503, "the server is shutting down; the request was stopped at the shutdown deadline"));
  res.on("close", onClose);
  shutdown.addEventListener("abort", onShutdown, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      res.off("close", onClose);
      shutdown.removeEventListener("abort", onShutdown);
    },
  };
}
