#!/usr/bin/env node
/**
 * Builds the llama.cpp N-API addon with the machine's g++ into prebuilds/<platform>/pocket_llama.node,
 * the file src/engines/llama/addon.ts loads. The addon links against the prebuilt llama.cpp
 * libraries of @node-llama-cpp/<platform> (an optional dependency, pinned exactly: the addon is
 * compiled against that release's headers), so llama.cpp itself is never compiled.
 *
 * The addon's RUNPATH holds only $ORIGIN-relative folders (where npm, yarn and pnpm put that package
 * next to or under pocket-extract), never the absolute folder it was linked in: the same file works
 * wherever the package is installed. `npm pack` runs this (prepack), so the tarball ships the
 * prebuild and installing needs no compiler (the package has no install scripts). Where no addon is
 * there yet (a fresh clone, a platform without a prebuild), the first GGUF load runs this script
 * when a compiler is on PATH; the tests' global setup does the same, once. llama.cpp's headers are
 * taken from native/llama-include/ (shipped in the tarball, for those source builds) or, in this
 * repository, extracted into it from node-llama-cpp's git bundle of the same llama.cpp release.
 *
 *   node native/build.mjs    build; on failure print why and exit 1
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { addonApiIncludeDir, BuildError, compileAll, nodeIncludeDir, packageRoot, platformKey, run } from "./toolchain.mjs";

const nativeDir = dirname(fileURLToPath(import.meta.url));
const rootDir = join(nativeDir, "..");
// Per process: two processes building at once (first GGUF loads in parallel) never share a file.
const objectDir = join(nativeDir, "build", `llama-${process.pid}`);
const includeDir = join(nativeDir, "llama-include");
const require = createRequire(join(rootDir, "package.json"));
const SOURCES = ["masked_sampler.cpp", "llama_model.cpp", "llama_addon.cpp"];
/** Platforms @node-llama-cpp publishes CPU libraries for that this script can link (ELF, g++). */
const BUILDABLE = ["linux-x64", "linux-arm64"];

function llamaLibraries(platform) {
  if (!BUILDABLE.includes(platform)) throw new BuildError(`building the addon is supported on ${BUILDABLE.join(" and ")} (glibc) only; this is ${platform}`);
  const name = `@node-llama-cpp/${platform}`;
  const root = packageRoot(require, name);
  if (!root) throw new BuildError(`${name} is not installed (the llama.cpp libraries the addon links; see the README's install section)`);
  const dir = join(root, "bins", platform);
  const libs = existsSync(dir) ? readdirSync(dir) : [];
  const find = (re) => {
    const file = libs.find((f) => re.test(f));
    if (!file) throw new BuildError(`no library matching ${re} in ${dir}`);
    return file;
  };
  return { name, dir, libs: [find(/^libllama(\.v[\d.]+)?\.so$/), find(/^libggml(\.v[\d.]+)?\.so$/), find(/^libggml-base\.so$/)] };
}

/** llama.h and the ggml headers (plus llama.cpp's licence), from node-llama-cpp's bundle of its llama.cpp release. */
function ensureHeaders() {
  if (existsSync(join(includeDir, "include", "llama.h"))) return;
  const root = packageRoot(require, "node-llama-cpp");
  if (!root) throw new BuildError(`${includeDir} is missing and node-llama-cpp (whose git bundle provides the llama.cpp headers) is not installed`);
  const bundle = join(root, "llama", "gitRelease.bundle");
  if (!existsSync(bundle)) throw new BuildError(`missing ${bundle}`);
  const gitDir = join(nativeDir, "build", `llama-git-${process.pid}`);
  rmSync(gitDir, { recursive: true, force: true });
  mkdirSync(gitDir, { recursive: true });
  const git = (...args) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "buffer", maxBuffer: 64 << 20 });
  try {
    git("init", "--bare", "--quiet");
    git("fetch", "--quiet", bundle, "HEAD:refs/heads/release");
    const files = git("ls-tree", "-r", "--name-only", "release", "include", "ggml/include").toString().split("\n").filter((f) => f.endsWith(".h"));
    for (const file of [...files, "LICENSE"]) {
      mkdirSync(dirname(join(includeDir, file)), { recursive: true });
      writeFileSync(join(includeDir, file), git("show", `release:${file}`));
    }
  } catch (e) {
    rmSync(includeDir, { recursive: true, force: true });
    throw new BuildError(`could not extract llama.cpp headers with git: ${e.message}`);
  } finally {
    rmSync(gitDir, { recursive: true, force: true });
  }
}

/**
 * Where the loader finds @node-llama-cpp/<platform>'s libraries, relative to the addon in
 * <pocket-extract>/prebuilds/<platform>/: a sibling package (npm and yarn hoisting, pnpm's
 * symlinked direct dependencies), or nested in pocket-extract's own node_modules (npm when versions
 * conflict, and this repository).
 */
function runpath(platform) {
  const bins = `@node-llama-cpp/${platform}/bins/${platform}`;
  return [`$ORIGIN/../../../${bins}`, `$ORIGIN/../../node_modules/${bins}`].join(":");
}

async function build() {
  const started = Date.now();
  const platform = platformKey();
  const lib = llamaLibraries(platform);
  ensureHeaders();
  const outDir = join(rootDir, "prebuilds", platform);
  mkdirSync(outDir, { recursive: true });
  mkdirSync(objectDir, { recursive: true });
  const cxx = process.env.CXX ?? "g++";
  const cflags = [
    "-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra",
    "-DNAPI_VERSION=8", "-DNAPI_CPP_EXCEPTIONS", "-DNODE_ADDON_API_DISABLE_DEPRECATED",
    `-I${nodeIncludeDir()}`, `-I${addonApiIncludeDir(require)}`,
    `-I${join(includeDir, "include")}`, `-I${join(includeDir, "ggml", "include")}`,
  ];
  const objects = await compileAll(cxx, cflags, SOURCES.map((src) => join(nativeDir, "src", src)), objectDir);
  const addon = join(outDir, "pocket_llama.node");
  // Link to a temporary name: a failed link must not replace a working addon with a broken file.
  // -L and -rpath-link name the build machine's folder for the linker only; nothing absolute is stored.
  const linking = `${addon}.${process.pid}.tmp`;
  await run(cxx, [
    "-shared", "-o", linking, ...objects, `-L${lib.dir}`, `-Wl,-rpath-link,${lib.dir}`, ...lib.libs.map((l) => `-l:${l}`),
    "-Wl,--enable-new-dtags", `-Wl,-rpath,${runpath(platform)}`,
  ]);
  renameSync(linking, addon);
  rmSync(objectDir, { recursive: true, force: true });
  console.log(`pocket-extract: built ${addon} in ${((Date.now() - started) / 1000).toFixed(1)} s (links ${lib.libs.join(", ")} from ${lib.name})`);
}

try {
  await build();
} catch (e) {
  const reason = e instanceof BuildError ? e.message : (e?.stack ?? String(e));
  console.error(`pocket-extract: the native llama.cpp addon was not built: ${reason}`);
  process.exit(1);
}
