/**
 * Memory readings after a full garbage collection (enabled at runtime through V8 flags, so no npm
 * script needs `--expose-gc`). XGrammar's WASM heap lives outside the JS heap and shows up in
 * `process.memoryUsage().external`; a WASM heap grows in pages and never shrinks, so a delta is
 * what the heap had to grow, not an exact size.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects twice: a collection can free what the finalizers run by the first one released. */
export function fullGc(): void {
  gc();
  gc();
}

/** `external` memory after a full garbage collection. */
export function externalBytes(): number {
  gc();
  return process.memoryUsage().external;
}
