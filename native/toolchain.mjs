/**
 * Build helpers shared by native/build.mjs (llama.cpp addon) and native/build-mnn.mjs (MNN addon):
 * the error type that the `--optional` mode reports instead of failing, Node's N-API headers,
 * and running a compiler step.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** A build problem with a message meant for the user (what is missing and what to do). */
export class BuildError extends Error {}

export function nodeIncludeDir() {
  const candidates = [
    process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, "include", "node"),
    resolve(dirname(process.execPath), "..", "include", "node"),
    "/usr/include/node",
    "/usr/local/include/node",
  ].filter(Boolean);
  const found = candidates.find((dir) => existsSync(join(dir, "node_api.h")));
  if (!found) throw new BuildError(`Node headers (node_api.h) not found in ${candidates.join(", ")}; set npm_config_nodedir`);
  return found;
}

export function run(cmd, args) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (e) => fail(new BuildError(`${cmd}: ${e.message}`)));
    child.on("exit", (code) => (code === 0 ? ok() : fail(new BuildError(`${cmd} exited with code ${code}`))));
  });
}
