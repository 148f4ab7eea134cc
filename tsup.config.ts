import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", grammar: "src/grammar-tier.ts", testing: "src/testing/index.ts", cli: "src/cli/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  platform: "node",
  // import.meta.url (grammar files, native addon lookup) must also work in the CJS build.
  shims: true,
});
