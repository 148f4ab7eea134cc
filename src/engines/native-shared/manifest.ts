/**
 * Finds the JSON manifest a native build script writes (native/build/<name>.json) in the nearest
 * ancestor folder of the calling module: src/engines/<engine>/ in development, dist/ once bundled.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function findNativeManifest(name: string, fromModuleUrl: string): string | undefined {
  const relative = join("native", "build", name);
  for (let dir = dirname(fileURLToPath(fromModuleUrl)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) return undefined;
  }
}
