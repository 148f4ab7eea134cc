/**
 * The real `pocket-extract` CLI in a child process for the hostile CLI tests (the RandomEngine of
 * test/cli/support/random-cli.ts in place of the model), watched from outside: wall time, and the
 * peak resident memory read from /proc/<pid>/status (VmHWM) while it runs. A child over its
 * memory or time bound is killed and reported as such, so a regression fails the test instead of
 * swapping the machine.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { FIXTURES, ROOT } from "../../cli/support/harness.js";

export const RANDOM_CLI = join(ROOT, "test/cli/support/random-cli.ts");
export const PERSON_SCHEMA = join(FIXTURES, "order.ts#Person");

export interface CliBounds {
  /** Kill the child when its resident memory passes this (MB). */
  readonly maxRssMb: number;
  /** Kill the child when it runs longer than this (ms). */
  readonly maxMs: number;
}

export interface CliOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Highest VmHWM seen, in MB. */
  readonly peakRssMb: number;
  readonly ms: number;
  /** Why the watcher killed the child, if it did. */
  readonly killedFor?: "memory" | "time";
}

export interface CliRun {
  /** The child's stdin, when `stdin: "pipe"` was asked for. */
  readonly stdin: Writable | null;
  readonly pid: number;
  readonly done: Promise<CliOutcome>;
}

const POLL_MS = 25;

function peakRssMb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // exited
  }
}

/** Starts the CLI with `args`; see `CliRun`. */
export function startCli(
  args: readonly string[],
  bounds: CliBounds,
  options: {
    stdin?: "pipe" | "ignore";
    env?: Record<string, string>;
    uid?: number;
    gid?: number;
    /** Runs the node command through another (which must `exec` it, so the pid watched is the CLI's). */
    wrap?: (command: readonly string[]) => readonly string[];
  } = {},
): CliRun {
  const spawnOptions: SpawnOptions = {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  };
  const command = [process.execPath, "--import", "tsx", RANDOM_CLI, ...args];
  const [file, ...rest] = options.wrap ? options.wrap(command) : command;
  if (file === undefined) throw new Error("the wrap option returned an empty command");
  const child = spawn(file, rest, spawnOptions);
  const started = performance.now();
  let stdout = "";
  let stderr = "";
  let peak = 0;
  let killedFor: CliOutcome["killedFor"];
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const watch = setInterval(() => {
    peak = Math.max(peak, peakRssMb(child.pid!) ?? 0);
    const over = peak > bounds.maxRssMb ? "memory" : performance.now() - started > bounds.maxMs ? "time" : undefined;
    if (over && !killedFor) {
      killedFor = over;
      child.kill("SIGKILL");
    }
  }, POLL_MS);
  const done = new Promise<CliOutcome>((resolve) =>
    child.on("close", (code, signal) => {
      clearInterval(watch);
      resolve({ code, signal, stdout, stderr, peakRssMb: peak, ms: performance.now() - started, killedFor });
    }),
  );
  return { stdin: child.stdin, pid: child.pid!, done };
}

/** Runs the CLI to its end. */
export function runCliProcess(args: readonly string[], bounds: CliBounds, options?: Parameters<typeof startCli>[2]): Promise<CliOutcome> {
  return startCli(args, bounds, options).done;
}

/** A typed one-line CLI failure: exactly `pocket-extract: CODE: <path>: ...` and nothing else. */
export function typedLine(outcome: CliOutcome): { code: string; path: string; message: string } | undefined {
  const match = /^pocket-extract: ([A-Z_]+): (\S+): ([^\n]+)\n$/.exec(outcome.stderr);
  return match ? { code: match[1]!, path: match[2]!, message: match[3]! } : undefined;
}
