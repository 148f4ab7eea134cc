#!/usr/bin/env node
/**
 * Builds one of the two N-API addons with the machine's g++; the steps are the same for both (compile
 * our sources two at a time, link to a temporary name, move it into place), only the backend's
 * headers, libraries and output place differ.
 *
 * --backend llama (default): prebuilds/<platform>/pocket_llama.node, the file
 * src/engines/llama/addon.ts loads. It links against the prebuilt llama.cpp libraries of
 * @node-llama-cpp/<platform> (an optional dependency, pinned exactly: the addon is compiled against
 * that release's headers), so llama.cpp itself is never compiled. Its RUNPATH holds only
 * $ORIGIN-relative folders (where npm, yarn and pnpm put that package next to or under
 * pocket-extract), never the absolute folder it was linked in: the same file works wherever the
 * package is installed. `npm pack` runs this (prepack), so the tarball ships the prebuild and
 * installing needs no compiler (the package has no install scripts). Where no addon is there yet (a
 * fresh clone, a platform without a prebuild), the first GGUF load runs this script when a compiler
 * is on PATH; the tests' global setup does the same, once. llama.cpp's headers are taken from
 * native/llama-include/ (shipped in the tarball, for those source builds) or, in this repository,
 * extracted into it from node-llama-cpp's git bundle of the same llama.cpp release.
 *
 * --backend mnn: native/build/Release/pocket_mnn.node, against an installed MNN named by MNN_DIR (a
 * prefix holding include/MNN/, include/llm/llm.hpp and lib/libMNN.so, lib/libMNN_Express.so,
 * lib/libllm.so), with an rpath to that lib folder. Writes native/build/pocket_mnn.json
 * ({ addon, mnnDir }), which src/engines/mnn/addon.ts and the toy model fixture read. MNN itself is
 * never built here: see the README section on the MNN engine.
 *
 *   node native/build.mjs [--backend llama]             build the llama.cpp addon; on failure print why, exit 1
 *   MNN_DIR=/opt/mnn node native/build.mjs --backend mnn  build the MNN addon; on failure print why, exit 1
 *   ... --optional                                        on failure print why, exit 0; for mnn without
 *                                                         MNN_DIR do nothing
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addonApiIncludeDir, BuildError, compileAll, nodeIncludeDir, packageRoot, platformKey, run } from "./toolchain.mjs";

const nativeDir = dirname(fileURLToPath(import.meta.url));
const rootDir = join(nativeDir, "..");
const buildDir = join(nativeDir, "build");
const require = createRequire(join(rootDir, "package.json"));

// ---- llama.cpp ----

const llamaIncludeDir = join(nativeDir, "llama-include");
/** Platforms @node-llama-cpp publishes CPU libraries for that this script can link (ELF, g++). */
const LLAMA_BUILDABLE = ["linux-x64", "linux-arm64"];

function llamaLibraries(platform) {
  if (!LLAMA_BUILDABLE.includes(platform)) throw new BuildError(`building the addon is supported on ${LLAMA_BUILDABLE.join(" and ")} (glibc) only; this is ${platform}`);
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
function ensureLlamaHeaders() {
  if (existsSync(join(llamaIncludeDir, "include", "llama.h"))) return;
  const root = packageRoot(require, "node-llama-cpp");
  if (!root) throw new BuildError(`${llamaIncludeDir} is missing and node-llama-cpp (whose git bundle provides the llama.cpp headers) is not installed`);
  const bundle = join(root, "llama", "gitRelease.bundle");
  if (!existsSync(bundle)) throw new BuildError(`missing ${bundle}`);
  const gitDir = join(buildDir, `llama-git-${process.pid}`);
  rmSync(gitDir, { recursive: true, force: true });
  mkdirSync(gitDir, { recursive: true });
  const git = (...args) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "buffer", maxBuffer: 64 << 20 });
  try {
    git("init", "--bare", "--quiet");
    git("fetch", "--quiet", bundle, "HEAD:refs/heads/release");
    const files = git("ls-tree", "-r", "--name-only", "release", "include", "ggml/include").toString().split("\n").filter((f) => f.endsWith(".h"));
    for (const file of [...files, "LICENSE"]) {
      mkdirSync(dirname(join(llamaIncludeDir, file)), { recursive: true });
      writeFileSync(join(llamaIncludeDir, file), git("show", `release:${file}`));
    }
  } catch (e) {
    rmSync(llamaIncludeDir, { recursive: true, force: true });
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
function llamaRunpath(platform) {
  const bins = `@node-llama-cpp/${platform}/bins/${platform}`;
  return [`$ORIGIN/../../../${bins}`, `$ORIGIN/../../node_modules/${bins}`].join(":");
}

/** The llama.cpp addon's build plan. */
function llamaTarget() {
  const platform = platformKey();
  const lib = llamaLibraries(platform);
  ensureLlamaHeaders();
  return {
    sources: ["masked_sampler.cpp", "llama_model.cpp", "llama_addon.cpp"],
    includes: [`-I${join(llamaIncludeDir, "include")}`, `-I${join(llamaIncludeDir, "ggml", "include")}`],
    addon: join(rootDir, "prebuilds", platform, "pocket_llama.node"),
    // -L and -rpath-link name the build machine's folder for the linker only; nothing absolute is stored.
    link: [`-L${lib.dir}`, `-Wl,-rpath-link,${lib.dir}`, ...lib.libs.map((l) => `-l:${l}`), "-Wl,--enable-new-dtags", `-Wl,-rpath,${llamaRunpath(platform)}`],
    linked: `links ${lib.libs.join(", ")} from ${lib.name}`,
    done() {},
  };
}

// ---- MNN ----

const MNN_REQUIRED = ["include/MNN/expr/Expr.hpp", "include/llm/llm.hpp", "lib/libMNN.so", "lib/libMNN_Express.so", "lib/libllm.so"];

/** The MNN install prefix, checked for every file the addon needs. */
function mnnInstall(dir = process.env.MNN_DIR) {
  if (!dir) throw new BuildError("MNN_DIR is not set (it must name an MNN install prefix; see the README section on the MNN engine)");
  const root = resolve(dir);
  const missing = MNN_REQUIRED.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new BuildError(`MNN_DIR=${root} lacks ${missing.join(", ")} (see the README section on the MNN engine)`);
  return { root, include: join(root, "include"), lib: join(root, "lib") };
}

/** The MNN addon's build plan. */
function mnnTarget() {
  const mnn = mnnInstall();
  return {
    sources: ["masked_sampler.cpp", "mnn_model.cpp", "mnn_addon.cpp"],
    // MNN's headers are not warning-clean: -isystem keeps -Wall about our code.
    includes: [`-isystem${mnn.include}`],
    addon: join(buildDir, "Release", "pocket_mnn.node"),
    link: [`-L${mnn.lib}`, "-lllm", "-lMNN_Express", "-lMNN", `-Wl,-rpath,${mnn.lib}`],
    linked: `MNN: ${mnn.root}`,
    done(addon) {
      writeFileSync(join(buildDir, "pocket_mnn.json"), `${JSON.stringify({ addon, mnnDir: mnn.root }, null, 2)}\n`);
    },
  };
}

// ---- the build ----

const BACKENDS = {
  llama: { name: "llama", engine: "llama.cpp", target: llamaTarget, retry: "npm run native:build" },
  mnn: { name: "mnn", engine: "MNN", target: mnnTarget, retry: "MNN_DIR=... npm run native:build:mnn" },
};

async function build(backend) {
  const started = Date.now();
  const target = backend.target();
  // Per process: two processes building at once (first GGUF loads in parallel) never share a file.
  const objectDir = join(buildDir, `${backend.name}-${process.pid}`);
  mkdirSync(dirname(target.addon), { recursive: true });
  mkdirSync(objectDir, { recursive: true });
  const cxx = process.env.CXX ?? "g++";
  const cflags = [
    // No FMA contraction (GCC contracts by default in C++ modes): the sampler's AVX-512, AVX2 and
    // portable loops must round alike so a seed draws the same id on every x86-64 machine.
    "-std=c++17", "-O2", "-ffp-contract=off", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra",
    "-DNAPI_VERSION=8", "-DNAPI_CPP_EXCEPTIONS", "-DNODE_ADDON_API_DISABLE_DEPRECATED",
    `-I${nodeIncludeDir()}`, `-I${addonApiIncludeDir(require)}`, ...target.includes,
  ];
  const objects = await compileAll(cxx, cflags, target.sources.map((src) => join(nativeDir, "src", src)), objectDir);
  // Link to a temporary name: a failed link must not replace a working addon with a broken file.
  const linking = `${target.addon}.${process.pid}.tmp`;
  await run(cxx, ["-shared", "-o", linking, ...objects, ...target.link]);
  renameSync(linking, target.addon);
  rmSync(objectDir, { recursive: true, force: true });
  target.done(target.addon);
  console.log(`pocket-extract: built ${target.addon} in ${((Date.now() - started) / 1000).toFixed(1)} s (${target.linked})`);
}

/** `--backend <name>` (default llama); exits 2 on an unknown name. */
function chosenBackend(argv) {
  const at = argv.indexOf("--backend");
  const name = at >= 0 ? argv[at + 1] : "llama";
  if (!Object.hasOwn(BACKENDS, name)) {
    console.error(`pocket-extract: --backend must be ${Object.keys(BACKENDS).join(" or ")}, got ${name}`);
    process.exit(2);
  }
  return BACKENDS[name];
}

const backend = chosenBackend(process.argv);
const optional = process.argv.includes("--optional");
// The MNN engine is opt-in: without MNN_DIR, an optional build has nothing to do and says nothing.
if (optional && backend.name === "mnn" && !process.env.MNN_DIR) process.exit(0);
try {
  await build(backend);
} catch (e) {
  const reason = e instanceof BuildError ? e.message : (e?.stack ?? String(e));
  console.error(`pocket-extract: the native ${backend.engine} addon was not built: ${reason}`);
  if (optional) console.error(`pocket-extract: the ${backend.engine} engine will be unavailable until \`${backend.retry}\` succeeds.`);
  process.exit(optional ? 0 : 1);
}
