/**
 * Finds the JSON manifest a native build script writes (native/build/<name>.json) in the
 * pocket-extract package (the MNN addon's build records there where it is and which MNN it links).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ownPackageRoot } from "./package-root.js";

export function findNativeManifest(name: string): string | undefined {
  const path = join(ownPackageRoot(), "native", "build", name);
  return existsSync(path) ? path : undefined;
}
