#!/usr/bin/env node
/**
 * Builds the llama.cpp N-API addon (native/build/Release/pocket_llama.node) with the machine's g++:
 * llama.cpp headers are extracted from node-llama-cpp's git bundle into native/build/llama/, and the
 * addon links against the prebuilt libraries of @node-llama-cpp/<platform> (rpath set to their
 * folder), so llama.cpp itself is never compiled. Writes native/build/pocket_llama.json, which the
 * TS engine reads to find the addon and the ggml backend folder.
 *
 *   node native/build.mjs             build, exit 1 on failure
 *   node native/build.mjs --optional  build, but on failure print why and exit 0 (for npm install)
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BuildError, nodeIncludeDir, run } from "./toolchain.mjs";

const nativeDir = dirname(fileURLToPath(import.meta.url));
const buildDir = join(nativeDir, "build");
const require = createRequire(join(nativeDir, "..", "package.json"));
const optional = process.argv.includes("--optional");
const SOURCES = ["masked_sampler.cpp", "llama_model.cpp", "addon.cpp"];
const JOBS = 2;

/** Root folder of an installed package (their `exports` hide package.json, so walk up from the main file). */
function packageRoot(name) {
  let dir;
  try {
    dir = dirname(require.resolve(name));
  } catch {
    return undefined;
  }
  while (!existsSync(join(dir, "package.json")) || !dir.endsWith(name.split("/").pop())) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return dir;
}

function prebuiltLibDir() {
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== "linux-x64") throw new BuildError(`only linux-x64 is supported so far (this is ${platform})`);
  const root = packageRoot(`@node-llama-cpp/${platform}`);
  if (!root) throw new BuildError(`@node-llama-cpp/${platform} is not installed (it comes with node-llama-cpp)`);
  const dir = join(root, "bins", platform);
  const libs = existsSync(dir) ? readdirSync(dir) : [];
  const find = (re) => {
    const name = libs.find((f) => re.test(f));
    if (!name) throw new BuildError(`no library matching ${re} in ${dir}`);
    return name;
  };
  return { dir, libs: [find(/^libllama(\.v[\d.]+)?\.so$/), find(/^libggml(\.v[\d.]+)?\.so$/), find(/^libggml-base\.so$/)] };
}

/** llama.h and ggml headers from node-llama-cpp's bundle of the llama.cpp release it was built from. */
function extractHeaders() {
  const includeDir = join(buildDir, "llama");
  if (existsSync(join(includeDir, "include", "llama.h"))) return includeDir;
  const root = packageRoot("node-llama-cpp");
  if (!root) throw new BuildError("node-llama-cpp is not installed (its git bundle provides the llama.cpp headers)");
  const bundle = join(root, "llama", "gitRelease.bundle");
  if (!existsSync(bundle)) throw new BuildError(`missing ${bundle}`);
  const gitDir = join(buildDir, "llama-git");
  rmSync(gitDir, { recursive: true, force: true });
  const git = (...args) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "buffer", maxBuffer: 64 << 20 });
  try {
    git("init", "--bare", "--quiet");
    git("fetch", "--quiet", bundle, "HEAD:refs/heads/release");
    const files = git("ls-tree", "-r", "--name-only", "release", "include", "ggml/include").toString().split("\n").filter((f) => f.endsWith(".h"));
    for (const file of files) {
      mkdirSync(dirname(join(includeDir, file)), { recursive: true });
      writeFileSync(join(includeDir, file), git("show", `release:${file}`));
    }
  } catch (e) {
    throw new BuildError(`could not extract llama.cpp headers with git: ${e.message}`);
  } finally {
    rmSync(gitDir, { recursive: true, force: true });
  }
  return includeDir;
}

async function build() {
  const started = Date.now();
  mkdirSync(join(buildDir, "Release"), { recursive: true });
  const lib = prebuiltLibDir();
  const llamaDir = extractHeaders();
  const cxx = process.env.CXX ?? "g++";
  const cflags = [
    "-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra",
    "-DNAPI_VERSION=8", "-DNAPI_CPP_EXCEPTIONS", "-DNODE_ADDON_API_DISABLE_DEPRECATED",
    `-I${nodeIncludeDir()}`, `-I${require("node-addon-api").include_dir}`,
    `-I${join(llamaDir, "include")}`, `-I${join(llamaDir, "ggml", "include")}`,
  ];
  const objects = SOURCES.map((src) => join(buildDir, src.replace(/\.cpp$/, ".o")));
  const queue = SOURCES.map((src, i) => () => run(cxx, [...cflags, "-c", join(nativeDir, "src", src), "-o", objects[i]]));
  await Promise.all(Array.from({ length: JOBS }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await job();
  }));
  const addon = join(buildDir, "Release", "pocket_llama.node");
  // Link to a temporary name: a failed link must not replace a working addon with a broken file.
  const linking = `${addon}.tmp`;
  await run(cxx, ["-shared", "-o", linking, ...objects, `-L${lib.dir}`, ...lib.libs.map((l) => `-l:${l}`), `-Wl,-rpath,${lib.dir}`]);
  renameSync(linking, addon);
  writeFileSync(join(buildDir, "pocket_llama.json"), `${JSON.stringify({ addon, backendsDir: lib.dir }, null, 2)}\n`);
  console.log(`pocket-extract: built ${addon} in ${((Date.now() - started) / 1000).toFixed(1)} s (llama.cpp libraries: ${lib.dir})`);
}

try {
  await build();
} catch (e) {
  const reason = e instanceof BuildError ? e.message : (e?.stack ?? String(e));
  console.error(`pocket-extract: the native llama.cpp addon was not built: ${reason}`);
  if (optional) {
    console.error("pocket-extract: GGUF models will be unavailable until `npm run native:build` succeeds.");
    process.exit(0);
  }
  process.exit(1);
}
