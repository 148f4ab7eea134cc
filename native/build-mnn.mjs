#!/usr/bin/env node
/**
 * Builds the MNN N-API addon (native/build/Release/pocket_mnn.node) with the machine's g++ against
 * an installed MNN named by MNN_DIR: a prefix holding include/MNN/, include/llm/llm.hpp and
 * lib/libMNN.so, lib/libMNN_Express.so, lib/libllm.so. The addon gets an rpath to that lib folder.
 * Writes native/build/pocket_mnn.json ({ addon, mnnDir }), which src/engines/mnn/addon.ts and the
 * toy model fixture read. MNN itself is never built here: see the README section on the MNN engine.
 *
 *   MNN_DIR=/opt/mnn node native/build-mnn.mjs             build, exit 1 on failure
 *   MNN_DIR=/opt/mnn node native/build-mnn.mjs --optional  on failure print why, exit 0; without
 *                                                          MNN_DIR do nothing (for npm install)
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addonApiIncludeDir, BuildError, compileAll, nodeIncludeDir, run } from "./toolchain.mjs";

const nativeDir = dirname(fileURLToPath(import.meta.url));
const buildDir = join(nativeDir, "build");
const objectDir = join(buildDir, "mnn");
const require = createRequire(join(nativeDir, "..", "package.json"));
const optional = process.argv.includes("--optional");
// masked_sampler.cpp is the llama.cpp addon's shared sampler, compiled again into this addon.
const SOURCES = ["masked_sampler.cpp", "mnn_model.cpp", "mnn_addon.cpp"];
const REQUIRED = ["include/MNN/expr/Expr.hpp", "include/llm/llm.hpp", "lib/libMNN.so", "lib/libMNN_Express.so", "lib/libllm.so"];

/** The MNN install prefix, checked for every file the addon needs. */
function mnnInstall(dir = process.env.MNN_DIR) {
  if (!dir) throw new BuildError("MNN_DIR is not set (it must name an MNN install prefix; see the README section on the MNN engine)");
  const root = resolve(dir);
  const missing = REQUIRED.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new BuildError(`MNN_DIR=${root} lacks ${missing.join(", ")} (see the README section on the MNN engine)`);
  return { root, include: join(root, "include"), lib: join(root, "lib") };
}

async function build() {
  const started = Date.now();
  const mnn = mnnInstall();
  mkdirSync(join(buildDir, "Release"), { recursive: true });
  mkdirSync(objectDir, { recursive: true });
  const cxx = process.env.CXX ?? "g++";
  const cflags = [
    "-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra",
    "-DNAPI_VERSION=8", "-DNAPI_CPP_EXCEPTIONS", "-DNODE_ADDON_API_DISABLE_DEPRECATED",
    `-I${nodeIncludeDir()}`, `-I${addonApiIncludeDir(require)}`,
    // MNN's headers are not warning-clean: -isystem keeps -Wall about our code.
    `-isystem${mnn.include}`,
  ];
  const objects = await compileAll(cxx, cflags, SOURCES.map((src) => join(nativeDir, "src", src)), objectDir);
  const addon = join(buildDir, "Release", "pocket_mnn.node");
  // Link to a temporary name: a failed link must not replace a working addon with a broken file.
  const linking = `${addon}.tmp`;
  await run(cxx, ["-shared", "-o", linking, ...objects, `-L${mnn.lib}`, "-lllm", "-lMNN_Express", "-lMNN", `-Wl,-rpath,${mnn.lib}`]);
  renameSync(linking, addon);
  writeFileSync(join(buildDir, "pocket_mnn.json"), `${JSON.stringify({ addon, mnnDir: mnn.root }, null, 2)}\n`);
  console.log(`pocket-extract: built ${addon} in ${((Date.now() - started) / 1000).toFixed(1)} s (MNN: ${mnn.root})`);
}

// The MNN engine is opt-in: an npm install without MNN is the normal case, not worth a message.
const wanted = !optional || Boolean(process.env.MNN_DIR);
if (wanted) {
  try {
    await build();
  } catch (e) {
    const reason = e instanceof BuildError ? e.message : (e?.stack ?? String(e));
    console.error(`pocket-extract: the native MNN addon was not built: ${reason}`);
    if (optional) {
      console.error("pocket-extract: MNN model directories will be unavailable until `MNN_DIR=... node native/build-mnn.mjs` succeeds.");
      process.exit(0);
    }
    process.exit(1);
  }
}
