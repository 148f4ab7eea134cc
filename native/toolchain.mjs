/**
 * Build helpers of native/build.mjs, used for both of its backends (llama.cpp and MNN addons):
 * the error type that the `--optional` mode reports instead of failing, Node's N-API headers,
 * the platform key prebuilds are filed under, finding an installed package, and running the
 * compiler (one step, or every source two at a time).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

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

/** node-addon-api's headers; its include_dir is relative to the working directory, so made absolute. */
export function addonApiIncludeDir(require) {
  return resolve(require("node-addon-api").include_dir);
}

/** "linux-x64", "linux-arm64", "darwin-arm64", ...; "-musl" added on a Linux without glibc. */
export function platformKey() {
  const musl = process.platform === "linux" && !process.report.getReport().header.glibcVersionRuntime;
  return `${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
}

/** Root folder of an installed package (`exports` may hide its package.json, so walk up from the main file). */
export function packageRoot(require, name) {
  let dir;
  try {
    dir = dirname(require.resolve(name));
  } catch {
    return undefined;
  }
  for (; dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === name) return dir;
  }
  return undefined;
}

export function run(cmd, args) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (e) => fail(new BuildError(`${cmd}: ${e.message}`)));
    child.on("exit", (code) => (code === 0 ? ok() : fail(new BuildError(`${cmd} exited with code ${code}`))));
  });
}

/** Compiles each source to <objectDir>/<name>.o, two at a time; resolves with the object paths. */
export async function compileAll(cxx, cflags, sources, objectDir) {
  const objects = sources.map((src) => join(objectDir, basename(src).replace(/\.cpp$/, ".o")));
  const queue = sources.map((src, i) => () => run(cxx, [...cflags, "-c", src, "-o", objects[i]]));
  const jobs = 2;
  await Promise.all(Array.from({ length: jobs }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  }));
  return objects;
}
