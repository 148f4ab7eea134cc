/**
 * Vitest global setup: loads the llama.cpp addon once before any test file runs, which builds it
 * from source first when this checkout has none yet (a fresh clone: the package has no install
 * script). Done here, once, because test files in parallel workers would otherwise race to build
 * it. A failure is only reported: the tests that need the addon fail with their own messages.
 */
import { loadLlamaAddon } from "../../src/engines/llama/addon.js";

export default function setup(): void {
  try {
    loadLlamaAddon();
  } catch (err) {
    console.warn(`[native-addon-setup] the llama.cpp addon is unavailable: ${(err as Error).message}`);
  }
}
