/**
 * Where the llama.cpp addon comes from (src/engines/llama/prebuild.ts): the prebuild's RUNPATH holds
 * no path of the machine that built it, the libraries resolve from the installed
 * @node-llama-cpp/linux-x64, and a source build is attempted only with a compiler on PATH. Like
 * llama.test.ts, this needs the addon built (`npm run native:build`; CI does it) and readelf.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCompiler, howToInstallLibraries, llamaLibraryDir, platformKey, prebuiltAddonPath } from "../../src/engines/llama/prebuild.js";

const onLinuxX64 = platformKey() === "linux-x64";

describe.runIf(onLinuxX64)("the linux-x64 prebuild", () => {
  it("has a RUNPATH of $ORIGIN-relative folders only, and needs libllama from there", () => {
    const addon = prebuiltAddonPath("linux-x64");
    expect(existsSync(addon), `${addon} is missing: run \`npm run native:build\``).toBe(true);
    const readelf = spawnSync("readelf", ["-d", addon], { encoding: "utf8" });
    expect(readelf.status, readelf.stderr).toBe(0);
    const runpath = /\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]/.exec(readelf.stdout)?.[1];
    expect(runpath, readelf.stdout).toBeDefined();
    const folders = runpath!.split(":");
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) expect(folder).toMatch(/^\$ORIGIN\//);
    expect(readelf.stdout).toMatch(/\(NEEDED\)\s+Shared library: \[libllama[\w.]*\.so\]/);
  });

  it("finds the llama.cpp libraries in the installed @node-llama-cpp/linux-x64", () => {
    const dir = llamaLibraryDir("linux-x64");
    expect(dir).toMatch(/@node-llama-cpp\/linux-x64\/bins\/linux-x64$/);
    expect(readdirSync(dir!).some((f) => /^libllama(\.v[\d.]+)?\.so$/.test(f))).toBe(true);
  });
});

describe("platforms without libraries or a prebuild", () => {
  it("has no library folder for a platform whose package is not installed", () => {
    expect(llamaLibraryDir("plan9-x64")).toBeUndefined();
  });

  it("tells linux-arm64 users which @node-llama-cpp release to install (the one pinned for x64)", () => {
    expect(howToInstallLibraries("linux-arm64")).toMatch(/npm install @node-llama-cpp\/linux-arm64@\d+\.\d+\.\d+/);
    expect(howToInstallLibraries("linux-x64")).toMatch(/--omit=optional/);
  });
});

describe("findCompiler", () => {
  const bin = mkdtempSync(join(tmpdir(), "pocket-compiler-"));
  const empty = join(bin, "empty");
  mkdirSync(empty);
  for (const name of ["g++", "clang++"]) {
    writeFileSync(join(bin, name), "#!/bin/sh\n");
    chmodSync(join(bin, name), 0o755);
  }

  it("finds g++ on PATH, or nothing on a PATH without one", () => {
    expect(findCompiler({ PATH: `${empty}:${bin}` })).toBe(join(bin, "g++"));
    expect(findCompiler({ PATH: empty })).toBeUndefined();
    expect(findCompiler({})).toBeUndefined();
  });

  it("honours CXX, by name on PATH or as a path", () => {
    expect(findCompiler({ PATH: bin, CXX: "clang++" })).toBe(join(bin, "clang++"));
    expect(findCompiler({ PATH: bin, CXX: join(bin, "clang++") })).toBe(join(bin, "clang++"));
    expect(findCompiler({ PATH: bin, CXX: join(empty, "g++") })).toBeUndefined();
  });
});
