/**
 * Test helpers for the CLI: captured in-process IO, a scratch directory, JSONL reading, and the
 * subprocess runner for the CLI entry points.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo, SignalSource, StopSignal } from "../../../src/cli/io.js";
import type { Engine } from "../../../src/engines/engine.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const FIXTURES = join(ROOT, "test/cli/fixtures");

export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), "pocket-cli-"));
}

export function writeJsonl(path: string, values: readonly unknown[]): string {
  writeFileSync(path, values.map((v) => (typeof v === "string" && v.startsWith("RAW:") ? v.slice(4) : JSON.stringify(v))).join("\n") + "\n");
  return path;
}

/** Every line of a JSONL file, parsed (throws on a line that does not parse). */
export function readJsonl<T = Record<string, unknown>>(path: string): T[] {
  const text = readFileSync(path, "utf8");
  if (text === "") return [];
  if (!text.endsWith("\n")) throw new Error(`${path} does not end with a newline`);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
  /** Delivers a signal to the running command. */
  signal(s: StopSignal): void;
}

export function captureIo(engine: Engine, options: { tty?: boolean; stdin?: CliIo["stdin"] } = {}): CapturedIo {
  let out = "";
  let err = "";
  const handlers = new Set<(s: StopSignal) => void>();
  const signals: SignalSource = {
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
  return {
    engine,
    stdin: options.stdin,
    signals,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: options.tty ?? false, columns: 200 },
    out: () => out,
    err: () => err,
    signal: (s) => handlers.forEach((h) => h(s)),
  };
}

export interface Exited {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Starts `node --import tsx <script> ...args` from the repository root; `exited` resolves when it
 * ends. One process, not the `tsx` wrapper (which runs the script in a child of its own), so a
 * signal sent to `child` reaches the CLI itself.
 */
export function startTsx(script: string, args: readonly string[], env: Record<string, string> = {}): { child: ChildProcess; exited: Promise<Exited> } {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exited>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited };
}
