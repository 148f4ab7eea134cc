/**
 * Where the llama.cpp addon for this platform lives and what it needs, for the loader in addon.ts:
 * the prebuilt addon shipped in the package (prebuilds/<platform>/pocket_llama.node, built by
 * `npm pack`), the llama.cpp libraries of @node-llama-cpp/<platform> it links (an optional
 * dependency, resolved from the package like any import), and, on a platform without a prebuild,
 * a C++ compiler to build one from the sources shipped in native/.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { PocketExtractError } from "../../errors.js";
import { ownPackageRoot, packageRootAbove } from "../native-shared/package-root.js";

/** Platforms with @node-llama-cpp CPU libraries that native/build.mjs can link (glibc Linux). */
export const BUILDABLE_PLATFORMS: readonly string[] = ["linux-x64", "linux-arm64"];
/** The one platform whose libraries are an optional dependency (and which has a prebuild). */
const PREBUILT_PLATFORM = "linux-x64";

/** "linux-x64", "linux-arm64", "darwin-arm64", ...; "-musl" added on a Linux without glibc. */
export function platformKey(): string {
  const header = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  const musl = process.platform === "linux" && !header.header?.glibcVersionRuntime;
  return `${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
}

export function prebuiltAddonPath(platform: string): string {
  return join(ownPackageRoot(), "prebuilds", platform, "pocket_llama.node");
}

/** The folder of llama.cpp and ggml backend libraries from @node-llama-cpp/<platform>, if installed. */
export function llamaLibraryDir(platform: string): string | undefined {
  const name = `@node-llama-cpp/${platform}`;
  let dir: string;
  try {
    dir = dirname(createRequire(join(ownPackageRoot(), "package.json")).resolve(name));
  } catch {
    return undefined;
  }
  const root = packageRootAbove(dir, name);
  if (root === undefined) return undefined;
  const bins = join(root, "bins", platform);
  return existsSync(bins) ? bins : undefined;
}

/**
 * How to get @node-llama-cpp/<platform>: linux-x64's is an optional dependency; another platform's
 * is not (npm would install @node-llama-cpp/linux-arm64 on x64 too: it declares both CPUs), so its
 * users add the release the addon's headers come from, the one pinned for linux-x64.
 */
export function howToInstallLibraries(platform: string): string {
  if (platform === PREBUILT_PLATFORM) return "Reinstall pocket-extract without --omit=optional / --no-optional.";
  const manifest = JSON.parse(readFileSync(join(ownPackageRoot(), "package.json"), "utf8")) as { optionalDependencies?: Record<string, string> };
  const version = manifest.optionalDependencies?.[`@node-llama-cpp/${PREBUILT_PLATFORM}`] ?? "";
  return `Install them next to pocket-extract: \`npm install @node-llama-cpp/${platform}@${version}\`.`;
}

/** The compiler native/build.mjs would run ($CXX, else g++) when it is found on PATH. */
export function findCompiler(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cxx = env.CXX ?? "g++";
  if (cxx.includes("/")) return existsSync(cxx) ? cxx : undefined;
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  return dirs.map((dir) => join(dir, cxx)).find((path) => existsSync(path));
}

/** Runs native/build.mjs (about a minute, once); ENGINE_UNAVAILABLE with its output when it fails. */
export function buildAddonFromSource(platform: string, compiler: string): void {
  const script = join(ownPackageRoot(), "native", "build.mjs");
  process.stderr.write(`pocket-extract: no prebuilt llama.cpp addon for ${platform}; building one from source with ${compiler} (once)...\n`);
  const result = spawnSync(process.execPath, [script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() || String(result.error ?? `exit code ${result.status}`);
    throw new PocketExtractError("ENGINE_UNAVAILABLE", `building the llama.cpp addon for ${platform} from source failed (${script}):\n${output}`);
  }
}
