/**
 * The root folder of the installed pocket-extract package (the repository in development), found
 * from this module's own location: src/engines/native-shared/ in development, dist/ once bundled.
 * Native addons and their build manifests are looked up under it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "pocket-extract";

let root: string | undefined;

export function ownPackageRoot(): string {
  if (root !== undefined) return root;
  const here = fileURLToPath(import.meta.url);
  root = packageRootAbove(dirname(here), PACKAGE_NAME);
  if (root === undefined) throw new Error(`${PACKAGE_NAME}: no package.json named ${PACKAGE_NAME} above ${here}`);
  return root;
}

/** The nearest folder at or above `start` whose package.json is named `name`. */
export function packageRootAbove(start: string, name: string): string | undefined {
  for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === name) return dir;
  }
  return undefined;
}
