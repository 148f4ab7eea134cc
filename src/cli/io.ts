/**
 * What the CLI talks to, as one object, so `runCli` can run in-process in tests (an injected
 * engine, captured output, simulated signals) exactly as it runs from the `pocket-extract` bin.
 */
import type { Readable } from "node:stream";
import type { Engine } from "../engines/index.js";

export type StopSignal = "SIGINT" | "SIGTERM";

export interface SignalSource {
  /** Calls `handler` on each signal until the returned function is called. */
  subscribe(handler: (signal: StopSignal) => void): () => void;
}

export interface CliOutput {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Read for `--input -`. */
  readonly stdin?: Readable;
  /** Stop requests (first: finish in-flight documents; second: abandon them). */
  readonly signals?: SignalSource;
  /** An engine to use instead of loading `--model` (tests, embedding); never disposed by the CLI. */
  readonly engine?: Engine;
}

/** The process's streams and signals. A third signal exits at once, for a wedged engine. */
export function processIo(): CliIo {
  let received = 0;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    signals: {
      subscribe(handler) {
        const listeners = (["SIGINT", "SIGTERM"] as const).map((signal) => {
          const listener = (): void => {
            if (++received >= 3) process.exit(signal === "SIGINT" ? 130 : 143);
            handler(signal);
          };
          process.on(signal, listener);
          return () => process.off(signal, listener);
        });
        return () => listeners.forEach((off) => off());
      },
    },
  };
}
