/**
 * Builds the llama.cpp addon of another git revision (its own native/ sources and build script,
 * this checkout's node_modules) into a temporary folder, so a bench can measure the native code
 * before and after a change in the same process and under the same load. The product never
 * carries the old code: it only exists in the build made here. Cached per revision.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { platformKey } from "../../src/engines/llama/prebuild.js";
import { PROJECT_ROOT } from "./paths.js";

/** Path of the pocket_llama.node built from `revision` (a commit, tag or branch of this repo). */
export function baselineAddon(revision: string): string {
  const commit = execFileSync("git", ["-C", PROJECT_ROOT, "rev-parse", "--verify", `${revision}^{commit}`], { encoding: "utf8" }).trim();
  const dir = join(tmpdir(), `pocket-extract-addon-${commit.slice(0, 12)}`);
  // Revisions before prebuilds/ wrote a manifest naming the addon; later ones write the prebuild.
  const manifest = join(dir, "native", "build", "pocket_llama.json");
  const prebuild = join(dir, "prebuilds", platformKey(), "pocket_llama.node");
  if (!existsSync(manifest) && !existsSync(prebuild)) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync("git", ["-C", PROJECT_ROOT, "archive", commit, "native"], { maxBuffer: 256 << 20 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
    for (const name of ["node_modules", "package.json"]) {
      if (!existsSync(join(dir, name))) symlinkSync(join(PROJECT_ROOT, name), join(dir, name));
    }
    console.log(`building the addon of ${revision} (${commit.slice(0, 12)}) in ${dir} ...`);
    execFileSync(process.execPath, [join(dir, "native", "build.mjs")], { stdio: "inherit" });
  }
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { addon: string }).addon : prebuild;
}
